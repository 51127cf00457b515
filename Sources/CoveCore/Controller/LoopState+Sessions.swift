import Foundation
import Logging
import Synchronization

/// Session lifecycle: preparing a video (and its bumper), building, installing, failing to start,
/// terminating and advancing sessions (the bumper's playback is in `LoopState+Bumper`).
///
/// Separate because it owns how sessions come and go; the other `LoopState+` files act on the
/// current session once it exists.
extension LoopState {
    // MARK: Session lifecycle

    func begin(at position: Int, playRequested: Bool) {
        index = position
        preparationCounter += 1
        let video = queue[position]
        let bumper = bumperPlayedInQueue ? nil : (video.bumper ?? carriedBumper)
        let context = SessionPreparationContext(logger: logger)
        var intent = PlayIntent()
        if playRequested { _ = intent.handle(.playRequested) }
        let prep = Preparation(id: preparationCounter, index: position, video: video, bumper: bumper, intent: intent, queuedSeek: nil, context: context)
        preparation = prep
        let provider = self.provider
        let send = self.send
        let id = prep.id
        Task {
            // The bumper is prepared alongside the content, not after it.
            async let bumperPlan = bumper.asyncPlan(provider: provider, context: context)
            let content = await Self.plan(video, provider: provider, context: context)
            send(.prepared(preparationID: id, content, bumper: await bumperPlan))
        }
    }

    static func plan(_ video: Video, provider: any PlaybackSessionProvider, context: SessionPreparationContext) async -> Result<SessionPlan, PlaybackError> {
        do throws(PlaybackError) {
            return .success(try await provider.prepareSession(for: video, context: context))
        } catch {
            return .failure(error)
        }
    }

    func cancelPreparation() {
        if let seek = preparation?.queuedSeek { complete(seek, succeeded: false) }
        preparation = nil
    }

    func start(_ prep: Preparation, with result: Result<SessionPlan, PlaybackError>, bumper bumperPlan: Result<SessionPlan, PlaybackError>?) {
        let plan: SessionPlan
        switch result {
        case .failure(let error):
            carriedBumper = prep.bumper
            failToStart(prep, video: prep.video, source: nil, error: error)
            return
        case .success(let p):
            plan = p
        }
        // A hooked plan's queued seek is in reported time: it is made through the hooks once loaded.
        let configuration = newSessionConfiguration(
            url: plan.playbackURL, rights: plan.video.playbackRights, startPosition: plan.hooks == nil ? prep.queuedSeek?.target : nil, source: plan.source)
        let player: any EnginePlayer
        do {
            player = try engine.makePlayer(configuration: configuration)
            applyShutter(to: player)
        } catch {
            carriedBumper = prep.bumper
            failToStart(prep, video: plan.video, source: plan.source, error: error)
            return
        }
        foundPlayableVideo = true
        let send = self.send
        // The bumper gets its own engine player; the content preloads paused meanwhile.
        var bumperPlayer: (any EnginePlayer)?
        var bumperVideo: Video?
        var bumperFailure: PlaybackError?
        switch bumperPlan {
        case .success(let bumper):
            var bumperConfiguration = configuration
            bumperConfiguration.url = bumper.playbackURL
            bumperConfiguration.startPosition = nil
            bumperConfiguration.playbackRights = bumper.video.playbackRights
            do {
                bumperPlayer = try engine.makePlayer(configuration: bumperConfiguration)
                if let bumperPlayer { applyShutter(to: bumperPlayer) }
                bumperVideo = bumper.video
            } catch {
                bumperFailure = error
            }
        case .failure(let error):
            bumperFailure = error
        case nil:
            break
        }
        if bumperPlan != nil {
            bumperPlayedInQueue = true
            carriedBumper = nil
        }
        let session = PlaybackSession(
            id: nextSessionID(), video: plan.video, source: plan.source, player: player, providerExtension: plan.providerExtension,
            bumper: bumperVideo, sidecarTextTracks: plan.sidecarTextTracks, thumbnailSource: thumbnailSource(for: plan),
            thumbnailSeekingEnabled: thumbnailSwitch, send: send
        )
        let runtime = SessionRuntime(session: session, player: player, configuration: configuration)
        runtime.hooks = plan.hooks
        if plan.hooks == nil { track(.opened(at: prep.queuedSeek), in: runtime) }
        install(runtime)
        let sessionID = session.id
        listen(to: player, in: runtime)
        emit(.sessionAdvanced(session))
        for event in prep.context.notes.take(for: session) { emit(event) }
        if let hooks = plan.hooks {
            for event in hooks.sessionStarted(session, control: SessionControl(sessionID: sessionID, send: send)) { emit(event) }
            if let queued = prep.queuedSeek { seek(to: queued.target, tolerance: queued.tolerance, completion: queued.completion) }
        }
        session.prefetchThumbnails()
        announceBufferTarget(runtime)
        if prep.intent.isRequested {
            _ = runtime.intent.handle(.playRequested)
            emit(.lifecycle(session, .playRequest))
        }
        if let bumperFailure {
            emit(
                .lifecycle(
                    session,
                    .error(
                        PlaybackError(
                            bumperFailure.code, "The bumper could not be played: \(bumperFailure.message); the content plays without it",
                            url: bumperFailure.url, httpStatus: bumperFailure.httpStatus, cause: .playback(bumperFailure)))))
        }
        if let bumperPlayer, let bumperVideo = session.bumper {
            let bumper = SessionRuntime.BumperRuntime(video: bumperVideo, player: bumperPlayer)
            runtime.bumper = bumper
            _ = runtime.intent.handle(.held(.bumper))
            bumper.eventTask = Task {
                for await event in bumperPlayer.events { send(.engine(sessionID: sessionID, .bumper, event)) }
            }
            emit(.lifecycle(session, .bumperEnter(bumperVideo)))
            bumperPlayer.load(playWhenReady: prep.intent.isRequested)
            if configuration.videoOutput == .headless {
                // Nothing is visible: the content preloads, paused, so it starts the moment the bumper ends.
                emit(.lifecycle(session, .bufferEmpty))
                player.load(playWhenReady: false)
            } else {
                _ = runtime.intent.handle(.loadDeferred)
            }
            return
        }
        emit(.lifecycle(session, .bufferEmpty))
        player.load(playWhenReady: prep.intent.isRequested)
    }

    /// The engine configuration for this controller's outputs and current rate.
    func engineConfiguration(
        url: URL, rights: PlaybackRightsToken?, startPosition: MediaTime?, forwardBuffer: Duration?, maxBitrate: Int?, volume: AudioVolume? = nil,
        inAdBreak: Bool = false, source: Source? = nil
    ) -> EnginePlayerConfiguration {
        let current = settings
        var engineConfiguration = EnginePlayerConfiguration(
            url: url, videoOutput: configuration.videoOutput, audioOutput: configuration.audioOutput,
            pacing: configuration.pacing, rate: inAdBreak ? 1 : current.rate, maxBitrate: maxBitrate,
            forwardBufferDuration: forwardBuffer, startPosition: startPosition, startPolicy: configuration.startPolicy,
            captionsOnPicture: configuration.captionsOnPicture, volume: volume ?? current.volume,
            playbackRights: rights, rightsTokenRequests: configuration.rightsTokenRequests, videoOverlay: configuration.videoOverlay
        )
        engineConfiguration.pitchAlgorithm = current.pitchAlgorithm
        engineConfiguration.keySystems = source.map(KeySystemConfiguration.entries(of:)) ?? [:]
        return engineConfiguration
    }

    /// The volume a session plays at: its own when the app set one, else the controller's.
    func effectiveVolume(of runtime: SessionRuntime) -> AudioVolume {
        runtime.volumeOverride ?? settings.volume
    }

    /// A new session starts at the optimizer's first target and the app's peak cap (the ladder, and
    /// with it any resolution cap, is known only once the engine has read the master playlist).
    func newSessionConfiguration(url: URL, rights: PlaybackRightsToken?, startPosition: MediaTime?, source: Source? = nil) -> EnginePlayerConfiguration {
        let current = settings
        return engineConfiguration(
            url: url, rights: rights, startPosition: startPosition, forwardBuffer: current.bufferOptimizer.target(afterWatching: .zero),
            maxBitrate: current.peakBitrate, source: source)
    }

    /// Tells the app the buffer target a session that just became current started with.
    private func announceBufferTarget(_ runtime: SessionRuntime) {
        if let target = runtime.appliedBufferTarget { emit(.forwardBufferChanged(runtime.session, target)) }
    }

    /// Forwards the player's events into the loop, tagged with the runtime's current generation.
    func listen(to player: any EnginePlayer, in runtime: SessionRuntime) {
        let send = self.send
        let sessionID = runtime.session.id
        let generation = runtime.generation
        runtime.eventTask?.cancel()
        runtime.eventTask = Task {
            for await event in player.events { send(.engine(sessionID: sessionID, .content(generation: generation), event)) }
        }
    }

    private func failToStart(_ prep: Preparation, video: Video, source: Source?, error: PlaybackError) {
        let session = PlaybackSession(id: nextSessionID(), video: video, source: source, player: nil, providerExtension: nil, send: send)
        let runtime = SessionRuntime(session: session, player: nil, phase: .failed)
        install(runtime)
        if let seek = prep.queuedSeek { complete(seek, succeeded: false) }
        emit(.sessionAdvanced(session))
        for event in prep.context.notes.take(for: session) { emit(event) }
        emit(.lifecycle(session, .fail(error)))
        logger.error("session failed to start", metadata: ["session": "\(session.id)", "error": "\(error)"])
        continueAfterFailure(of: prep.index, playRequested: prep.intent.isRequested)
    }

    /// After a video fails: move on when auto-advancing, and report when the queue is exhausted —
    /// `noPlayableVideosFound` when nothing in it could play, else (auto-advancing) `playlistCompleted`.
    func continueAfterFailure(of position: Int, playRequested: Bool) {
        let isLast = position + 1 >= queue.count
        if isLast {
            if !foundPlayableVideo {
                emit(.noPlayableVideosFound(queue))
            } else if settings.autoAdvance {
                emit(.playlistCompleted(queue))
            }
        } else if settings.autoAdvance {
            terminateCurrent()
            advance(to: position + 1, playRequested: playRequested || settings.autoPlay)
        }
    }

    private func install(_ runtime: SessionRuntime) {
        current = runtime
        resumeShutterFade(in: runtime)
        shared.currentSession.withLock { $0 = runtime.session }
    }

    func terminateCurrent() {
        guard let runtime = current else { return }
        runtime.hooks?.sessionEnded()
        current = nil
        shared.currentSession.withLock { $0 = nil }
        runtime.timers.cancelAll()
        runtime.eventTask?.cancel()
        track(.abandoned, in: runtime)
        if let bumper = runtime.bumper {
            closeBumper(bumper, in: runtime)
            emit(.lifecycle(runtime.session, .bumperExit(bumper.video)))
        }
        runtime.player?.close()
        runtime.session.update { $0.terminated = true }
        emit(.lifecycle(runtime.session, .terminate))
    }

    /// Moves to the video at `position`, taking over its preloaded session when there is one.
    func advance(to position: Int, playRequested: Bool) {
        guard let next = preloaded, next.index == position, position < queue.count, queue[position] == next.video, let runtime = next.runtime else {
            discardPreload()
            begin(at: position, playRequested: playRequested)
            return
        }
        preloaded = nil
        index = position
        foundPlayableVideo = true
        install(runtime)
        emit(.sessionAdvanced(runtime.session))
        if let hooks = runtime.hooks {
            for event in hooks.sessionStarted(runtime.session, control: SessionControl(sessionID: runtime.session.id, send: send)) { emit(event) }
        }
        runtime.session.prefetchThumbnails()
        announceBufferTarget(runtime)
        if playRequested {
            _ = runtime.intent.handle(.playRequested)
            _ = runtime.frames.handle(.preloadTookOver)
            emit(.lifecycle(runtime.session, .playRequest))
        }
        emit(.lifecycle(runtime.session, .bufferEmpty))
        // A deferred pipeline loads now, a prerolled one plays if wanted (its own events come next).
        apply(runtime.intent.handle(.contentsTurn(loaded: runtime.phase == .ready)), in: runtime)
        let events = runtime.pendingEvents
        runtime.pendingEvents = []
        for event in events where current === runtime { handle(event, in: runtime) }
    }
}

/// Session ids are unique per process.
private let sessionCounter = Mutex(0)

func nextSessionID() -> Int {
    sessionCounter.withLock { value in
        value += 1
        return value
    }
}

extension Optional where Wrapped == Video {
    /// The bumper's plan, or nil when there is no bumper.
    fileprivate func asyncPlan(provider: any PlaybackSessionProvider, context: SessionPreparationContext) async -> Result<SessionPlan, PlaybackError>? {
        guard let video = self else { return nil }
        return await LoopState.plan(video, provider: provider, context: context)
    }
}
