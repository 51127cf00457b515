import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// GStreamer's bus messages, read in order by the pipeline's `BusReader` on the bus thread, mapped to
/// engine events: state changes, the ASYNC_DONE that finishes a load or a seek, buffering, durations,
/// streams, end of stream, warnings and errors (classified by `EngineErrorClassifier`).
///
/// Runs only on the bus thread (the pipeline's own notes are in `GStreamerPipeline+Notes.swift`).
extension GStreamerPipeline: BusReaderClient {
    /// Nothing needs the bus thread between messages: a fed pipeline's producer watches its own buffer.
    var pollsOften: Bool { false }

    func poll() {}

    /// Maps one bus message to events. Returns false when the thread should stop.
    func handle(busMessage message: UnsafeMutablePointer<GstMessage>) -> Bool {
        let type = message.pointee.type
        let fromPipeline = cove_message_source(message) == UnsafeMutableRawPointer(playbin.pointer).assumingMemoryBound(to: GstObject.self)
        switch type {
        case GST_MESSAGE_APPLICATION:
            return handleApplication(message)
        case GST_MESSAGE_STATE_CHANGED where fromPipeline:
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            var pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            logger.trace(
                "pipeline state changed",
                metadata: [
                    "old": "\(old.rawValue)", "new": "\(new.rawValue)", "pending": "\(pending.rawValue)",
                    "wantsPlaying": "\(state.withLock { $0.wantsPlaying })",
                ])
            if new == GST_STATE_PLAYING {
                let (wasPlaying, frameTime) = state.withLock { s -> (Bool, Double?) in
                    let was = s.pipelineAtPlaying
                    s.pipelineAtPlaying = true
                    defer { s.frameWaitingForPlaying = nil }
                    return (was, s.frameWaitingForPlaying)
                }
                if !wasPlaying { emit(.playing) }
                // The frame was waiting in the sink; it is presented now that the pipeline plays.
                if frameTime != nil { emit(.firstFrame(wallTime: Date().timeIntervalSince1970)) }
            } else if old == GST_STATE_PLAYING || (new == GST_STATE_PAUSED && pending == GST_STATE_VOID_PENDING) {
                // Left PLAYING, or settled at PAUSED. The second matters after a flushing seek: the pipeline
                // loses its state (PAUSED→PAUSED, pending PAUSED) without a message from PLAYING, so a
                // pause that lands while it recovers settles at PAUSED and is otherwise never reported.
                // (The transient lost state itself, still pending, is not a pause.)
                let wasPlaying = state.withLock { s -> Bool in
                    defer { s.pipelineAtPlaying = false }
                    return s.pipelineAtPlaying
                }
                if wasPlaying { emit(.paused) }
            }
        case GST_MESSAGE_ASYNC_DONE where fromPipeline:
            handleAsyncDone()
        case GST_MESSAGE_BUFFERING:
            // GStreamer's own buffering (a media file over HTTP); Cove's streaming reports its own.
            let percent = Int(cove_message_buffering_percent(message))
            let send = state.withLock { s -> Bool in
                let last = s.lastBufferingSent
                guard percent != last, percent == 0 || percent == 100 || last < 0 || abs(percent - last) >= 10 else { return false }
                s.lastBufferingSent = percent
                return true
            }
            if send { emit(.buffering(percent: percent)) }
        case GST_MESSAGE_DURATION_CHANGED:
            if state.withLock({ $0.prerolled }) { emit(.durationChanged(currentDuration())) }
        case GST_MESSAGE_STREAM_COLLECTION:
            handleCollection(message)
        case GST_MESSAGE_STREAMS_SELECTED:
            handleStreamsSelected(message)
        case GST_MESSAGE_ELEMENT:
            handleElement(message)
        case GST_MESSAGE_EOS:
            // Every frame is in the sink's counts now, before anything can reset them.
            outputs.observeFrames()
            // An end-of-stream that a seek flushed away is stale: playback has moved on.
            let current = state.withLock { $0.eosGeneration == $0.flushGeneration }
            if current { reportEndOfStream() } else { logger.debug("dropping an end-of-stream that a seek superseded") }
        case GST_MESSAGE_ERROR:
            handleError(message)
        case GST_MESSAGE_WARNING:
            var domain: UnsafeMutablePointer<CChar>?
            var text: UnsafeMutablePointer<CChar>?
            var debug: UnsafeMutablePointer<CChar>?
            var code: gint = 0
            cove_message_error(message, 1, &domain, &code, &text, &debug)
            _ = takeGString(domain)
            _ = takeGString(debug)
            emit(.warning(Redaction.redactSecrets(in: takeGString(text) ?? "warning")))
        default:
            break
        }
        return true
    }

    /// ASYNC_DONE: the first one finishes the load (or triggers the start seek); later ones finish a
    /// seek once its flush has reached the sinks. (The pipeline's ASYNC_DONE carries a seqnum of its own;
    /// the seek's seqnum is the one its flush carries.) Others — a pause's, a superseded seek's — are ignored.
    private func handleAsyncDone() {
        enum Step { case none, startSeek(MediaTime), prerolled(Bool), seekDone(Int) }
        let step = state.withLock { s -> Step in
            if !s.prerolled {
                if let startSeek = s.startSeekSeqnum {
                    guard s.lastFlushSeqnum == startSeek else { return .none }
                } else if readsAFile, let start = configuration.startPosition, start > .zero, start.isFinite {
                    return .startSeek(start)
                }
                s.prerolled = true
                s.startSeekSeqnum = nil
                return .prerolled(s.wantsPlaying)
            }
            if let pending = s.pendingSeek, pending.seqnum == s.lastFlushSeqnum {
                s.pendingSeek = nil
                return .seekDone(pending.id)
            }
            return .none
        }
        switch step {
        case .none:
            applyRateIfNeeded()
        case .startSeek(let start):
            sendSeek(to: start, keyUnit: false, register: { s, seqnum in s.startSeekSeqnum = seqnum }, failed: .startSeekFailed)
        case .prerolled(let wantsPlaying):
            applyRateIfNeeded()
            finishLoad(wantsPlaying: wantsPlaying, alreadyMarked: true)
        case .seekDone(let id):
            emit(.seekCompleted(id: id, succeeded: true))
            applyRateIfNeeded()
        }
    }

    /// The load has finished (prerolled): reports it with the duration and seekable ranges, then the start
    /// frame shown at preroll, and goes on to PLAYING when that is wanted.
    func finishLoad(wantsPlaying: Bool, alreadyMarked: Bool = false) {
        if !alreadyMarked { state.withLock { $0.prerolled = true } }
        let duration = currentDuration()
        emit(.prerolled(EngineMediaInfo(duration: duration, seekableRanges: seekableRanges(), isLive: duration == nil)))
        if let shown = state.withLock({ s -> Double? in
            defer { s.shownAtPreroll = nil }
            return s.shownAtPreroll
        }) {
            reportStartFrame(shownAt: shown)
        }
        if wantsPlaying { setState(GST_STATE_PLAYING) }
    }

    /// The start frame shown at preroll: reported now if playing is still wanted, else when the pipeline
    /// first plays (the viewer has seen it, but a paused player has not started).
    func reportStartFrame(shownAt time: Double) {
        let now = state.withLock { s -> Bool in
            if !s.wantsPlaying && !s.pipelineAtPlaying { s.frameWaitingForPlaying = time }
            return s.wantsPlaying || s.pipelineAtPlaying
        }
        if now { emit(.firstFrame(wallTime: time)) }
    }

    /// Element messages: the HTTP status of what GStreamer's own source fetched (for error classification).
    private func handleElement(_ message: UnsafeMutablePointer<GstMessage>) {
        let name = String(cString: cove_message_structure_name(message))
        switch name {
        case "http-headers":
            var status: guint = 0
            guard cove_message_get_uint(message, "http-status-code", &status) != 0 else { return }
            let uri = takeGString(cove_message_get_string(message, "uri")) ?? ""
            state.withLock { s in
                s.httpStatusByURI[uri] = Int(status)
                if status >= 400 || status == 0 { s.lastHTTPError = Int(status) }
            }
        default:
            break
        }
    }

    /// ERROR: restarts the audio rendition's source when its demuxer relinked; after preroll, a failed
    /// download is reported as such; anything else fails the play once, typed by `EngineErrorClassifier`.
    private func handleError(_ message: UnsafeMutablePointer<GstMessage>) {
        var domain: UnsafeMutablePointer<CChar>?
        var text: UnsafeMutablePointer<CChar>?
        var debug: UnsafeMutablePointer<CChar>?
        var code: gint = 0
        cove_message_error(message, 0, &domain, &code, &text, &debug)
        let source = cove_object_name(UnsafeMutableRawPointer(cove_message_source(message))).map { String(cString: $0) } ?? ""
        let (prerolled, alreadyFailed, status) = state.withLock { s -> (Bool, Bool, Int?) in
            (s.prerolled, s.failed, s.httpStatusByURI[urlText] ?? s.lastHTTPError)
        }
        let report = EngineErrorClassifier.Report(
            domain: takeGString(domain) ?? "", code: code, text: takeGString(text) ?? "", debug: takeGString(debug) ?? "",
            sourceElement: source, httpStatus: status
        )
        logger.debug(
            "engine error",
            metadata: ["domain": "\(report.domain)", "code": "\(report.code)", "source": "\(source)", "text": "\(Redaction.redactSecrets(in: report.text))"])
        guard !alreadyFailed else { return }
        // A new audio rendition can come with a new transport-stream program: the demuxer re-exposes its
        // output while data already flows, and the audio source stops "not-linked". That source alone is
        // restarted where the playhead is; the video never stopped.
        if report.debug.contains("not-linked"), let audio = state.withLock({ $0.audio }), audio.owns(sourceElement: source) {
            let outcome = audio.restart(
                at: { [weak self] in self?.currentPosition()?.seconds }, fallbackPosition: currentPosition()?.seconds, decoderOffset: decoderOffset,
                rate: { [weak self] in self?.state.withLock { $0.rate } ?? 1 }, isClosed: { [weak self] in self?.isClosed ?? true }
            )
            if outcome != .exhausted {
                logger.notice("audio rendition source restarted after its demuxer relinked", metadata: ["source": "\(source)", "when": "\(outcome)"])
                return
            }
        }
        if prerolled && EngineErrorClassifier.isDownloadFailure(report) {
            emit(.downloadFailed(EngineErrorClassifier.downloadFailure(report, url: urlText)))
            return
        }
        state.withLock { $0.failed = true }
        emit(.failed(EngineErrorClassifier.classify(report, url: urlText)))
    }
}
