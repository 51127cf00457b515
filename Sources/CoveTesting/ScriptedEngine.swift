import CoveCore
import Foundation
import Synchronization

/// A `MediaEngine` whose players do exactly what a test tells them, for fast, deterministic controller
/// tests. By default a player behaves like a well-mannered engine (prerolls on load, reports playing
/// and paused, completes seeks); turn those automatic replies off to script every event by hand.
public final class ScriptedEngine: MediaEngine {
    public let name = "scripted"

    /// How new players answer commands.
    public struct Behavior: Sendable {
        /// Report `.prerolled` as soon as `load` is called.
        public var prerollsOnLoad = true
        /// Report `.playing`/`.paused` when asked to play/pause (after preroll).
        public var reportsStateChanges = true
        /// Complete seeks immediately (moving the position to the target).
        public var completesSeeks = true
        public var duration: MediaTime? = .seconds(20)
        public var isLive = false
        public var seekableRanges: [TimeRange]? = nil
        public var tracks: [EngineTrack] = [
            EngineTrack(id: "video-0", kind: .video, codec: "avc1.42c015"),
            EngineTrack(id: "audio-0", kind: .audio, language: "en", codec: "mp4a.40.2"),
        ]
        /// Fail `load` with this error instead of prerolling.
        public var loadFailure: PlaybackError?
        /// Fail `makePlayer` with this error.
        public var creationFailure: PlaybackError?

        public init() {}
    }

    private let state = Mutex<(behavior: Behavior, players: [ScriptedPlayer])>((Behavior(), []))
    private let created: AsyncStream<ScriptedPlayer>.Continuation
    private let createdStream: AsyncStream<ScriptedPlayer>

    public init(behavior: Behavior = Behavior()) {
        (createdStream, created) = AsyncStream.makeStream(of: ScriptedPlayer.self, bufferingPolicy: .unbounded)
        state.withLock { $0.behavior = behavior }
    }

    public var behavior: Behavior {
        get { state.withLock { $0.behavior } }
        set { state.withLock { $0.behavior = newValue } }
    }

    /// Every player created so far, oldest first.
    public var players: [ScriptedPlayer] { state.withLock { $0.players } }

    public func makePlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
        let behavior = self.behavior
        if let failure = behavior.creationFailure { throw failure }
        let player = ScriptedPlayer(configuration: configuration, behavior: behavior)
        state.withLock { $0.players.append(player) }
        created.yield(player)
        return player
    }

    /// Waits until the `n`-th player (1-based) exists and returns it.
    public func player(number n: Int) async -> ScriptedPlayer {
        if let existing = players.dropFirst(n - 1).first { return existing }
        for await _ in createdStream {
            if let player = players.dropFirst(n - 1).first { return player }
        }
        return players[n - 1]
    }
}

/// A scripted engine player: records every command and emits what the test (or its behaviour) says.
public final class ScriptedPlayer: EnginePlayer {
    public enum Call: Sendable, Hashable {
        case load(playWhenReady: Bool)
        case play
        case pause
        case seek(MediaTime, id: Int)
        case setRate(Double)
        case setMaxBitrate(Int?)
        case setForwardBufferDuration(Duration?)
        case selectTracks(audio: String?, text: String?)
        case close
    }

    public let configuration: EnginePlayerConfiguration
    public let events: AsyncStream<EngineEvent>
    private let continuation: AsyncStream<EngineEvent>.Continuation
    private let state: Mutex<State>

    struct State: Sendable {
        var behavior: ScriptedEngine.Behavior
        var calls: [Call] = []
        var position: MediaTime = .zero
        var prerolled = false
        var playing = false
        var closed = false
        var status = EngineStatus()
        var seekable: [TimeRange]?
    }

    init(configuration: EnginePlayerConfiguration, behavior: ScriptedEngine.Behavior) {
        self.configuration = configuration
        (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self, bufferingPolicy: .unbounded)
        state = Mutex(State(behavior: behavior, position: configuration.startPosition ?? .zero))
    }

    public var calls: [Call] { state.withLock { $0.calls } }

    /// Emits an engine event as if the engine had observed it.
    public func emit(_ event: EngineEvent) {
        if case .playing = event { state.withLock { $0.playing = true } }
        if case .paused = event { state.withLock { $0.playing = false } }
        continuation.yield(event)
    }

    /// Moves the playhead (what the next progress tick will read).
    public func setPosition(_ position: MediaTime) {
        state.withLock { $0.position = position }
    }

    public func setStatus(_ status: EngineStatus) {
        state.withLock { $0.status = status }
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    private func record(_ call: Call) -> ScriptedEngine.Behavior? {
        state.withLock { s in
            guard !s.closed else { return nil }
            s.calls.append(call)
            return s.behavior
        }
    }

    public func load(playWhenReady: Bool) {
        guard let behavior = record(.load(playWhenReady: playWhenReady)) else { return }
        if let failure = behavior.loadFailure {
            continuation.yield(.failed(failure))
            return
        }
        guard behavior.prerollsOnLoad else { return }
        continuation.yield(.tracksChanged(behavior.tracks))
        continuation.yield(.tracksSelected(Self.defaultSelection(behavior.tracks)))
        preroll()
        if playWhenReady && behavior.reportsStateChanges { emit(.playing) }
    }

    /// Reports `.prerolled` with the behaviour's duration and ranges.
    public func preroll() {
        let behavior = state.withLock { s -> ScriptedEngine.Behavior in
            s.prerolled = true
            return s.behavior
        }
        let ranges = behavior.seekableRanges ?? behavior.duration.map { [TimeRange(start: .zero, end: $0)] } ?? []
        continuation.yield(.prerolled(EngineMediaInfo(duration: behavior.isLive ? nil : behavior.duration, seekableRanges: ranges, isLive: behavior.isLive)))
    }

    public func play() {
        guard let behavior = record(.play) else { return }
        let (prerolled, playing) = state.withLock { ($0.prerolled, $0.playing) }
        if behavior.reportsStateChanges && prerolled && !playing { emit(.playing) }
    }

    public func pause() {
        guard let behavior = record(.pause) else { return }
        if behavior.reportsStateChanges && state.withLock({ $0.playing }) { emit(.paused) }
    }

    public func seek(to position: MediaTime, tolerance: SeekTolerance, id: Int) {
        guard let behavior = record(.seek(position, id: id)) else { return }
        guard behavior.completesSeeks else { return }
        state.withLock { $0.position = position }
        continuation.yield(.seekCompleted(id: id, succeeded: true))
    }

    public func setRate(_ rate: Double) { _ = record(.setRate(rate)) }
    public func setMaxBitrate(_ bitsPerSecond: Int?) { _ = record(.setMaxBitrate(bitsPerSecond)) }
    public func setForwardBufferDuration(_ duration: Duration?) { _ = record(.setForwardBufferDuration(duration)) }

    public func selectTracks(audio: String?, text: String?) {
        guard record(.selectTracks(audio: audio, text: text)) != nil else { return }
        let video = state.withLock { $0.behavior.tracks.filter { $0.kind == .video }.map(\.id) }
        continuation.yield(.tracksSelected(video + [audio, text].compactMap { $0 }))
    }

    public var position: MediaTime? { state.withLock { $0.position } }

    public var seekableRanges: [TimeRange] {
        state.withLock { s in s.seekable ?? s.behavior.seekableRanges ?? s.behavior.duration.map { [TimeRange(start: .zero, end: $0)] } ?? [] }
    }

    /// Moves the seekable window (a live stream's sliding window).
    public func setSeekableRanges(_ ranges: [TimeRange]) {
        state.withLock { $0.seekable = ranges }
    }

    public var status: EngineStatus {
        state.withLock { s in
            var status = s.status
            status.position = s.position
            status.isPlaying = s.playing
            return status
        }
    }

    public func snapshotPNG() throws(PlaybackError) -> Data {
        throw PlaybackError(.invalidState, "The scripted engine renders no frames")
    }

    public func close() {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            if !s.closed { s.calls.append(.close) }
            return !s.closed
        }
        if first { continuation.finish() }
    }

    static func defaultSelection(_ tracks: [EngineTrack]) -> [String] {
        var ids: [String] = []
        if let video = tracks.first(where: { $0.kind == .video }) { ids.append(video.id) }
        if let audio = tracks.first(where: { $0.kind == .audio }) { ids.append(audio.id) }
        return ids
    }
}
