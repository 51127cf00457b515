import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// The command side: load, play, pause, seek, rate, volume, captions, bitrate and buffer caps, close and
/// teardown.
///
/// Commands come on the controller's thread (any thread); a few (`startPipeline`, `setState`, `sendSeek`,
/// `applyRateIfNeeded`) also run on the bus thread or the producer's tasks (`startFeed`). They record intent
/// under `state`, then call GStreamer with no lock held (but `transitions`, around a state change).
/// What they cause is reported by the bus thread: a refused seek or state change is posted as a note.
extension GStreamerPipeline {
    func load(playWhenReady: Bool) {
        state.withLock {
            $0.wantsPlaying = playWhenReady
            $0.awaitingBuffer = true
        }
        // A fed pipeline leaves NULL once the producer says where the feed starts (`startFeed`): its
        // sources must begin there. A byte-fed one once its producer starts reading (`startReading`).
        if route != .reading { return }
        startPipeline()
    }

    /// PAUSED to preroll, or straight to PLAYING when playing was asked for and no start seek must come first.
    func startPipeline() {
        let wantsPlaying = state.withLock { $0.wantsPlaying }
        setState((wantsPlaying && !needsStartSeek) ? GST_STATE_PLAYING : GST_STATE_PAUSED)
    }

    func play() {
        let go = state.withLock { s -> Bool in
            s.wantsPlaying = true
            return s.startSeekSeqnum == nil && !s.closed
        }
        if go { setState(GST_STATE_PLAYING) }
    }

    func pause() {
        let go = state.withLock { s -> Bool in
            s.wantsPlaying = false
            return !s.closed
        }
        if go { setState(GST_STATE_PAUSED) }
    }

    func seek(to target: MediaTime, tolerance: SeekTolerance, id: Int) {
        guard !isClosed else { return }
        sendSeek(
            to: target, keyUnit: tolerance.allowsKeyframeSnap,
            register: { s, seqnum in
                s.pendingSeek = (id, target, seqnum)
            }, failed: .seekFailed(id: id))
    }

    /// Records a flushing seek's seqnum (with `register`) before sending it — its ASYNC_DONE may arrive on
    /// the bus thread before `send_event` returns — and sends it. When the engine refuses it, the `failed`
    /// note is posted, so the bus thread reports it in order.
    /// The seek carries the rate the app wants at the moment it is registered (read under the same lock
    /// that records it as applied), so a `setRate` racing with it is either carried by it or sees it
    /// applied and sends its own.
    /// `onlyIf` is checked under that same lock: a seek whose reason is gone by then (a rate already
    /// applied, an app seek already finished) is not sent.
    func sendSeek(
        to target: MediaTime, keyUnit: Bool, onlyIf stillWanted: (State) -> Bool = { _ in true }, register: (inout State, UInt32) -> Void = { _, _ in },
        failed: PipelineNote? = nil
    ) {
        let seqnum = gst_util_seqnum_next()
        let rate = state.withLock { s -> Double? in
            guard stillWanted(s) else { return nil }
            s.rateBeforeSeek = s.appliedRate
            s.appliedRate = s.rate
            register(&s, seqnum)
            return s.rate
        }
        guard let rate, !isClosed else { return }
        audioFilter?.rateChanged(to: rate)
        var target = max(target.nanoseconds ?? 0, 0)
        // A file's demuxer given a target at or past its end pushes its last samples without a segment
        // (qtdemux in push mode: the stream's segment starts where it stops), and the seek may never
        // settle: such a target goes to just before the end, where the last frame shows and playing ends.
        if !isFed, let duration = currentDuration()?.nanoseconds, duration > 1_000_000, target >= duration { target = duration - 1_000_000 }
        let position = gint64(target) + gint64(decoderOffset * 1_000_000_000)
        var sent = false
        if let event = cove_make_seek(rate, position, keyUnit ? 1 : 0) {
            gst_event_set_seqnum(event, seqnum)
            // The flush resets the sink's frame counts: fold them in first.
            outputs.observeFrames()
            sent = gst_element_send_event(playbin.pointer, event) != 0
        }
        // playbin3 seeks only its main source: the audio rendition's source gets the same seek.
        if sent, let audio = state.withLock({ $0.audio }), let event = cove_make_seek(rate, position, keyUnit ? 1 : 0) {
            gst_event_set_seqnum(event, seqnum)
            audio.forward(seek: event)
        }
        if !sent, let failed { post(failed) }
    }

    /// Sets playbin3's volume and mute (the soft-volume element before the audio sink), then reports
    /// what it applied from the bus thread, in order with the other events.
    func setVolume(_ volume: AudioVolume) {
        guard !isClosed else { return }
        cove_set_double(playbin.object, "volume", volume.level)
        cove_set_bool(playbin.object, "mute", volume.isMuted ? 1 : 0)
        post(.volumeApplied)
    }

    func showCaptions(_ cues: [TextCue]) {
        guard !isClosed else { return }
        outputs.showCaptions(cues)
    }

    func setShutter(opacity: Double) {
        guard !isClosed else { return }
        PictureShutter.cover(playbin, opacity: opacity)
    }

    func setRate(_ rate: Double) {
        let rate = rate > 0 ? rate : 1
        state.withLock { $0.rate = rate }
        applyRateIfNeeded()
    }

    /// Brings the playing rate to the one asked for with a flushing seek at the playhead — once the
    /// pipeline has prerolled and no start seek is in flight (those carry the rate themselves). While
    /// another seek flushes, the playhead cannot be queried: the rate then waits for that seek's
    /// ASYNC_DONE, which calls this again (dropping it there played whole SSAI ads at the app's rate).
    func applyRateIfNeeded() {
        let (apply, pending) = state.withLock { s -> (Bool, (id: Int, target: MediaTime, seqnum: UInt32)?) in
            (s.appliedRate != s.rate && s.prerolled && s.startSeekSeqnum == nil && !s.closed, s.pendingSeek)
        }
        guard apply else { return }
        if let pending {
            // The rate seek replaces the app's seek in flight: it carries on its target and completion.
            sendSeek(to: pending.target, keyUnit: false, onlyIf: { s in s.appliedRate != s.rate && s.pendingSeek?.seqnum == pending.seqnum }) { s, seqnum in
                s.pendingSeek = (pending.id, pending.target, seqnum)
            }
        } else if let at = currentPosition() {
            sendSeek(to: at, keyUnit: false, onlyIf: { s in s.appliedRate != s.rate && s.pendingSeek == nil })
        }
    }

    /// Stops the pipeline without blocking the caller: the state flips to closed at once (queries
    /// answer nil, commands are ignored) and the teardown to NULL runs on its own thread; `events`
    /// finishes when it is done.
    func close() {
        guard let handlers = beginClose() else { return }
        outputs.close()
        feed?.close()
        byteFeed?.close()
        state.withLock { $0.audio }?.close()
        Thread.detachNewThread { [self] in tearDown(handlers) }
    }

    /// The handlers `close` takes out of the state for the teardown thread to disconnect.
    private struct Handlers: Sendable {
        let signals: [gulong]
        let renders: [RenderHandler]
    }

    /// Marks the pipeline closed; nil when it already was.
    private func beginClose() -> Handlers? {
        state.withLock { s -> Handlers? in
            guard !s.closed else { return nil }
            s.closed = true
            defer {
                s.signalHandlers = []
                s.renderHandlers = []
            }
            return Handlers(signals: s.signalHandlers, renders: s.renderHandlers)
        }
    }

    /// On a thread of its own: stops the bus thread (behind every message already posted), disconnects
    /// the handlers, sets NULL and waits for the bus thread before `events` finishes.
    private func tearDown(_ handlers: Handlers) {
        post(.stop)
        for handler in handlers.signals { cove_signal_disconnect(playbin.object, handler) }
        for handler in handlers.renders {
            cove_signal_disconnect(handler.sink.object, handler.id)
            if let prerollID = handler.prerollID { cove_signal_disconnect(handler.sink.object, prerollID) }
            gst_object_unref(handler.sink.object)
        }
        transitions.withLock { _ in _ = gst_element_set_state(playbin.pointer, GST_STATE_NULL) }
        // A window sink given its window while still in NULL opened its display then, and closes it only
        // on leaving READY — which a sink never linked (a pipeline that did not start, media without
        // video) never does: it is made to now, not at some later release when the display may be gone.
        outputs.releaseDisplay()
        GStreamerRuntime.livePipelines.withLock { $0 -= 1 }
        busReader.waitUntilStopped(timeout: .seconds(5))
        continuation.finish()
    }

    func setState(_ target: GstState) {
        // Fed: the pipeline stays in NULL until the producer said where the feed starts (its sources are
        // made then, and must begin there); play/pause meanwhile only set `wantsPlaying`.
        if route != .reading && state.withLock({ $0.feedStart == nil }) { return }
        let failed = transitions.withLock { _ -> Bool in
            guard !isClosed else { return false }
            return gst_element_set_state(playbin.pointer, target) == GST_STATE_CHANGE_FAILURE
        }
        if failed {
            // The ERROR message that explains the failure (if any) is already on the bus ahead of this one.
            post(.stateChangeFailed)
        }
    }
}
