import CoveCore
import Foundation
import Synchronization

/// A `MediaEngine` whose players do exactly what a test tells them, for fast, deterministic controller
/// tests. By default a player behaves like a well-mannered engine (prerolls on load, reports playing
/// and paused, completes seeks); turn those automatic replies off to script every event by hand.
///
/// It can be fed too (`FeedableMediaEngine`): wrapped in a `StreamingEngine`, Cove's streaming pushes
/// real segments into its players' inputs, and a fed player prerolls on the first chunk, completes a
/// seek when the first chunk of the new generation arrives, and ends when every input ended and the
/// playhead reached the end — so ABR, seeks, failover and accounting run without GStreamer.
public final class ScriptedEngine: FeedableMediaEngine {
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
        /// A fault for checking the checks: the first `pause()` after a `seek` is lost, as GStreamer's
        /// seek once lost it (`MediaEngineContract` must catch this).
        public var dropsPauseAfterSeek = false
        /// How a fed player's playhead moves.
        public var feedPlayhead = FeedPlayhead.realTime
        /// The position is unknown (nil) until the test sets one with `setPosition`, as GStreamer's position
        /// query fails on a pipeline that prerolled before its first buffer reached the sinks.
        public var positionUnknownUntilSet = false

        public init() {}
    }

    /// How a fed player's playhead moves over what was pushed.
    public enum FeedPlayhead: Sendable, Hashable {
        /// In real time while playing, never past the end of what every open input took (a decoder
        /// that waits for data there): stalls and refills happen as on a real engine.
        case realTime
        /// To the end of what was pushed at once (media played as fast as it arrives, as unsynchronised
        /// sinks do).
        case followsFeed
        /// Where the test puts it (`setPosition`).
        case manual
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
        try make(configuration: configuration, fed: false)
    }

    public func makeFedPlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any FedEnginePlayer {
        try make(configuration: configuration, fed: true)
    }

    private func make(configuration: EnginePlayerConfiguration, fed: Bool) throws(PlaybackError) -> ScriptedPlayer {
        let behavior = self.behavior
        if let failure = behavior.creationFailure { throw failure }
        let player = ScriptedPlayer(configuration: configuration, behavior: behavior, fed: fed)
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
/// A fed one (see `ScriptedEngine`) also takes the chunks a producer pushes (`chunks(of:)`).
public final class ScriptedPlayer: FedEnginePlayer {
    public enum Call: Sendable, Hashable {
        case load(playWhenReady: Bool)
        case play
        case pause
        case seek(MediaTime, id: Int)
        case setRate(Double)
        case setMaxBitrate(Int?)
        case setForwardBufferDuration(Duration?)
        case selectTracks(audio: String?, text: String?)
        case setVolume(AudioVolume)
        case showCaptions([String])
        /// The shutter's opacity (0: the picture, 1: black).
        case setShutter(Double)
        case startFeed(at: Double)
        case close
    }

    public let configuration: EnginePlayerConfiguration
    /// Media is pushed into this player's inputs (it was made by `makeFedPlayer`).
    public let isFed: Bool
    /// The inputs of a fed player.
    let inputs: [FeedInput: ScriptedFeedInput]
    public let events: AsyncStream<EngineEvent>
    let continuation: AsyncStream<EngineEvent>.Continuation
    let state: Mutex<State>

    struct State: Sendable {
        var behavior: ScriptedEngine.Behavior
        var calls: [Call] = []
        var position: MediaTime = .zero
        /// `setPosition` was called (see `Behavior.positionUnknownUntilSet`).
        var positionSet = false
        var prerolled = false
        var playing = false
        /// A seek came since the last pause (for `Behavior.dropsPauseAfterSeek`).
        var seekedSincePause = false
        var closed = false
        var status = EngineStatus()
        var seekable: [TimeRange]?
        var callWaiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiterID = 0
        /// Fed: `load` asked to play once prerolled.
        var wantsPlaying = false
        /// Fed: the feed started (`startFeed`).
        var feedStarted = false
        var audioOpen = false
        var feedDuration: Double?
        /// Fed: the seek waiting for the first chunk of its generation.
        var pendingSeek: Int?
        var ended = false
        /// Fed, real time: since when the playhead runs from `position`.
        var runningSince: ContinuousClock.Instant?
    }

    init(configuration: EnginePlayerConfiguration, behavior: ScriptedEngine.Behavior, fed: Bool = false) {
        self.configuration = configuration
        self.isFed = fed
        (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self, bufferingPolicy: .unbounded)
        state = Mutex(State(behavior: behavior, position: configuration.startPosition ?? .zero))
        inputs = fed ? [.main: ScriptedFeedInput(), .audio: ScriptedFeedInput()] : [:]
        for input in inputs.values {
            input.player = WeakPlayer(self)
        }
    }

    public var calls: [Call] { state.withLock { $0.calls } }

    /// Waits until the player has received `count` calls in all (for commands the controller sends
    /// in reaction to an event, which no lifecycle event announces).
    public func waitForCalls(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.calls.count >= count { return true }
                s.nextWaiterID += 1
                s.callWaiters.append((s.nextWaiterID, count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits for call number `known + 1` and returns it (`.close` if the player closed first).
    @discardableResult
    public func nextCall(after known: Int) async -> Call {
        await waitForCalls(count: known + 1)
        let calls = self.calls
        return known < calls.count ? calls[known] : .close
    }

    /// Emits an engine event as if the engine had observed it.
    public func emit(_ event: EngineEvent) {
        if case .playing = event {
            state.withLock { s in
                s.playing = true
                s.runningSince = s.runningSince ?? .now
            }
        }
        if case .paused = event {
            state.withLock { s in
                s.position = currentPosition(s)
                s.playing = false
                s.runningSince = nil
            }
        }
        continuation.yield(event)
    }

    /// Moves the playhead (what the next progress tick will read).
    public func setPosition(_ position: MediaTime) {
        state.withLock { s in
            s.position = position
            s.positionSet = true
            if s.runningSince != nil { s.runningSince = .now }
        }
    }

    /// The playhead: a fed player playing in real time runs from where it was, up to the end of what
    /// every open input took.
    func currentPosition(_ s: State) -> MediaTime {
        guard isFed, s.behavior.feedPlayhead == .realTime, let since = s.runningSince else { return s.position }
        let run = s.position.advanced(by: ContinuousClock.now - since)
        let ends = ([FeedInput.main] + (s.audioOpen ? [.audio] : [])).compactMap { inputs[$0]?.pushedEnd }
        guard let end = ends.min() else { return s.position }
        return max(min(run, MediaTime(seconds: end)), s.position)
    }

    public func setStatus(_ status: EngineStatus) {
        state.withLock { $0.status = status }
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    func record(_ call: Call) -> ScriptedEngine.Behavior? {
        let (behavior, ready) = state.withLock { s -> (ScriptedEngine.Behavior?, [CheckedContinuation<Void, Never>]) in
            guard !s.closed else { return (nil, []) }
            s.calls.append(call)
            let count = s.calls.count
            let ready = s.callWaiters.filter { $0.count <= count }.map(\.continuation)
            s.callWaiters.removeAll { $0.count <= count }
            return (s.behavior, ready)
        }
        for waiter in ready { waiter.resume() }
        return behavior
    }

    public func load(playWhenReady: Bool) {
        guard let behavior = record(.load(playWhenReady: playWhenReady)) else { return }
        if let failure = behavior.loadFailure {
            continuation.yield(.failed(failure))
            return
        }
        state.withLock { $0.wantsPlaying = playWhenReady }
        // Fed: the preroll comes with the first chunk (see `received`).
        guard behavior.prerollsOnLoad, !isFed else { return }
        continuation.yield(.tracksChanged(behavior.tracks))
        continuation.yield(.tracksSelected(Self.defaultSelection(behavior.tracks)))
        preroll()
        if playWhenReady && behavior.reportsStateChanges { emit(.playing) }
    }

    /// Reports `.prerolled` with the behaviour's duration and ranges (a fed player's: what the feed said).
    public func preroll() {
        let (behavior, feedDuration) = state.withLock { s -> (ScriptedEngine.Behavior, Double?) in
            s.prerolled = true
            return (s.behavior, s.feedDuration)
        }
        if isFed {
            let duration = feedDuration.map { MediaTime(seconds: $0) }
            let ranges = duration.map { [TimeRange(start: .zero, end: $0)] } ?? []
            continuation.yield(.prerolled(EngineMediaInfo(duration: duration, seekableRanges: ranges, isLive: duration == nil)))
            return
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
        if behavior.dropsPauseAfterSeek,
            state.withLock({ s -> Bool in
                defer { s.seekedSincePause = false }; return s.seekedSincePause
            })
        {
            return
        }
        if behavior.reportsStateChanges && state.withLock({ $0.playing }) { emit(.paused) }
    }

    public func seek(to position: MediaTime, tolerance: SeekTolerance, id: Int) {
        guard let behavior = record(.seek(position, id: id)) else { return }
        state.withLock { $0.seekedSincePause = true }
        if isFed {
            flushFeed(to: position, seekID: behavior.completesSeeks ? id : nil)
            return
        }
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

    /// Applied at once and reported back, as an engine does.
    public func setVolume(_ volume: AudioVolume) {
        guard record(.setVolume(volume)) != nil else { return }
        continuation.yield(.volumeChanged(volume))
    }

    public func showCaptions(_ cues: [TextCue]) {
        _ = record(.showCaptions(cues.map(\.text)))
    }

    public func setShutter(opacity: Double) {
        _ = record(.setShutter(opacity))
    }

    public var position: MediaTime? {
        state.withLock { s in s.behavior.positionUnknownUntilSet && !s.positionSet ? nil : currentPosition(s) }
    }

    public var seekableRanges: [TimeRange] {
        state.withLock { s in
            if isFed { return s.feedDuration.map { [TimeRange(start: .zero, end: MediaTime(seconds: $0))] } ?? [] }
            return s.seekable ?? s.behavior.seekableRanges ?? s.behavior.duration.map { [TimeRange(start: .zero, end: $0)] } ?? []
        }
    }

    /// Moves the seekable window (a live stream's sliding window).
    public func setSeekableRanges(_ ranges: [TimeRange]) {
        state.withLock { $0.seekable = ranges }
    }

    public var status: EngineStatus {
        state.withLock { s in
            var status = s.status
            status.position = currentPosition(s)
            status.isPlaying = s.playing
            return status
        }
    }

    public func snapshotPNG() throws(PlaybackError) -> Data {
        throw PlaybackError(.invalidState, "The scripted engine renders no frames")
    }

    public func close() {
        let (first, waiters) = state.withLock { s -> (Bool, [CheckedContinuation<Void, Never>]) in
            defer {
                s.closed = true
                s.callWaiters.removeAll()
            }
            if !s.closed { s.calls.append(.close) }
            // Nothing else will be called: release every waiter.
            return (!s.closed, s.callWaiters.map(\.continuation))
        }
        for waiter in waiters { waiter.resume() }
        if first {
            for input in inputs.values { input.close() }
            continuation.finish()
        }
    }

    static func defaultSelection(_ tracks: [EngineTrack]) -> [String] {
        var ids: [String] = []
        if let video = tracks.first(where: { $0.kind == .video }) { ids.append(video.id) }
        if let audio = tracks.first(where: { $0.kind == .audio }) { ids.append(audio.id) }
        return ids
    }
}
