import CoveCore
import Foundation
import Synchronization

/// A fed scripted player's inputs: they take what a producer pushes (dropping chunks of any generation
/// but its current one, as GStreamer's appsrc feed does), and the player reacts as a decoder would —
/// prerolled on the first media chunk after the feed started, a seek completed on the first media chunk
/// of the new generation, the end once every open input ended and the playhead got there.
extension ScriptedPlayer {
    public func input(_ input: FeedInput) -> (any MediaFeedInput)? {
        switch input {
        case .main: return inputs[.main]
        case .audio: return state.withLock { $0.audioOpen } ? inputs[.audio] : nil
        }
    }

    @discardableResult
    public func openInput(_ input: FeedInput) -> any MediaFeedInput {
        if input == .audio { state.withLock { $0.audioOpen = true } }
        return inputs[input]!
    }

    public func attach(_ producer: any MediaFeedProducer, to input: FeedInput) {
        inputs[input]?.attach(producer)
    }

    public func startFeed(at position: Double) {
        guard record(.startFeed(at: position)) != nil else { return }
        state.withLock { s in
            s.feedStarted = true
            s.position = MediaTime(seconds: position)
        }
        // Chunks pushed before the start count from now on.
        if let first = inputs[.main]?.chunks.first(where: { $0.kind == .media }) { received(first, on: .main) }
    }

    public func setFeedDuration(_ seconds: Double?) {
        state.withLock { $0.feedDuration = seconds }
    }

    /// Every chunk an input took, in order (chunks of stale generations were dropped).
    public func chunks(of input: FeedInput) -> [MediaChunk] { inputs[input]?.chunks ?? [] }

    /// Which inputs are open.
    private var openInputs: [FeedInput] { state.withLock { $0.audioOpen } ? [.main, .audio] : [.main] }

    /// The playhead a producer measures its buffer from.
    func playheadSeconds() -> Double? {
        state.withLock { $0.feedStarted ? currentPosition($0).seconds : nil }
    }

    /// A flushing seek: each input's producer starts over at `position` (in order with the flush), and the
    /// seek completes on the first media chunk of its generation (`seekID` nil: the test completes it).
    func flushFeed(to position: MediaTime, seekID: Int?) {
        state.withLock { s in
            s.position = position
            if s.runningSince != nil { s.runningSince = .now }
            s.pendingSeek = seekID
            s.ended = false
        }
        for input in openInputs { inputs[input]?.flush(to: position.seconds) }
    }

    /// An input took `chunk`.
    func received(_ chunk: MediaChunk, on input: FeedInput) {
        enum Step { case none, preroll(Bool), seekDone(Int) }
        let follows = state.withLock { $0.behavior.feedPlayhead == .followsFeed }
        if follows, let end = openInputs.compactMap({ inputs[$0]?.pushedEnd }).min() {
            state.withLock { s in if s.feedStarted, MediaTime(seconds: end) > s.position { s.position = MediaTime(seconds: end) } }
        }
        guard input == .main, chunk.kind == .media else { return }
        let step = state.withLock { s -> Step in
            guard s.feedStarted, !s.closed else { return .none }
            if !s.prerolled && s.behavior.prerollsOnLoad {
                s.prerolled = true
                return .preroll(s.wantsPlaying)
            }
            if let id = s.pendingSeek {
                s.pendingSeek = nil
                return .seekDone(id)
            }
            return .none
        }
        switch step {
        case .none:
            break
        case .preroll(let playing):
            let tracks = state.withLock { $0.behavior.tracks }
            continuation.yield(.tracksChanged(tracks))
            continuation.yield(.tracksSelected(Self.defaultSelection(tracks)))
            preroll()
            if playing && state.withLock({ $0.behavior.reportsStateChanges }) { emit(.playing) }
        case .seekDone(let id):
            continuation.yield(.seekCompleted(id: id, succeeded: true))
        }
        checkEnd()
    }

    /// An input's producer pushed its end.
    func inputEnded() {
        checkEnd()
    }

    /// The end of stream, once every open input ended and the playhead reached what they pushed.
    func checkEnd() {
        let open = openInputs
        guard open.allSatisfy({ inputs[$0]?.hasEnded == true }) else { return }
        let end = open.compactMap { inputs[$0]?.pushedEnd }.min() ?? 0
        enum Step { case none, report, later(Double) }
        let step = state.withLock { s -> Step in
            guard s.prerolled, !s.ended, !s.closed else { return .none }
            let position = currentPosition(s).seconds
            guard position >= end - 0.001 else {
                // Playing in real time: the playhead gets there by itself.
                return s.runningSince != nil && s.behavior.feedPlayhead == .realTime ? .later(end - position) : .none
            }
            s.ended = true
            return .report
        }
        switch step {
        case .none: break
        case .report: continuation.yield(.endOfStream)
        case .later(let seconds):
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(seconds))
                self?.checkEnd()
            }
        }
    }
}

/// A weak reference to the player an input belongs to (the player owns its inputs).
final class WeakPlayer: Sendable {
    private let box: Mutex<WeakBox>
    private struct WeakBox { weak var player: ScriptedPlayer? }

    init(_ player: ScriptedPlayer) { box = Mutex(WeakBox(player: player)) }
    var player: ScriptedPlayer? { box.withLock { $0.player } }
}

/// One input of a fed scripted player.
public final class ScriptedFeedInput: MediaFeedInput {
    private struct State {
        var producer: (any MediaFeedProducer)?
        var chunks: [MediaChunk] = []
        /// The end of the media pushed since the last flush (presentation seconds).
        var pushedEnd: Double?
        var ended = false
        var closed = false
        var player: WeakPlayer?
    }

    private let state = Mutex(State())

    init() {}

    var player: WeakPlayer? {
        get { state.withLock { $0.player } }
        set { state.withLock { $0.player = newValue } }
    }

    /// Every chunk taken, in order.
    public var chunks: [MediaChunk] { state.withLock { $0.chunks } }
    var pushedEnd: Double? { state.withLock { $0.pushedEnd } }
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Links `producer`; one already linked is closed (a rendition switch continues without a flush).
    func attach(_ producer: any MediaFeedProducer) {
        let old = state.withLock { s -> (any MediaFeedProducer)? in
            defer { s.producer = producer }
            return s.producer
        }
        old?.close()
    }

    func flush(to position: Double) {
        let producer = state.withLock { s -> (any MediaFeedProducer)? in
            s.pushedEnd = nil
            s.ended = false
            return s.producer
        }
        _ = producer?.reposition(to: position)
    }

    func close() {
        let producer = state.withLock { s -> (any MediaFeedProducer)? in
            s.closed = true
            defer { s.producer = nil }
            return s.producer
        }
        producer?.close()
    }

    public func push(_ chunk: MediaChunk) {
        let (taken, player) = state.withLock { s -> (Bool, ScriptedPlayer?) in
            guard !s.closed, let producer = s.producer, producer.generation == chunk.generation else { return (false, nil) }
            s.chunks.append(chunk)
            if chunk.kind == .media { s.pushedEnd = max(s.pushedEnd ?? 0, chunk.start + chunk.duration) }
            return (true, s.player?.player)
        }
        guard taken, let player else { return }
        player.received(chunk, on: player.inputs.first { $0.value === self }?.key ?? .main)
    }

    public func pushEndOfStream(generation: Int) {
        let player = state.withLock { s -> ScriptedPlayer? in
            guard !s.closed, s.producer?.generation == generation else { return nil }
            s.ended = true
            return s.player?.player
        }
        player?.inputEnded()
    }

    public func playheadPosition() -> Double? {
        state.withLock { $0.player?.player }?.playheadSeconds()
    }
}
