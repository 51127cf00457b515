import Foundation
import Logging
import Synchronization

/// The controller's single event loop. App commands, engine events, preparations and clock ticks
/// arrive on one ordered stream and are handled one at a time, so the controller's state never races
/// and events come out in a well-defined order.
final class ControllerLoop: Sendable {
    private let input: AsyncStream<ControllerInput>.Continuation
    private let shared: ControllerShared

    init(
        engine: any MediaEngine, provider: any PlaybackSessionProvider, configuration: PlaybackControllerConfiguration, dispatcher: EventDispatcher,
        shared: ControllerShared
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: ControllerInput.self, bufferingPolicy: .unbounded)
        self.input = continuation
        self.shared = shared
        let state = LoopState(
            engine: engine, provider: provider, configuration: configuration, dispatcher: dispatcher, shared: shared, send: { continuation.yield($0) })
        Task.detached {
            for await item in stream {
                await state.handle(item)
                // Stop accepting input, but drain what is queued so every waiter gets an answer.
                if await state.isShutDown { continuation.finish() }
            }
        }
    }

    func send(_ item: ControllerInput) {
        if case .terminated = input.yield(item) { item.abandon() }
    }

    var currentSessionSnapshot: PlaybackSession? { shared.currentSession.withLock { $0 } }
}

/// The loop's state. An actor only so that Swift can prove it is touched by one task at a time; all
/// work happens inside `handle(_:)` without suspension points.
actor LoopState {
    let engine: any MediaEngine
    let provider: any PlaybackSessionProvider
    let configuration: PlaybackControllerConfiguration
    let dispatcher: EventDispatcher
    let shared: ControllerShared
    let send: @Sendable (ControllerInput) -> Void
    var logger: Logger { configuration.logger }

    var queue: [Video] = []
    var index: Int?
    var current: SessionRuntime?
    var preparation: Preparation?
    var preparationCounter = 0
    var seekCounter = 0
    /// A video of the current queue reached the engine (used for `noPlayableVideosFound`).
    var foundPlayableVideo = false
    /// The queue's bumper has played (it plays once per queue, before the first video that has one).
    var bumperPlayedInQueue = false
    /// A bumper whose video could not play: it plays before the next video instead.
    var carriedBumper: Video?
    /// The next video, prepared (and, headless, prerolled) while the current one plays.
    var preloaded: Preloaded?
    /// The seed's shutter over the picture, and its fade.
    var shutter = ShutterFade()

    struct Preloaded {
        let preparationID: Int
        let index: Int
        let video: Video
        /// Built once the plan arrived and the engine made a player.
        var runtime: SessionRuntime?
    }
    var isShutDown = false

    init(
        engine: any MediaEngine, provider: any PlaybackSessionProvider, configuration: PlaybackControllerConfiguration, dispatcher: EventDispatcher,
        shared: ControllerShared, send: @escaping @Sendable (ControllerInput) -> Void
    ) {
        self.engine = engine
        self.provider = provider
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.shared = shared
        self.send = send
    }

    /// The settings as the app's commands so far left them (see `ControllerSettings`).
    var settings = ControllerSettings()
    /// The commands last published (`PlaybackController.availableCommands`).
    var publishedCommands: Set<PlayerCommand> = []

    /// The controller's thumbnail switch as sessions read it: weakly, so a session never keeps the
    /// shared state (which holds the current session) alive.
    var thumbnailSwitch: @Sendable () -> Bool {
        { [weak shared] in shared?.settings.withLock { $0.thumbnailSeekingEnabled } ?? false }
    }

    /// The plan's thumbnail source, or one made for its video's thumbnail track by the configured
    /// factory or the engine (see `ThumbnailSourceFactory`): thumbnails on by default, as in the seed.
    func thumbnailSource(for plan: SessionPlan) -> (any ThumbnailSource)? {
        if let attached = plan.thumbnailSource { return attached }
        guard let trackURL = plan.video.thumbnailVTTURL else { return nil }
        let factory = configuration.thumbnailSourceFactory ?? (engine as? any ThumbnailSourceFactory)
        return factory?.makeThumbnailSource(trackURL: trackURL)
    }

    func handle(_ item: ControllerInput) {
        guard !isShutDown else { return item.abandon() }
        defer { publishAvailableCommands() }
        switch item {
        case .command(let command): handle(command)
        case .engine(let sessionID, let channel, let event):
            if let next = preloaded?.runtime, next.session.id == sessionID, case .content(let generation) = channel, generation == next.generation {
                // Not current yet: keep what it reports and replay it when it takes over.
                next.pendingEvents.append(event)
                return
            }
            guard let runtime = current, runtime.session.id == sessionID else { return }
            logger.trace("engine event", metadata: ["session": "\(sessionID)", "channel": "\(channel)", "event": "\(event)"])
            switch channel {
            case .content(let generation):
                guard generation == runtime.generation else { return }
                handle(event, in: runtime)
            case .bumper: handleBumper(event, in: runtime)
            }
        case .thumbnailAssetFailed(let sessionID, let error):
            guard let runtime = current, runtime.session.id == sessionID else { return }
            logger.warning("thumbnail asset failed to load; playback continues", metadata: ["session": "\(sessionID)", "error": "\(error)"])
            emit(.lifecycle(runtime.session, .thumbnailAssetFailedToLoad(error)))
        case .preloadPrepared(let id, let result):
            guard preloaded?.preparationID == id else { return }
            startPreload(result)
        case .prepared(let id, let result, let bumper):
            guard let preparation, preparation.id == id else { return }
            self.preparation = nil
            start(preparation, with: result, bumper: bumper)
        case .timerFired(let sessionID, let timer, let arming):
            guard let runtime = current, runtime.session.id == sessionID, runtime.timers.fired(timer, arming: arming) else { return }
            timerFired(timer, in: runtime)
        }
    }

    /// A session's timer that is still armed fired.
    private func timerFired(_ timer: LoopTimer, in runtime: SessionRuntime) {
        switch timer {
        case .progressTick:
            if let bumper = runtime.bumper {
                if bumper.playback.engineRunning, let position = bumper.player.position { emit(.lifecycle(runtime.session, .bumperProgress(position))) }
                return
            }
            guard runtime.intent.isPlaying, !runtime.intent.holds.contains(.stall) else { return }
            if let position = runtime.player?.position { report(position: position, in: runtime) }
            if runtime.isLive { reportSeekableRangesIfMoved(runtime) }
        case .cueBoundary:
            guard runtime.intent.isPlaying, let position = runtime.player?.position else { return }
            updateTextCues(runtime, at: position)
        case .retry:
            performScheduledRetry(runtime)
        case .bumperStall:
            guard let bumper = runtime.bumper, bumper.stall.isStalled else { return }
            let waited = configuration.bumperStallTimeout
            finishBumper(
                in: runtime,
                failure: bumper.stall.downloadFailure
                    ?? PlaybackError(.failedToPlayToEnd, "The bumper stalled for \(MediaTime(waited)) and was skipped so the content can start"))
        case .shutterFade:
            perform(shutter.tick())
        }
    }

    /// Arms one of the session's timers on the controller's clock; its firing comes back through the loop.
    func arm(_ timer: LoopTimer, in runtime: SessionRuntime, after delay: Duration, repeats: Bool = false) {
        let send = self.send
        let sessionID = runtime.session.id
        runtime.timers.arm(timer, after: delay, repeats: repeats, clock: configuration.clock) { arming in
            send(.timerFired(sessionID: sessionID, timer, arming: arming))
        }
    }

    // MARK: Ticker

    func startTicker(_ runtime: SessionRuntime) {
        arm(.progressTick, in: runtime, after: configuration.progressInterval, repeats: true)
    }

    func stopTicker(_ runtime: SessionRuntime) {
        runtime.timers.cancel(.progressTick)
    }

    func emit(_ event: PlaybackEvent) {
        // Ad breaks come from plugins by several paths (hooks' answers, reports): all pass here.
        if let runtime = current, let session = event.session, session === runtime.session { applyAdRate(for: event, in: runtime) }
        dispatcher.emit(event)
    }
}
