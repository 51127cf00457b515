import CCoveGst
import CGStreamer
import CoveCore
import CoveStreaming
import Foundation
import Logging
import Synchronization

/// The feed side: Cove's streaming drive for HLS and DASH. The `StreamingSession` reports what it
/// fetched and decided; the `AppSourceFeed` takes over playbin3's `appsrc` and pushes whole segments
/// into it; the playhead the session fetches ahead of; and the buffering Cove reports from what it pushed.
///
/// Threads: `handleStreaming` runs on the streaming session's tasks (its events go out at once, see the
/// threading model), `appSourceCreated` on the streaming thread that made the source, `streamingPlayhead`
/// wherever the session asks, and `checkStreamingBuffer` on the bus thread (polled by the `BusReader`).
extension GStreamerPipeline {
    /// What the streaming session reports (on its own tasks). Engine events go out at once: they are
    /// thread-safe to yield, and the ladder and the start come before anything is pushed.
    func handleStreaming(_ event: StreamingEvent) {
        guard !isClosed else { return }
        switch event {
        case .presentationReady(let presentation, _):
            if presentation.variants.count > 1 || presentation.variants.contains(where: { $0.bandwidth > 0 }) {
                emit(.variantsDiscovered(presentation.ladder))
            }
            announceAudioRenditions(presentation)
            announceTextRenditions(presentation)
        case .starting(let at, _):
            let (first, audio) = state.withLock { s -> (Bool, AudioRenditionFeed?) in
                guard s.streamStart == nil else { return (false, nil) }
                s.streamStart = at
                return (true, s.audio)
            }
            guard first else { return }
            audio?.start(at: at)
            startPipeline()
        case .variantSelected(let variant):
            emit(.variantChanged(bandwidth: variant.bandwidth, url: Redaction.redact(url: variant.playlistURL)))
        case .request(let record):
            let kind = MediaTransfer.Kind(rawValue: record.kind.rawValue) ?? .other
            // An audio rendition's variant indexes are its own session's, not the ladder's.
            let bandwidth =
                record.stream == .audio
                ? nil : record.variantIndex.flatMap { index in feed?.session?.presentation?.variants.first { $0.index == index }?.bandwidth }
            emit(
                .transferCompleted(
                    MediaTransfer(
                        kind: kind, url: record.url, status: record.status, bytes: record.bytes, startedAt: record.startedAt, duration: record.duration,
                        variantBandwidth: bandwidth, attempt: record.attempt, span: record.span)))
        case .timelineUpdated:
            break
        case .downloadFailed(let error) where error.isPermanent:
            // No retry brings an expired licence or a deleted file back: the session fails with the typed error.
            let report = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            if report { emit(.failed(error.playbackError)) }
        case .downloadFailed(let error):
            emit(.downloadFailed(error.downloadFailure))
        case .failed(let error):
            let fallBack = state.withLock { s -> Bool in
                guard s.streamStart == nil, s.route == .cove, error.code == .notStreamable else { return false }
                s.route = .gstreamer
                return true
            }
            if fallBack {
                // A media file behind a name that did not say so: GStreamer reads it itself.
                logger.notice("GStreamer reads this URL itself", metadata: ["reason": "\(error.message)"])
                feed?.close()
                GStreamerRuntime.shareSession(with: playbin.pointer)
                cove_set_string(playbin.object, "uri", urlText)
                startPipeline()
                return
            }
            let report = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            if report { emit(.failed(error.playbackError)) }
        }
    }

    /// playbin3 made the `appsrc://` source: the feed takes it over, starting where the session starts.
    func appSourceCreated(_ element: UnsafeMutablePointer<GstElement>) {
        guard let feed, route == .cove else { return }
        let (start, audio) = state.withLock { ($0.streamStart, $0.audio) }
        if let audio, takeGString(cove_element_uri(element)) == AudioRenditionFeed.uri {
            audio.attach(appsrc: element, start: start)
            return
        }
        feed.attach(appsrc: element, start: start)
        feed.setDuration(feed.session?.duration)
    }

    /// Unsynchronised sinks render as fast as they decode and their position follows the clock, not the
    /// media: what reached the sinks is where playback is.
    private func renderedPosition() -> Double? {
        let (ends, video) = state.withLock { ($0.sinkEnds, $0.expectsVideo ?? true) }
        let kinds: [EngineTrack.Kind] = video ? [.video, .audio] : [.audio]
        guard let end = kinds.compactMap({ ends[$0] }).min() else { return nil }
        return max(Double(end) / 1_000_000_000 - decoderOffset, 0)
    }

    /// The playhead Cove's streaming measures its buffer from (presentation seconds).
    func streamingPlayhead() -> Double? {
        configuration.pacing == .realTime ? currentPosition()?.seconds : renderedPosition()
    }

    /// Cove's streaming reports its own buffering from what it pushed (see `StreamStarvation`): 0 % when
    /// the playhead stands at the end of the pushed media (or one of two streams has overrun), 100 % once
    /// media is there again.
    func checkStreamingBuffer() {
        guard route == .cove, let session = feed?.session else { return }
        let (prerolled, starved) = state.withLock { ($0.prerolled && !$0.closed, $0.starvation.isStarved) }
        let audio = state.withLock { $0.audio }?.session
        guard prerolled, let videoAhead = session.bufferedAhead else { return }
        let ahead = min(videoAhead, audio?.bufferedAhead ?? videoAhead)
        let ended = session.hasPushedEnd && (audio?.hasPushedEnd ?? true)
        let now = Date().timeIntervalSince1970
        let playhead = streamingPlayhead()
        updateTextPlayhead(playhead)
        let frozen = state.withLock { $0.starvation.playheadIsFrozen(at: playhead, now: now) }
        let overrun = state.withLock { $0.starvation.hasOverrun(separateAudio: audio != nil, ahead: ahead, now: now) }
        if !starved && StreamStarvation.runsDry(ahead: ahead, frozen: frozen, overrun: overrun, ended: ended) && state.withLock({ $0.pipelineAtPlaying }) {
            state.withLock { s in
                s.starvation.isStarved = true
                s.lastBufferingSent = 0
            }
            emit(.buffering(percent: 0))
        } else if starved && StreamStarvation.isRefilled(ahead: ahead, ended: ended) {
            state.withLock { s in
                s.starvation.isStarved = false
                s.lastBufferingSent = 100
            }
            emit(.buffering(percent: 100))
        }
    }
}
