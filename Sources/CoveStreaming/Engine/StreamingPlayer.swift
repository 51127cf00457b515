import CoveCore
import Foundation
import Logging
import Synchronization

/// One play of an adaptive stream: Cove's streaming sessions feeding a fed player of the base engine.
///
/// The player owns the main `StreamingSession` (and the audio renditions' and subtitles' loaders), hands
/// the controller one event stream — the engine's events, with its tracks merged with the
/// presentation's renditions, plus what the streaming decided and fetched (the ladder, variant changes,
/// transfers, failures, buffering) — and answers the queries the engine cannot (duration, seekable
/// window, buffer, bandwidth, bytes). Commands go to the engine; a seek reaches the sessions from the
/// engine's input, in order with its flush (`MediaFeedProducer.reposition(to:)`).
///
/// The split by file: here the parts, construction, commands and queries; `StreamingPlayer+Events.swift`
/// what the engine and the sessions report; `StreamingPlayer+Renditions.swift` audio and subtitle
/// renditions; `StreamingPlayer+Buffer.swift` the buffering Cove reports from what it pushed.
///
/// Threads: commands on the controller's task; session events on the sessions' tasks; the engine's
/// events on the pump task; the buffer check on its own. `state` is held only for short reads and
/// writes, never while calling the engine or a session.
final class StreamingPlayer: EnginePlayer, Sendable {
    let events: AsyncStream<EngineEvent>
    let continuation: AsyncStream<EngineEvent>.Continuation
    let configuration: EnginePlayerConfiguration
    let settings: StreamingConfiguration
    let engine: StreamingEngine
    var logger: Logger { engine.logger }
    /// The main session: the variant's video (and muxed audio), or the DASH video set.
    let session: StreamingSession
    /// The play's content protection, shared by its sessions (one licence for video and audio).
    let protection: ProtectionBroker
    let state: Mutex<State>

    /// What the threads share.
    struct State {
        /// The player that decodes: the fed player, or (after a fallback) one reading the URL itself.
        var player: any EnginePlayer
        /// The fed player while Cove's streaming feeds it; nil once the base engine reads the URL itself.
        var fed: (any FedEnginePlayer)?
        /// Which engine player's events the pump forwards (a fallback replaces the player).
        var pumpGeneration = 0
        var closed = false
        var failed = false
        /// Where the feed starts, once the session said (`.starting`).
        var feedStart: Double?
        var prerolled = false
        /// The engine said it plays (`.playing`) and has not paused since.
        var atPlaying = false
        /// The app's intent, replayed on a player that replaces the fed one.
        var wantsPlaying = false
        var volume: AudioVolume?
        var rate: Double?
        var forwardBuffer: Duration?
        var duration: Double?
        var tracks = RenditionTracks()
        var audio: AudioRenditions?
        var textLoader: TextRenditionLoader?
        /// Where the subtitle loader last heard the playhead was.
        var textPlayhead: Double?
        var starvation = StreamStarvation()
        var lastBufferingSent = -1
        var bufferCheck: Task<Void, Never>?

        /// The tracks apps see.
        var publicTracks: [EngineTrack] { tracks.publicTracks(audioRenditions: audio?.tracks.map(\.track)) }
        /// The selection apps see.
        var publicSelection: [String] { tracks.publicSelection(audioFromRenditions: audio != nil, selectedRendition: audio?.selected) }
    }

    init(configuration: EnginePlayerConfiguration, settings: StreamingConfiguration, engine: StreamingEngine) throws(PlaybackError) {
        self.configuration = configuration
        self.settings = settings
        self.engine = engine
        (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self, bufferingPolicy: .unbounded)
        let fed = try engine.base.makeFedPlayer(configuration: configuration)
        guard let input = fed.input(.main) else {
            fed.close()
            throw PlaybackError(.engineFailure, "The \(engine.base.name) engine's fed player has no main input; it cannot play a stream Cove fetches")
        }
        let relay = Relay<StreamingEvent>()
        let protection = ProtectionBroker(modules: settings.decryptionModules, sourceKeySystems: configuration.keySystems, logger: engine.logger)
        self.protection = protection
        let events = continuation
        protection.onKeyStatuses { system, statuses in events.yield(.keyStatusesChanged(system, statuses)) }
        session = StreamingSession(
            url: configuration.url, transport: engine.transport, configuration: settings, output: input, logger: engine.logger, protection: protection,
            onEvent: { event in relay.deliver(event) })
        state = Mutex(State(player: fed, fed: fed))
        relay.connect { [weak self] event in self?.handleSession(event) }
        session.setMaxBitrate(configuration.maxBitrate)
        session.setForwardBuffer(forwardBufferTarget(configuration.forwardBufferDuration))
        fed.attach(session, to: .main)
        startPump(for: fed, generation: 0)
    }

    deinit { close() }

    var player: any EnginePlayer { state.withLock { $0.player } }
    var fedPlayer: (any FedEnginePlayer)? { state.withLock { $0.fed } }
    var isClosed: Bool { state.withLock { $0.closed } }

    func emit(_ event: EngineEvent) {
        continuation.yield(event)
    }

    /// Unsynchronised sinks play as fast as they decode, and their position follows the clock rather than
    /// the media: a forward buffer measured from it means nothing. Cove's streaming then fetches without
    /// waiting for the playhead (the decoders drain what it pushes at decode speed).
    func forwardBufferTarget(_ duration: Duration?) -> Duration? {
        configuration.pacing == .unsynchronized ? .seconds(3_600) : duration
    }

    // MARK: Commands

    func load(playWhenReady: Bool) {
        state.withLock { $0.wantsPlaying = playWhenReady }
        player.load(playWhenReady: playWhenReady)
        // The engine leaves its idle state once the playlists say where the stream starts (`.starting`).
        session.start(at: configuration.startPosition.flatMap { $0.isFinite && $0 > .zero ? $0.seconds : nil })
    }

    func play() {
        state.withLock { $0.wantsPlaying = true }
        player.play()
    }

    func pause() {
        state.withLock { $0.wantsPlaying = false }
        player.pause()
    }

    func seek(to position: MediaTime, tolerance: SeekTolerance, id: Int) {
        if let loader = state.withLock({ $0.textLoader }), position.isFinite { loader.seek(to: position.seconds) }
        player.seek(to: position, tolerance: tolerance, id: id)
    }

    func setRate(_ rate: Double) {
        state.withLock { $0.rate = rate }
        player.setRate(rate)
    }

    func setMaxBitrate(_ bitsPerSecond: Int?) {
        session.setMaxBitrate(bitsPerSecond)
        player.setMaxBitrate(bitsPerSecond)
    }

    func setForwardBufferDuration(_ duration: Duration?) {
        let audio = state.withLock { s -> AudioRenditions? in
            s.forwardBuffer = duration
            return s.audio
        }
        session.setForwardBuffer(forwardBufferTarget(duration))
        audio?.session?.setForwardBuffer(forwardBufferTarget(duration))
        player.setForwardBufferDuration(duration)
    }

    func setVolume(_ volume: AudioVolume) {
        state.withLock { $0.volume = volume }
        player.setVolume(volume)
    }

    func showCaptions(_ cues: [TextCue]) {
        player.showCaptions(cues)
    }

    func setShutter(opacity: Double) {
        player.setShutter(opacity: opacity)
    }

    func snapshotPNG() throws(PlaybackError) -> Data {
        try player.snapshotPNG()
    }

    /// Stops the sessions and loaders, then the engine's player; `events` finishes once the engine's do.
    func close() {
        let (player, audio, loader, check) = state.withLock { s -> (any EnginePlayer, AudioRenditions?, TextRenditionLoader?, Task<Void, Never>?) in
            let first = !s.closed
            s.closed = true
            defer {
                s.textLoader = nil
                s.bufferCheck = nil
            }
            return (s.player, first ? s.audio : nil, s.textLoader, s.bufferCheck)
        }
        check?.cancel()
        session.close()
        audio?.close()
        protection.close()
        loader?.stop()
        player.close()
    }

    // MARK: Queries

    var position: MediaTime? { player.position }

    var seekableRanges: [TimeRange] {
        guard fedPlayer != nil else { return player.seekableRanges }
        guard !isClosed, let range = session.seekableRange else { return [] }
        return [TimeRange(start: MediaTime(seconds: range.lowerBound), end: MediaTime(seconds: range.upperBound))]
    }

    var status: EngineStatus {
        let (player, fed, audio) = state.withLock { ($0.player, $0.fed, $0.audio) }
        var status = player.status
        guard fed != nil else { return status }
        status.duration = session.duration.map { MediaTime(seconds: $0) }
        status.bufferedAhead = session.bufferedAhead.map { .milliseconds(Int64($0 * 1000)) }
        status.bandwidthEstimate = session.bandwidthEstimate
        status.bytesRead = session.bytesLoaded + (audio?.session?.bytesLoaded ?? 0)
        return status
    }

    /// The player fetches a seek's segment at the variant its bandwidth estimate affords, while Cove's
    /// streaming feeds it.
    var choosesSeekVariant: Bool { fedPlayer != nil }
}
