import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// The pipeline's own notes to its bus thread (`PipelineNote`): what streaming threads and callers saw
/// (a first frame, a video size, the media's end, subtitle cues, a disguised manifest, a refused seek or
/// state change), reported as events in order with GStreamer's messages.
///
/// Notes are posted from any thread (`post`); everything here runs on the bus thread.
extension GStreamerPipeline {
    /// An application message: one of the pipeline's own notes (anything else on the bus is ignored).
    /// Returns false when the bus thread should stop.
    func handleApplication(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard let note = notes.take(message) else { return true }
        switch note {
        case .stop:
            return false
        case .volumeApplied:
            emit(.volumeChanged(AudioVolume(level: cove_get_double(playbin.object, "volume"), isMuted: cove_get_bool(playbin.object, "mute") != 0)))
        case .mediaEnded:
            reportEndOfStream()
        case .disguisedManifest:
            reportDisguisedManifest()
        case .textCuesPending:
            let cues = state.withLock { s -> [TextCue] in
                defer { s.pendingCues = [] }
                return s.pendingCues
            }
            for cue in cues { emit(.textCue(cue)) }
        case .firstBuffer(let sighting, let time):
            if sighting == .shownAtPreroll {
                // Reported once the load has finished (after `prerolled`), in `finishLoad`. A frame that
                // arrived before the start seek is superseded by this one.
                let finished = state.withLock { s -> Bool in
                    s.frameWaitingForPlaying = nil
                    if !s.prerolled { s.shownAtPreroll = time }
                    return s.prerolled
                }
                if finished { reportStartFrame(shownAt: time) }
                return true
            }
            let rendered = sighting == .rendered
            let (playingNow, becamePlaying) = state.withLock { s -> (Bool, Bool) in
                if rendered && !s.pipelineAtPlaying {
                    // A sink rendered it: the pipeline is playing, even if its state message is still queued.
                    s.pipelineAtPlaying = true
                    return (true, true)
                }
                if !s.pipelineAtPlaying { s.frameWaitingForPlaying = time }
                return (s.pipelineAtPlaying, false)
            }
            if becamePlaying { emit(.playing) }
            if playingNow { emit(.firstFrame(wallTime: time)) }
        case .videoSize(let width, let height):
            let changed = state.withLock { s -> Bool in
                if let current = s.videoSize, current.width == width, current.height == height { return false }
                s.videoSize = (width, height)
                return true
            }
            if changed { emit(.videoSizeChanged(width: width, height: height)) }
        case .startSeekFailed:
            // Could not seek: start from where we are (at the rate the pipeline was built with) rather than stall.
            let wantsPlaying = state.withLock { s -> Bool in
                s.startSeekSeqnum = nil
                s.appliedRate = 1
                return s.wantsPlaying
            }
            finishLoad(wantsPlaying: wantsPlaying)
            applyRateIfNeeded()
        case .seekFailed(let id):
            state.withLock { s in
                if s.pendingSeek?.id == id { s.pendingSeek = nil }
                // The refused seek carried a rate it never applied.
                s.appliedRate = s.rateBeforeSeek
            }
            emit(.seekCompleted(id: id, succeeded: false))
        case .stateChangeFailed:
            let report = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            if report {
                emit(.failed(PlaybackError(.engineFailure, "The engine could not start playing \(Redaction.redact(urlString: urlText))", url: urlText)))
            }
        }
        return true
    }

    /// Reports the end of stream once per flush generation (the media's own end or the pipeline's EOS).
    func reportEndOfStream() {
        let report = state.withLock { s -> Bool in
            guard s.eosGeneration == s.flushGeneration, s.endReportedGeneration != s.flushGeneration else { return false }
            s.endReportedGeneration = s.flushGeneration
            return true
        }
        if report { emit(.endOfStream) }
    }

    /// Reports `manifestBehindMediaName` from the bus thread, in order with the other events.
    private func reportDisguisedManifest() {
        let (factory, report) = state.withLock { s -> (String, Bool) in
            defer { s.failed = true }
            return (s.disguisedManifest ?? "", !s.failed)
        }
        logger.notice("a manifest behind a media file's name", metadata: ["demuxer": "\(factory)"])
        guard report else { return }
        let name = configuration.url.pathExtension
        emit(
            .failed(
                PlaybackError(
                    .unsupportedFormat,
                    "\(Redaction.redact(urlString: urlText)) holds an HLS or DASH manifest under a media file's name (.\(name)); Cove streams manifests itself: give the URL its .m3u8 or .mpd name, or a name without an extension, so Cove reads it as one",
                    url: urlText
                )))
    }
}
