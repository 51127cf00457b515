import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// The feed side of a fed pipeline (`FedEnginePlayer`): its inputs — the main `appsrc://` source and the
/// separate audio source (`suburi`) — the producers linked to them, where the feed starts, and the
/// playhead the producers fetch ahead of.
///
/// Threads: the producer side calls `openInput`, `attach`, `startFeed` and `setFeedDuration` from its
/// own tasks; `appSourceCreated` runs on the streaming thread that made the source; `feedPlayhead`
/// wherever a producer asks.
extension GStreamerPipeline {
    func input(_ input: FeedInput) -> (any MediaFeedInput)? {
        switch input {
        case .main: return feed
        case .audio: return state.withLock { $0.audio }?.feed
        }
    }

    /// Opens the separate audio input: playbin3 reads it as its `suburi` once the pipeline leaves NULL.
    func openInput(_ input: FeedInput) -> any MediaFeedInput {
        switch input {
        case .main:
            return feed ?? AppSourceFeed()
        case .audio:
            let (audio, created) = state.withLock { s -> (AudioFeedInput, Bool) in
                if let audio = s.audio { return (audio, false) }
                let audio = AudioFeedInput(logger: logger)
                s.audio = audio
                return (audio, true)
            }
            if created { cove_set_string(playbin.object, "suburi", AudioFeedInput.uri) }
            return audio.feed
        }
    }

    func attach(_ producer: any MediaFeedProducer, to input: FeedInput) {
        let target: AppSourceFeed?
        switch input {
        case .main: target = feed
        case .audio: target = state.withLock { $0.audio }?.feed
        }
        guard let target else { return }
        if target.producer == nil {
            target.attach(producer: producer, playhead: { [weak self] in self?.feedPlayhead() })
        } else {
            target.replace(producer: producer)
        }
    }

    /// Leaves NULL: playbin3 makes its sources now, and they begin at `position`.
    func startFeed(at position: Double) {
        let (first, audio) = state.withLock { s -> (Bool, AudioFeedInput?) in
            guard s.feedStart == nil, !s.closed else { return (false, nil) }
            s.feedStart = position
            return (true, s.audio)
        }
        guard first, isFed else { return }
        audio?.start()
        startPipeline()
    }

    func setFeedDuration(_ seconds: Double?) {
        state.withLock { $0.feedDuration = seconds }
        feed?.setDuration(seconds)
    }

    /// The input of a byte-fed pipeline (an unused one for other routes: nothing reads it).
    var byteInput: any ByteFeedInput { byteFeed ?? ByteSourceFeed() }

    /// Leaves NULL: playbin3 makes its source now, and the demuxer reads (the size follows, `setFileSize`).
    func startReading() {
        guard byteFeed != nil else { return }
        let first = state.withLock { s -> Bool in
            guard s.feedStart == nil, !s.closed else { return false }
            s.feedStart = 0
            return true
        }
        guard first else { return }
        startPipeline()
    }

    /// playbin3 made an `appsrc://` source: the input it belongs to takes it over, starting where the
    /// feed starts.
    func appSourceCreated(_ element: UnsafeMutablePointer<GstElement>) {
        if let byteFeed {
            byteFeed.attach(appsrc: element)
            return
        }
        guard let feed, isFed else { return }
        let (start, duration, audio) = state.withLock { ($0.feedStart, $0.feedDuration, $0.audio) }
        if let audio, takeGString(cove_element_uri(element)) == AudioFeedInput.uri {
            audio.attach(appsrc: element, start: start, duration: duration)
            return
        }
        feed.attach(appsrc: element, start: start)
        feed.setDuration(duration)
    }

    /// Unsynchronised sinks render as fast as they decode and their position follows the clock, not the
    /// media: what reached the sinks is where playback is.
    private func renderedPosition() -> Double? {
        let (ends, video) = state.withLock { ($0.sinkEnds, $0.expectsVideo ?? true) }
        let kinds: [EngineTrack.Kind] = video ? [.video, .audio] : [.audio]
        guard let end = kinds.compactMap({ ends[$0] }).min() else { return nil }
        return max(Double(end) / 1_000_000_000 - decoderOffset, 0)
    }

    /// The playhead producers measure their buffer from (presentation seconds).
    func feedPlayhead() -> Double? {
        configuration.pacing == .realTime ? currentPosition()?.seconds : renderedPosition()
    }
}
