import Foundation
import Logging
import Synchronization

/// The controller's single event loop. App commands, engine events, preparations and clock ticks
/// arrive on one ordered stream and are handled one at a time, so the controller's state never races
/// and events come out in a well-defined order.
final class ControllerLoop: Sendable {
    private let input: AsyncStream<ControllerInput>.Continuation
    private let shared: ControllerShared

    init(engine: any MediaEngine, provider: any PlaybackSessionProvider, configuration: PlaybackControllerConfiguration, dispatcher: EventDispatcher, shared: ControllerShared) {
        let (stream, continuation) = AsyncStream.makeStream(of: ControllerInput.self, bufferingPolicy: .unbounded)
        self.input = continuation
        self.shared = shared
        let state = LoopState(engine: engine, provider: provider, configuration: configuration, dispatcher: dispatcher, shared: shared, send: { continuation.yield($0) })
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

/// Session ids are unique per process.
private let sessionCounter = Mutex(0)

private func nextSessionID() -> Int {
    sessionCounter.withLock { value in
        value += 1
        return value
    }
}

/// The loop's state. An actor only so that Swift can prove it is touched by one task at a time; all
/// work happens inside `handle(_:)` without suspension points.
private actor LoopState {
    let engine: any MediaEngine
    let provider: any PlaybackSessionProvider
    let configuration: PlaybackControllerConfiguration
    let dispatcher: EventDispatcher
    let shared: ControllerShared
    let send: @Sendable (ControllerInput) -> Void
    var logger: Logger { configuration.logger }

    private var queue: [Video] = []
    private var index: Int?
    private var current: SessionRuntime?
    private var preparation: Preparation?
    private var preparationCounter = 0
    private var seekCounter = 0
    /// A video of the current queue reached the engine (used for `noPlayableVideosFound`).
    private var foundPlayableVideo = false
    /// The queue's bumper has played (it plays once per queue, before the first video that has one).
    private var bumperPlayedInQueue = false
    /// A bumper whose video could not play: it plays before the next video instead.
    private var carriedBumper: Video?
    /// The next video, prepared (and, headless, prerolled) while the current one plays.
    private var preloaded: Preloaded?

    private struct Preloaded {
        let preparationID: Int
        let index: Int
        let video: Video
        /// Built once the plan arrived and the engine made a player.
        var runtime: SessionRuntime?
    }
    private(set) var isShutDown = false

    init(engine: any MediaEngine, provider: any PlaybackSessionProvider, configuration: PlaybackControllerConfiguration, dispatcher: EventDispatcher, shared: ControllerShared, send: @escaping @Sendable (ControllerInput) -> Void) {
        self.engine = engine
        self.provider = provider
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.shared = shared
        self.send = send
    }

    private var settings: ControllerSettings { shared.settings.withLock { $0 } }

    /// The controller's thumbnail switch as sessions read it: weakly, so a session never keeps the
    /// shared state (which holds the current session) alive.
    private var thumbnailSwitch: @Sendable () -> Bool {
        { [weak shared] in shared?.settings.withLock { $0.thumbnailSeekingEnabled } ?? false }
    }

    func handle(_ item: ControllerInput) {
        guard !isShutDown else { return item.abandon() }
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
        case .retryDue(let sessionID, let token):
            guard let runtime = current, runtime.session.id == sessionID, runtime.retryToken == token else { return }
            performScheduledRetry(runtime)
        case .cueBoundary(let sessionID, let token):
            guard let runtime = current, runtime.session.id == sessionID, runtime.cueToken == token else { return }
            runtime.cueTask = nil
            guard runtime.isPlaying, let position = runtime.player?.position else { return }
            updateTextCues(runtime, at: position)
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
        case .tick(let sessionID, let token):
            guard let runtime = current, runtime.session.id == sessionID, runtime.tickToken == token else { return }
            if let bumper = runtime.bumper {
                if bumper.engineRunning, let position = bumper.player.position { emit(.lifecycle(runtime.session, .bumperProgress(position))) }
                return
            }
            guard runtime.isPlaying, !runtime.stalled else { return }
            if let position = runtime.player?.position { report(position: position, in: runtime) }
            if runtime.isLive { reportSeekableRangesIfMoved(runtime) }
        case .bumperStallDeadline(let sessionID, let token):
            guard let runtime = current, runtime.session.id == sessionID, let bumper = runtime.bumper, bumper.stalled, bumper.stallToken == token else { return }
            let waited = configuration.bumperStallTimeout
            finishBumper(in: runtime, failure: bumper.downloadFailure ?? PlaybackError(.failedToPlayToEnd, "The bumper stalled for \(MediaTime(waited)) and was skipped so the content can start"))
        }
    }

    // MARK: Commands

    private func handle(_ command: ControllerInput.Command) {
        switch command {
        case .setVideos(let videos):
            terminateCurrent()
            cancelPreparation()
            discardPreload()
            queue = videos
            foundPlayableVideo = false
            bumperPlayedInQueue = false
            carriedBumper = nil
            if videos.isEmpty {
                index = nil
                logger.info("setVideos received an empty list: there is nothing to play")
                return
            }
            begin(at: 0, playRequested: settings.autoPlay)
        case .advanceToNext:
            let next = (index ?? -1) + 1
            guard next < queue.count else {
                logger.info("advanceToNext ignored: there is no video after the current one (queue has \(queue.count))")
                return
            }
            let wasPlaying = current?.playRequested ?? preparation?.playRequested ?? false
            terminateCurrent()
            cancelPreparation()
            advance(to: next, playRequested: settings.autoPlay || wasPlaying)
        case .insert(let video, let after):
            insert(video, after: after)
        case .play:
            play()
        case .pause:
            pause()
        case .seek(let target, let tolerance, let completion):
            seek(to: target, tolerance: tolerance, completion: completion)
        case .seekEngine(let sessionID, let target, let completion):
            guard current?.session.id == sessionID else { return reject(completion) }
            seek(to: target, tolerance: .default, completion: completion, askingHooks: false)
        case .seekSession(let sessionID, let target, let completion):
            guard current?.session.id == sessionID else { return reject(completion) }
            seek(to: target, tolerance: .default, completion: completion)
        case .report(let sessionID, let event):
            guard current?.session.id == sessionID else { return }
            emit(event)
        case .setRate(let rate):
            current?.player?.setRate(rate)
            current?.bumper?.player.setRate(rate)
        case .setPeakBitrate(let cap):
            if let runtime = current { applyBitrateCap(runtime, capChanged: true) }
            current?.bumper?.player.setMaxBitrate(cap)
        case .setResolutionCap:
            if let runtime = current { applyBitrateCap(runtime, capChanged: true) }
        case .resume(let time, let autoPlay):
            resume(at: time, autoPlay: autoPlay, automatic: false)
        case .selectTrack(let sessionID, let kind, let trackID):
            guard let runtime = current, runtime.session.id == sessionID, let player = runtime.player else { return }
            if kind == .text {
                selectText(trackID, in: runtime, player: player, remember: true)
                return
            }
            let audio = trackID
            let text = runtime.selectedSidecarID == nil ? runtime.session.selectedTextTrack?.id : nil
            player.selectTracks(audio: audio, text: text)
        case .addConsumer(let consumer):
            dispatcher.enqueue(.addConsumer(consumer, current: current?.session))
        case .removeConsumer(let id):
            dispatcher.enqueue(.removeConsumer(id))
        case .settle(let done):
            dispatcher.enqueue(.callback(done))
        case .terminateSession(let id):
            guard current?.session.id == id else { return }
            terminateCurrent()
        case .shutdown:
            terminateCurrent()
            cancelPreparation()
            discardPreload()
            isShutDown = true
            dispatcher.finish()
        }
    }

    private func play() {
        if var preparation {
            preparation.playRequested = true
            self.preparation = preparation
            return
        }
        guard let runtime = current else {
            logger.warning(queue.isEmpty ? "play() ignored: the queue is empty; call setVideos(_:) first" : "play() ignored: there is no active session; call setVideos(_:) or advanceToNext()")
            return
        }
        guard runtime.phase != .failed, let player = runtime.player else {
            logger.warning("play() ignored: session \(runtime.session.id) failed and cannot play")
            return
        }
        emit(.lifecycle(runtime.session, .playRequest))
        runtime.playRequested = true
        if let bumper = runtime.bumper {
            bumper.player.play()
            return
        }
        if runtime.phase == .ended {
            // Like an HTML media element: play() at the end starts over.
            runtime.phase = .ready
            performSeek(in: runtime, PendingSeek(id: nextSeekID(), target: .zero, tolerance: .zero, completion: nil))
        }
        if runtime.stalled { return }
        if runtime.phase == .ready && runtime.hasPlayed && runtime.bufferingPercent == 0 && runtime.seekInFlight == nil {
            // The buffer ran dry while paused (the engine will not report it again): this is a stall.
            handleBuffering(0, in: runtime)
            return
        }
        if runtime.engineRunning && !runtime.isPlaying && runtime.phase == .ready {
            startPlaying(runtime)
        }
        player.play()
    }

    private func pause() {
        if var preparation {
            preparation.playRequested = false
            self.preparation = preparation
            return
        }
        guard let runtime = current, runtime.phase != .failed, let player = runtime.player else {
            logger.info("pause() ignored: no session is playing")
            return
        }
        emit(.lifecycle(runtime.session, .pauseRequest))
        runtime.playRequested = false
        if runtime.heldFrame != nil { runtime.heldFrameIsStale = true }
        if let bumper = runtime.bumper {
            if !bumper.engineRunning && !bumper.paused {
                // Not playing yet (loading or stalled): the engine will not report a pause, so report it here.
                bumper.paused = true
                stopTicker(runtime)
                emit(.lifecycle(runtime.session, .bumperPause))
            }
            bumper.player.pause()
            return
        }
        if runtime.isPlaying && !runtime.engineRunning {
            // Stalled or not yet started: the engine will not report a state change, so report it here.
            stopPlaying(runtime)
        }
        player.pause()
    }

    private typealias PendingSeek = SessionRuntime.PendingSeek

    private func nextSeekID() -> Int {
        seekCounter += 1
        return seekCounter
    }

    private func reject(_ completion: (@Sendable (Bool) -> Void)?) {
        guard let completion else { return }
        dispatcher.enqueue(.callback { completion(false) })
    }

    private func seek(to target: MediaTime, tolerance: SeekTolerance, completion: (@Sendable (Bool) -> Void)?, askingHooks: Bool = true) {
        var target = target
        var completion = completion
        if askingHooks, preparation == nil, let runtime = current, let hooks = runtime.hooks, target.isFinite {
            // The app seeks in reported (content) time; the plugin says where the engine goes.
            let position = runtime.player?.position ?? .zero
            switch hooks.seekRequested(to: max(target, .zero), from: position, adsDisabled: settings.adsDisabled, completion: completion) {
            case .seek(let engineTime):
                target = engineTime
            case .seekKeepingCompletion(let engineTime):
                target = engineTime
                completion = nil
            case .refuse(let reason):
                logger.notice("seek(to:) refused: \(reason)")
                return reject(completion)
            }
        }
        let request = PendingSeek(id: nextSeekID(), target: max(target, .zero), tolerance: tolerance, completion: completion)
        if var preparation {
            guard preparation.bumper == nil else {
                logger.notice("seek(to:) refused: a bumper plays first, and seeking is not allowed while it plays")
                complete(request, succeeded: false)
                return
            }
            if let replaced = preparation.queuedSeek { complete(replaced, succeeded: false) }
            preparation.queuedSeek = request
            self.preparation = preparation
            return
        }
        guard let runtime = current, runtime.player != nil, runtime.phase != .failed else {
            logger.info("seek(to:) ignored: no session can seek")
            complete(request, succeeded: false)
            return
        }
        guard runtime.bumper == nil else {
            logger.notice("seek(to:) refused: seeking is not allowed while the bumper plays")
            complete(request, succeeded: false)
            return
        }
        if runtime.phase == .loading {
            // The newest request wins, whether the older one was queued or given to the engine as its start.
            for replaced in [runtime.queuedSeek, runtime.openingSeek].compactMap({ $0 }) { complete(replaced, succeeded: false) }
            runtime.openingSeek = nil
            runtime.queuedSeek = request
            return
        }
        if runtime.phase == .ended { runtime.phase = .ready }
        performSeek(in: runtime, request)
    }

    private func performSeek(in runtime: SessionRuntime, _ request: PendingSeek) {
        if shouldSeekByRebuilding(runtime, to: request.target) {
            seekByRebuilding(runtime, request)
            return
        }
        if let interrupted = runtime.seekInFlight { complete(interrupted, succeeded: false) }
        runtime.seekInFlight = request
        runtime.awaitingSeekFrame = runtime.reportedFirstFrame
        runtime.lastWatchedPosition = nil
        runtime.cueHighWater = .before
        runtime.hooksPlayheadJumped = true
        runtime.lowVariantSeekPending = false
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .bufferEmpty))
        runtime.player?.seek(to: request.target, tolerance: request.tolerance, id: request.id)
    }

    /// hlsdemux2 fetches a seek's first segment at the variant it is on, however it is capped: at 720p
    /// that is a whole large segment before the first frame. A fresh pipeline opened at the target
    /// starts on the lowest variant instead (Cove's start policy) and climbs from there — a few
    /// round trips instead of a big download. Only for targets outside the buffer, on a ladder, when
    /// not already at the lowest variant.
    private func shouldSeekByRebuilding(_ runtime: SessionRuntime, to target: MediaTime) -> Bool {
        guard configuration.startPolicy.lowVariantSeeks, configuration.startPolicy.startsOnLowestVariant, runtime.phase == .ready, runtime.rebuilding == nil,
            let lowest = runtime.ladder.lowest, let active = runtime.activeVariant, active.bandwidth > lowest.bandwidth,
            let player = runtime.player, let position = player.position, position.isFinite, target.isFinite
        else { return false }
        let status = player.status
        // Worth it only when fetching a segment at the current variant is slow: at loopback speeds a
        // rebuild costs more than the download it saves. (~2 s segments assumed.)
        guard let estimate = status.bandwidthEstimate, estimate > 0, Double(active.bandwidth) * 2 / Double(estimate) > 0.3 else { return false }
        let bufferedEnd = position.advanced(by: status.bufferedAhead ?? .zero)
        return target < position || target > bufferedEnd
    }

    private func seekByRebuilding(_ runtime: SessionRuntime, _ request: PendingSeek) {
        if let interrupted = runtime.seekInFlight { complete(interrupted, succeeded: false) }
        runtime.seekInFlight = request
        runtime.awaitingSeekFrame = runtime.reportedFirstFrame
        runtime.lastWatchedPosition = nil
        runtime.cueHighWater = .before
        runtime.hooksPlayheadJumped = true
        runtime.lowVariantSeekPending = true
        runtime.resumePosition = request.target
        runtime.rebuilding = .seek
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .bufferEmpty))
        rebuild(runtime, at: request.target, playWhenReady: runtime.playRequested)
    }

    private func complete(_ seek: PendingSeek, succeeded: Bool) {
        guard let completion = seek.completion else { return }
        dispatcher.enqueue(.callback { completion(succeeded) })
    }

    private func insert(_ video: Video, after position: Int) {
        guard position >= 0, position < queue.count else {
            let error = PlaybackError(.invalidArgument, "Cannot insert after index \(position): the queue has \(queue.count) videos, so valid indices are 0..<\(queue.count)")
            emit(.videoInsertionFailed(video, error))
            return
        }
        guard !video.sources.isEmpty, video.error == nil else {
            let error = PlaybackError(.noPlayableSource, "Cannot insert a video without sources\(video.error.map { " (catalog error: \($0))" } ?? "")")
            emit(.videoInsertionFailed(video, error))
            return
        }
        if let next = preloaded, next.index > position { discardPreload() }
        queue.insert(video, at: position + 1)
        if let current = index, current > position {
            index = current + 1
            preparation?.index += 1
        }
        emit(.videoInserted(video, index: position + 1))
    }

    // MARK: Session lifecycle

    private func begin(at position: Int, playRequested: Bool) {
        index = position
        preparationCounter += 1
        let video = queue[position]
        let bumper = bumperPlayedInQueue ? nil : (video.bumper ?? carriedBumper)
        let prep = Preparation(id: preparationCounter, index: position, video: video, bumper: bumper, playRequested: playRequested, queuedSeek: nil)
        preparation = prep
        let provider = self.provider
        let context = SessionPreparationContext(logger: logger)
        let send = self.send
        let id = prep.id
        Task {
            // The bumper is prepared alongside the content, not after it.
            async let bumperPlan = bumper.asyncPlan(provider: provider, context: context)
            let content = await Self.plan(video, provider: provider, context: context)
            send(.prepared(preparationID: id, content, bumper: await bumperPlan))
        }
    }

    fileprivate static func plan(_ video: Video, provider: any PlaybackSessionProvider, context: SessionPreparationContext) async -> Result<SessionPlan, PlaybackError> {
        do throws(PlaybackError) {
            return .success(try await provider.prepareSession(for: video, context: context))
        } catch {
            return .failure(error)
        }
    }

    private func cancelPreparation() {
        if let seek = preparation?.queuedSeek { complete(seek, succeeded: false) }
        preparation = nil
    }

    private func start(_ prep: Preparation, with result: Result<SessionPlan, PlaybackError>, bumper bumperPlan: Result<SessionPlan, PlaybackError>?) {
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
        let configuration = newSessionConfiguration(url: plan.playbackURL, startPosition: plan.hooks == nil ? prep.queuedSeek?.target : nil)
        let player: any EnginePlayer
        do {
            player = try engine.makePlayer(configuration: configuration)
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
            do {
                bumperPlayer = try engine.makePlayer(configuration: bumperConfiguration)
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
            bumper: bumperVideo, sidecarTextTracks: plan.sidecarTextTracks, thumbnailSource: plan.thumbnailSource,
            thumbnailSeekingEnabled: thumbnailSwitch, send: send
        )
        let runtime = SessionRuntime(session: session, player: player, configuration: configuration)
        runtime.hooks = plan.hooks
        if plan.hooks == nil { runtime.openingSeek = prep.queuedSeek }
        install(runtime)
        let sessionID = session.id
        listen(to: player, in: runtime)
        emit(.sessionAdvanced(session))
        if let hooks = plan.hooks {
            for event in hooks.sessionStarted(session, control: SessionControl(sessionID: sessionID, send: send)) { emit(event) }
            if let queued = prep.queuedSeek { seek(to: queued.target, tolerance: queued.tolerance, completion: queued.completion) }
        }
        session.prefetchThumbnails()
        announceBufferTarget(runtime)
        if prep.playRequested {
            runtime.playRequested = true
            emit(.lifecycle(session, .playRequest))
        }
        if let bumperFailure {
            emit(.lifecycle(session, .error(PlaybackError(bumperFailure.code, "The bumper could not be played: \(bumperFailure.message); the content plays without it", url: bumperFailure.url, httpStatus: bumperFailure.httpStatus, underlying: bumperFailure.underlying))))
        }
        if let bumperPlayer, let bumperVideo = session.bumper {
            let bumper = SessionRuntime.BumperRuntime(video: bumperVideo, player: bumperPlayer)
            runtime.bumper = bumper
            bumper.eventTask = Task {
                for await event in bumperPlayer.events { send(.engine(sessionID: sessionID, .bumper, event)) }
            }
            emit(.lifecycle(session, .bumperEnter(bumperVideo)))
            bumperPlayer.load(playWhenReady: prep.playRequested)
            if configuration.videoOutput == .headless {
                // Nothing is visible: the content preloads, paused, so it starts the moment the bumper ends.
                emit(.lifecycle(session, .bufferEmpty))
                player.load(playWhenReady: false)
            } else {
                runtime.contentLoadDeferred = true
            }
            return
        }
        emit(.lifecycle(session, .bufferEmpty))
        player.load(playWhenReady: prep.playRequested)
    }

    /// The engine configuration for this controller's outputs and current rate.
    private func engineConfiguration(url: URL, startPosition: MediaTime?, forwardBuffer: Duration?, maxBitrate: Int?) -> EnginePlayerConfiguration {
        EnginePlayerConfiguration(
            url: url, videoOutput: configuration.videoOutput, audioOutput: configuration.audioOutput,
            pacing: configuration.pacing, rate: settings.rate, maxBitrate: maxBitrate,
            forwardBufferDuration: forwardBuffer, startPosition: startPosition, startPolicy: configuration.startPolicy
        )
    }

    /// A new session starts at the optimizer's first target and the app's peak cap (the ladder, and
    /// with it any resolution cap, is known only once the engine has read the master playlist).
    private func newSessionConfiguration(url: URL, startPosition: MediaTime?) -> EnginePlayerConfiguration {
        let current = settings
        return engineConfiguration(url: url, startPosition: startPosition, forwardBuffer: current.bufferOptimizer.target(afterWatching: .zero), maxBitrate: current.peakBitrate)
    }

    /// Tells the app the buffer target a session that just became current started with.
    private func announceBufferTarget(_ runtime: SessionRuntime) {
        if let target = runtime.appliedBufferTarget { emit(.forwardBufferChanged(runtime.session, target)) }
    }

    /// Forwards the player's events into the loop, tagged with the runtime's current generation.
    private func listen(to player: any EnginePlayer, in runtime: SessionRuntime) {
        let send = self.send
        let sessionID = runtime.session.id
        let generation = runtime.generation
        runtime.eventTask?.cancel()
        runtime.eventTask = Task {
            for await event in player.events { send(.engine(sessionID: sessionID, .content(generation: generation), event)) }
        }
    }

    // MARK: Bumper

    private func handleBumper(_ event: EngineEvent, in runtime: SessionRuntime) {
        guard let bumper = runtime.bumper else { return }
        let session = runtime.session
        switch event {
        case .playing:
            bumper.engineRunning = true
            bumper.hasPlayed = true
            if bumper.paused {
                bumper.paused = false
                emit(.lifecycle(session, .bumperResume))
            }
            if !bumper.stalled { startTicker(runtime) }
        case .paused:
            bumper.engineRunning = false
            if !runtime.playRequested && !bumper.paused {
                bumper.paused = true
                stopTicker(runtime)
                emit(.lifecycle(session, .bumperPause))
            }
        case .firstFrame(let wallTime):
            if !bumper.reportedFirstFrame {
                bumper.reportedFirstFrame = true
                emit(.framePresented(session, FramePresentation(cause: .bumper, wallTime: wallTime)))
            }
        case .buffering(let percent):
            handleBumperBuffering(percent, bumper: bumper, in: runtime)
        case .endOfStream:
            finishBumper(in: runtime, failure: nil)
        case .failed(let error):
            finishBumper(in: runtime, failure: error)
        case .downloadFailed(let error):
            // Like the content: buffered media may still play; fatal only once the bumper runs dry.
            logger.notice("bumper download failed", metadata: ["session": "\(session.id)", "error": "\(error)"])
            if bumper.downloadFailure == nil { bumper.downloadFailure = error }
            if bumper.stalled { finishBumper(in: runtime, failure: error) }
        default:
            break
        }
    }

    /// A bumper that runs dry pauses until its buffer refills; if that takes longer than the stall
    /// timeout it is skipped, so a slow bumper can never hold the content back for long.
    private func handleBumperBuffering(_ percent: Int, bumper: SessionRuntime.BumperRuntime, in runtime: SessionRuntime) {
        guard bumper.hasPlayed else { return }
        if percent == 0 && !bumper.stalled {
            if let failure = bumper.downloadFailure {
                finishBumper(in: runtime, failure: failure)
                return
            }
            bumper.stalled = true
            stopTicker(runtime)
            bumper.player.pause()
            bumper.stallToken += 1
            bumper.stallTask?.cancel()
            bumper.stallTask = after(configuration.bumperStallTimeout, send: .bumperStallDeadline(sessionID: runtime.session.id, token: bumper.stallToken))
        } else if percent >= 100 && bumper.stalled {
            bumper.stalled = false
            bumper.stallToken += 1
            bumper.stallTask?.cancel()
            if runtime.playRequested { bumper.player.play() }
        }
    }

    /// Closes the bumper's player; the caller reports the exit.
    private func closeBumper(_ bumper: SessionRuntime.BumperRuntime, in runtime: SessionRuntime) {
        runtime.bumper = nil
        stopTicker(runtime)
        bumper.stallTask?.cancel()
        bumper.eventTask?.cancel()
        bumper.player.close()
    }

    /// The bumper is over: report it, drop its player and let the (preloaded) content play.
    private func finishBumper(in runtime: SessionRuntime, failure: PlaybackError?) {
        guard let bumper = runtime.bumper else { return }
        let session = runtime.session
        closeBumper(bumper, in: runtime)
        if let failure { emit(.lifecycle(session, .bumperFailedToPlayToEndTime(failure))) }
        emit(.lifecycle(session, .bumperExit(bumper.video)))
        guard runtime.phase != .failed else { return }
        if runtime.contentLoadDeferred {
            runtime.contentLoadDeferred = false
            emit(.lifecycle(session, .bufferEmpty))
            runtime.player?.load(playWhenReady: runtime.playRequested)
            return
        }
        if runtime.playRequested {
            runtime.player?.play()
            if runtime.phase == .ready && runtime.engineRunning && !runtime.isPlaying { startPlaying(runtime) }
        }
    }

    /// The content failed while its bumper played: the bumper stops (and exits) at once, and plays
    /// before the next video instead.
    private func abandonBumper(in runtime: SessionRuntime) {
        guard let bumper = runtime.bumper else { return }
        closeBumper(bumper, in: runtime)
        emit(.lifecycle(runtime.session, .bumperExit(bumper.video)))
        bumperPlayedInQueue = false
        carriedBumper = bumper.video
    }

    private func failToStart(_ prep: Preparation, video: Video, source: Source?, error: PlaybackError) {
        let session = PlaybackSession(id: nextSessionID(), video: video, source: source, player: nil, providerExtension: nil, send: send)
        let runtime = SessionRuntime(session: session, player: nil, phase: .failed)
        install(runtime)
        if let seek = prep.queuedSeek { complete(seek, succeeded: false) }
        emit(.sessionAdvanced(session))
        emit(.lifecycle(session, .fail(error)))
        logger.error("session failed to start", metadata: ["session": "\(session.id)", "error": "\(error)"])
        continueAfterFailure(of: prep.index, playRequested: prep.playRequested)
    }

    /// After a video fails: move on when auto-advancing, and report when the queue is exhausted —
    /// `noPlayableVideosFound` when nothing in it could play, else (auto-advancing) `playlistCompleted`.
    private func continueAfterFailure(of position: Int, playRequested: Bool) {
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
        shared.currentSession.withLock { $0 = runtime.session }
    }

    private func terminateCurrent() {
        guard let runtime = current else { return }
        runtime.hooks?.sessionEnded()
        current = nil
        shared.currentSession.withLock { $0 = nil }
        stopTicker(runtime)
        disarm(runtime)
        runtime.eventTask?.cancel()
        for seek in [runtime.queuedSeek, runtime.seekInFlight, runtime.openingSeek].compactMap({ $0 }) { complete(seek, succeeded: false) }
        if let bumper = runtime.bumper {
            closeBumper(bumper, in: runtime)
            emit(.lifecycle(runtime.session, .bumperExit(bumper.video)))
        }
        runtime.player?.close()
        runtime.session.update { $0.terminated = true }
        emit(.lifecycle(runtime.session, .terminate))
    }

    // MARK: Engine events

    private func handle(_ event: EngineEvent, in runtime: SessionRuntime) {
        let session = runtime.session
        switch event {
        case .prerolled(let info):
            guard runtime.phase == .loading else { return }
            if let rebuild = runtime.rebuilding, runtime.reportedReady {
                rebuilt(runtime, info: info, after: rebuild)
            } else {
                runtime.rebuilding = nil
                becameReady(runtime, info: info)
            }
        case .playing:
            runtime.engineRunning = true
            if runtime.playRequested && !runtime.isPlaying && !runtime.stalled && runtime.phase == .ready {
                startPlaying(runtime)
            }
        case .paused:
            runtime.engineRunning = false
            if runtime.isPlaying && !runtime.playRequested { stopPlaying(runtime) }
        case .firstFrame(let wallTime):
            // Frames that start playback can be shown before it starts (a display shows the prerolled
            // frame): they are reported right after Play, keeping the lifecycle order.
            if runtime.awaitingTransitionFrame && runtime.playRequested {
                runtime.awaitingTransitionFrame = false
                runtime.reportedFirstFrame = true
                presentStartingFrame(FramePresentation(cause: .transition, wallTime: wallTime), in: runtime)
            } else if runtime.awaitingResumeFrame && runtime.playRequested {
                runtime.awaitingResumeFrame = false
                runtime.awaitingSeekFrame = false
                presentStartingFrame(FramePresentation(cause: .resume, wallTime: wallTime), in: runtime)
            } else if !runtime.reportedFirstFrame && runtime.playRequested && runtime.bumper == nil {
                runtime.reportedFirstFrame = true
                runtime.awaitingSeekFrame = false
                presentStartingFrame(FramePresentation(cause: .start, wallTime: wallTime), in: runtime)
            } else if runtime.awaitingSeekFrame {
                runtime.awaitingSeekFrame = false
                emit(.framePresented(session, FramePresentation(cause: .seek, wallTime: wallTime)))
            }
        case .seekCompleted(let id, let succeeded):
            guard let request = runtime.seekInFlight, request.id == id else { return }
            runtime.seekInFlight = nil
            runtime.lowVariantSeekPending = false
            complete(request, succeeded: succeeded)
            seekFinished(runtime, succeeded: succeeded)
        case .buffering(let percent):
            handleBuffering(percent, in: runtime)
        case .textCue(let cue):
            guard runtime.streamCues.insert(cue), runtime.selectedSidecarID == nil, runtime.session.selectedTextTrack != nil else { return }
            updateTextCues(runtime, at: runtime.player?.position ?? runtime.lastReportedTime)
        case .durationChanged(let duration):
            guard runtime.phase == .ready || runtime.phase == .ended, duration != runtime.duration else { return }
            runtime.duration = duration
            emit(.durationChanged(session, reportedDuration(duration, runtime)))
        case .tracksChanged(let tracks):
            runtime.engineTracks = tracks
            publishTracks(runtime)
        case .tracksSelected(let ids):
            runtime.selectedTrackIDs = ids
            // A new selection from the engine: the remembered choice may be asked for again (once).
            runtime.captionPreferenceRequested = nil
            publishTracks(runtime)
        case .videoSizeChanged(_, let height):
            // Nothing switched yet: the first picture tells which variant the engine started on.
            // After a low-variant seek, the picture tells that the fresh pipeline started low.
            if runtime.activeVariant == nil || (runtime.lowVariantSeekPending && runtime.activeVariant?.height != height),
                let variant = runtime.ladder.variants.first(where: { $0.height == height }),
                runtime.ladder.variants.filter({ $0.height == height }).count == 1
            {
                variantChanged(runtime, bandwidth: variant.bandwidth, url: variant.url)
            }
        case .variantChanged(let bandwidth, let url):
            variantChanged(runtime, bandwidth: bandwidth, url: url)
        case .variantsDiscovered(let variants):
            let ladder = VariantLadder(variants)
            guard ladder != runtime.ladder else { return }
            runtime.ladder = ladder
            emit(.variantsDiscovered(session, ladder))
            if settings.maximumResolution != nil { applyBitrateCap(runtime, capChanged: true) }
        case .downloadFailed(let error):
            guard runtime.downloadFailure == nil else { return }
            runtime.downloadFailure = error
            emit(.lifecycle(session, .error(error)))
            // During a retry episode downloads failing again means the network is still bad: go on
            // retrying now rather than wait for a buffer the rebuilt pipeline may never report as empty.
            if runtime.stalled || runtime.retryAttempts > 0 { retryOrFail(runtime, error: error) }
        case .failed(let error):
            if runtime.phase == .loading, let rebuild = runtime.rebuilding, runtime.reportedReady {
                rebuildFailed(runtime, error: error, after: rebuild)
            } else if runtime.phase == .loading, scheduleRetry(runtime, error: error, kind: .load) {
                runtime.rebuilding = .retry(.load)
                logger.notice("session failed to load; retrying", metadata: ["session": "\(session.id)", "error": "\(error)"])
            } else if runtime.phase == .loading {
                runtime.phase = .failed
                stopTicker(runtime)
                for seek in [runtime.queuedSeek, runtime.openingSeek].compactMap({ $0 }) { complete(seek, succeeded: false) }
                runtime.queuedSeek = nil
                runtime.openingSeek = nil
                abandonBumper(in: runtime)
                emit(.lifecycle(session, .fail(error)))
                logger.error("session failed to load", metadata: ["session": "\(session.id)", "error": "\(error)"])
                runtime.player?.close()
                continueAfterFailure(of: index ?? 0, playRequested: runtime.playRequested)
            } else if runtime.phase != .failed {
                retryOrFail(runtime, error: error)
            }
        case .warning(let text):
            logger.notice("engine warning", metadata: ["session": "\(session.id)", "warning": "\(text)"])
        case .endOfStream:
            guard runtime.phase == .ready else { return }
            if runtime.seekInFlight != nil {
                // A seek to (or past) the end: finish the seek first, then end.
                runtime.endedDuringSeek = true
                return
            }
            reachedEnd(runtime)
        }
    }

    private func becameReady(_ runtime: SessionRuntime, info: EngineMediaInfo) {
        let session = runtime.session
        runtime.phase = .ready
        runtime.reportedReady = true
        defer {
            // Loaded: hold the session to the remembered caption choice.
            runtime.captionPreferenceRequested = nil
            applyCaptionPreference(runtime, text: session.textTrackGroup.tracks, selected: session.selectedTextTrack)
        }
        runtime.duration = info.duration
        runtime.seekableRanges = info.seekableRanges
        runtime.isLive = info.isLive
        emit(.durationChanged(session, reportedDuration(info.duration, runtime)))
        if !info.seekableRanges.isEmpty { emit(.seekableRangesChanged(session, info.seekableRanges)) }
        emit(.mediaTypeDetermined(session, runtime.engineTracks.contains { $0.kind == .video } ? .audioVideo : .audio))
        emit(.videoTypeDetermined(session, videoType(info)))
        let codecs = determinedCodecs(runtime)
        if !codecs.isEmpty { emit(.codecsDetermined(session, codecs)) }
        emit(.lifecycle(session, .ready))
        if let opening = runtime.openingSeek {
            runtime.openingSeek = nil
            complete(opening, succeeded: true)
        }
        emit(.lifecycle(session, .likelyToKeepUp))
        if let queued = runtime.queuedSeek {
            runtime.queuedSeek = nil
            performSeek(in: runtime, queued)
        }
        if runtime.playRequested && runtime.engineRunning && !runtime.isPlaying {
            startPlaying(runtime)
        }
    }

    /// A live window slides: report it when either end moved by a second or more.
    private func reportSeekableRangesIfMoved(_ runtime: SessionRuntime) {
        guard let ranges = runtime.player?.seekableRanges, !ranges.isEmpty else { return }
        let moved = ranges.count != runtime.seekableRanges.count || zip(ranges, runtime.seekableRanges).contains { new, old in
            [new.start.offset(from: old.start), new.end.offset(from: old.end)].contains { shift in
                guard let shift else { return true }
                return shift >= .seconds(1) || shift <= .seconds(-1)
            }
        }
        guard moved else { return }
        runtime.seekableRanges = ranges
        emit(.seekableRangesChanged(runtime.session, ranges))
    }

    private func videoType(_ info: EngineMediaInfo) -> VideoType {
        guard info.isLive else { return .vod }
        let window = info.seekableRanges.compactMap(\.duration).max() ?? .zero
        return window >= configuration.liveDVRMinimumWindow ? .liveDVR : .live
    }

    private func determinedCodecs(_ runtime: SessionRuntime) -> [String] {
        let selected = runtime.engineTracks.filter { runtime.selectedTrackIDs.isEmpty || runtime.selectedTrackIDs.contains($0.id) }
        var codecs: [String] = []
        for codec in selected.compactMap(\.codec) where !codecs.contains(codec) { codecs.append(codec) }
        return codecs.isEmpty ? (runtime.session.source?.codecs ?? []) : codecs
    }

    private func publishTracks(_ runtime: SessionRuntime) {
        let session = runtime.session
        // The stream's own first selection marks its DEFAULT renditions.
        if runtime.defaultTrackIDs == nil, !runtime.selectedTrackIDs.isEmpty { runtime.defaultTrackIDs = Set(runtime.selectedTrackIDs) }
        let defaults = runtime.defaultTrackIDs ?? []
        let tracks = { (kind: MediaTrack.Kind, engineKind: EngineTrack.Kind) in
            runtime.engineTracks.filter { $0.kind == engineKind }.map { Self.mediaTrack($0, kind: kind).markedDefault(defaults.contains($0.id)) }
        }
        let audio = tracks(.audio, .audio)
        // The stream's own renditions, then the sidecar tracks that have not failed to load.
        let sidecars = session.sidecarTextTracks.filter { if case .failed = $0.status { false } else { true } }.map(\.mediaTrack)
        let text = tracks(.text, .text) + sidecars
        let selectedAudio = audio.first { runtime.selectedTrackIDs.contains($0.id) }
        let selectedText = runtime.selectedSidecarID.flatMap { id in sidecars.first { $0.id == id } } ?? text.first { runtime.selectedTrackIDs.contains($0.id) }
        let (audioChanged, textChanged) = session.update { state -> (Bool, Bool) in
            state.audioTracks = audio
            state.textTracks = text
            let changes = (state.selectedAudio != selectedAudio, state.selectedText != selectedText)
            state.selectedAudio = selectedAudio
            state.selectedText = selectedText
            return changes
        }
        guard !runtime.selectedTrackIDs.isEmpty || runtime.selectedSidecarID != nil || textChanged else { return }
        if audioChanged { emit(.audioTrackSelected(session, selectedAudio)) }
        if textChanged { emit(.textTrackSelected(session, selectedText)) }
        // Only once loaded: a selection change while the engine prerolls can hold its preroll up.
        if !runtime.engineTracks.isEmpty && runtime.phase == .ready { applyCaptionPreference(runtime, text: text, selected: selectedText) }
    }

    /// Shows `trackID`'s text (nil: none). A sidecar track replaces the stream's own text; choosing a
    /// stream track or none drops it. `remember`: the app chose it, so it is the viewer's new preference.
    private func selectText(_ trackID: String?, in runtime: SessionRuntime, player: any EnginePlayer, remember: Bool) {
        let sidecar = trackID.flatMap { id in runtime.session.sidecarTextTracks.first { $0.mediaTrack.id == id } }
        if trackID != nil && sidecar == nil && trackID?.hasPrefix(SidecarTextTrack.idPrefix) == true {
            logger.warning("selectTextTrack ignored: the session has no sidecar track \(trackID ?? "")")
            return
        }
        if remember, let preferences = configuration.captionPreferences {
            let chosen = trackID.flatMap { id in runtime.session.textTrackGroup.tracks.first { $0.id == id } }
            let choice: CaptionPreferences.Choice? = trackID == nil ? .off : chosen?.language.map(CaptionPreferences.Choice.language)
            if let choice {
                do { try preferences.save(choice) } catch { logger.warning("the caption choice could not be saved", metadata: ["file": "\(preferences.fileURL.path)", "error": "\(error)"]) }
            }
            runtime.captionPreferenceApplied = true
        }
        runtime.selectedSidecarID = sidecar?.mediaTrack.id
        let streamText = sidecar == nil ? trackID : nil
        // The audio the engine plays, even before the session has published it.
        let audio = runtime.session.selectedAudioTrack?.id
            ?? runtime.engineTracks.first { $0.kind == .audio && runtime.selectedTrackIDs.contains($0.id) }?.id
        player.selectTracks(audio: audio, text: streamText)
        publishTracks(runtime)
        updateTextCues(runtime, at: player.position ?? runtime.lastReportedTime)
    }

    /// Holds the session to the remembered caption choice until the app makes one of its own: the
    /// stream's own selections (its DEFAULT renditions, selected in stages) do not override the viewer's.
    private func applyCaptionPreference(_ runtime: SessionRuntime, text: [MediaTrack], selected: MediaTrack?) {
        guard !runtime.captionPreferenceApplied, let preferences = configuration.captionPreferences, let player = runtime.player else { return }
        let target: String?
        switch preferences.choice {
        case .off?:
            target = nil
        case .language(let language)?:
            guard let track = MediaTrackGroup(kind: .text, tracks: text).track(preferring: [language]) else { return }
            target = track.id
        case nil:
            return
        }
        // Asked once per target: the engine confirms a selection asynchronously, and until it does the
        // published selection still shows the stream's own.
        guard selected?.id != target, runtime.captionPreferenceRequested != .some(target) else { return }
        runtime.captionPreferenceRequested = .some(target)
        selectText(target, in: runtime, player: player, remember: false)
    }

    private static func mediaTrack(_ track: EngineTrack, kind: MediaTrack.Kind) -> MediaTrack {
        let title = track.title
        let accessibility = (title?.lowercased().contains("sdh") ?? false) || (title?.lowercased().contains("cc") ?? false)
        return MediaTrack(id: track.id, kind: kind, language: track.language, title: title, codec: track.codec, isAccessibility: accessibility)
    }

    private func startPlaying(_ runtime: SessionRuntime) {
        runtime.isPlaying = true
        let session = runtime.session
        if !runtime.hasPlayed {
            runtime.hasPlayed = true
            let position = runtime.player?.position ?? .zero
            let shown = reported(position, runtime)
            let passed = session.video.cuePoints.atOrAfter(.before, atOrBefore: shown)
            if !passed.isEmpty { emit(.cuePointsPassed(session, CuePointPassage(previousTime: .before, currentTime: shown, cuePoints: passed))) }
            runtime.lastReportedTime = position
        }
        emit(.lifecycle(session, .play))
        if let hooks = runtime.hooks {
            for event in hooks.playingChanged(true, at: runtime.player?.position ?? runtime.lastReportedTime) { emit(event) }
        }
        // Playback starts: hold it to the remembered caption choice (asked again if an earlier ask went unanswered).
        runtime.captionPreferenceRequested = nil
        applyCaptionPreference(runtime, text: session.textTrackGroup.tracks, selected: session.selectedTextTrack)
        if let held = runtime.heldFrame {
            runtime.heldFrame = nil
            // Paused in between: the viewer saw playback start now, not when the frame was prerolled.
            let wallTime = runtime.heldFrameIsStale ? clockNow() : held.wallTime
            runtime.heldFrameIsStale = false
            emit(.framePresented(session, FramePresentation(cause: held.cause, wallTime: wallTime)))
        }
        startTicker(runtime)
    }

    private func presentStartingFrame(_ frame: FramePresentation, in runtime: SessionRuntime) {
        if runtime.isPlaying {
            emit(.framePresented(runtime.session, frame))
        } else {
            runtime.heldFrame = frame
            runtime.heldFrameIsStale = false
        }
    }

    private func clockNow() -> Double { Date().timeIntervalSince1970 }

    private func stopPlaying(_ runtime: SessionRuntime) {
        runtime.isPlaying = false
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .pause))
        if let hooks = runtime.hooks {
            for event in hooks.playingChanged(false, at: runtime.player?.position ?? runtime.lastReportedTime) { emit(event) }
        }
    }

    // MARK: Plugin hooks

    /// The time the app sees for engine time `time`: the hooks' mapping (SSAI content time), or itself.
    private func reported(_ time: MediaTime, _ runtime: SessionRuntime) -> MediaTime {
        guard time.isFinite, let hooks = runtime.hooks else { return time }
        return hooks.reportedTime(forEngineTime: time)
    }

    private func reportedDuration(_ duration: MediaTime?, _ runtime: SessionRuntime) -> Duration? {
        guard let hooks = runtime.hooks else { return duration?.duration }
        return hooks.reportedDuration(forEngineDuration: duration)?.duration
    }

    /// Tells the hooks where the playhead is and reports what they answer.
    private func movePlayhead(_ runtime: SessionRuntime, to position: MediaTime, ended: Bool = false) {
        guard let hooks = runtime.hooks, position.isFinite else { return }
        let jumped = runtime.hooksPlayheadJumped
        runtime.hooksPlayheadJumped = false
        for event in hooks.playheadMoved(to: position, jumped: jumped, ended: ended) { emit(event) }
    }

    private func seekFinished(_ runtime: SessionRuntime, succeeded: Bool) {
        let session = runtime.session
        if !succeeded { runtime.awaitingSeekFrame = false }
        if succeeded, let position = runtime.player?.position {
            if runtime.hasPlayed {
                report(position: position, in: runtime)
            } else {
                runtime.lastReportedTime = position
                // The hooks learn where playback will start (an SSAI seek may land in a break).
                movePlayhead(runtime, to: position)
                emit(.progress(session, reported(position, runtime)))
            }
        }
        emit(.lifecycle(session, .likelyToKeepUp))
        if runtime.stalled {
            runtime.stalled = false
            if runtime.playRequested {
                emit(.lifecycle(session, .recovered))
                runtime.player?.play()
            }
        }
        if runtime.isPlaying { startTicker(runtime) }
        if runtime.endedDuringSeek {
            runtime.endedDuringSeek = false
            reachedEnd(runtime)
        }
    }

    /// Reports progress at `position`, with every cue point passed since the last report.
    /// Cue points at or before the resume high-water mark were reported before a resume and never repeat.
    private func report(position: MediaTime, in runtime: SessionRuntime) {
        let session = runtime.session
        movePlayhead(runtime, to: position)
        // Cue points and progress are in reported time (content time under SSAI, which stands still
        // during ads, so no cue point fires inside a break).
        let shown = reported(position, runtime)
        let previous = reported(max(runtime.lastReportedTime, runtime.cueHighWater), runtime)
        if shown > previous {
            let passed = session.video.cuePoints.after(previous, atOrBefore: shown)
            if !passed.isEmpty { emit(.cuePointsPassed(session, CuePointPassage(previousTime: previous, currentTime: shown, cuePoints: passed))) }
        }
        runtime.lastReportedTime = position
        if runtime.lastEmittedProgress != shown {
            runtime.lastEmittedProgress = shown
            emit(.progress(session, shown))
        }
        updateTextCues(runtime, at: position)
        watched(position, in: runtime)
        if let reset = runtime.retryResetPosition, position >= reset {
            // Playing well again: the failure episode is over.
            runtime.retryResetPosition = nil
            runtime.retryAttempts = 0
        }
        maybePreloadNext(after: runtime, at: position)
    }

    // MARK: Sidecar text

    /// Reports the selected sidecar track's cues at `position` when they differ from the last report,
    /// and wakes up again at the next cue boundary (scaled by the rate) rather than waiting for the
    /// next progress tick, so a cue shows and hides on time.
    private func updateTextCues(_ runtime: SessionRuntime, at position: MediaTime) {
        // The selected sidecar track, else the stream's own selected rendition with the cues it delivered.
        let sidecar = runtime.selectedSidecarID.flatMap { id in runtime.session.sidecarTextTracks.first { $0.mediaTrack.id == id } }
        let track: MediaTrack? = sidecar?.mediaTrack ?? runtime.session.selectedTextTrack
        let index: (any TimedTextCues)?
        if let sidecar {
            index = sidecar.cues  // nil while it loads
        } else {
            index = track == nil ? nil : runtime.streamCues
        }
        let cues = index?.cues(at: position) ?? []
        // A track switched away from reports its cues cleared; the new one reports its own.
        if let shown = runtime.reportedCueTrack, shown != track, !runtime.reportedCues.isEmpty {
            emit(.textCuesChanged(runtime.session, TextCueChange(track: shown, cues: [], position: position)))
            runtime.reportedCues = []
        }
        runtime.reportedCueTrack = track
        if let track, cues != runtime.reportedCues {
            runtime.reportedCues = cues
            emit(.textCuesChanged(runtime.session, TextCueChange(track: track, cues: cues, position: position)))
        }
        let rate = max(settings.rate, 0.1)
        let next = runtime.isPlaying ? index?.nextChange(after: position) : nil
        // Progress reports come several times a second: a wake-up already set for this boundary stands.
        if let next, runtime.cueTask != nil, runtime.cueWake?.boundary == next, runtime.cueWake?.rate == rate { return }
        runtime.cueTask?.cancel()
        runtime.cueTask = nil
        runtime.cueToken += 1
        runtime.cueWake = next.map { ($0, rate) }
        guard let next else { return }
        let wait = max(MediaTime(nanoseconds: Int64((Double((next.nanoseconds ?? 0) - (position.nanoseconds ?? 0)) / rate).rounded(.up))), MediaTime(nanoseconds: 5_000_000))
        guard let delay = wait.duration else { return }
        let token = runtime.cueToken
        runtime.cueTask = after(delay, send: .cueBoundary(sessionID: runtime.session.id, token: token))
    }

    // MARK: Buffer optimizer

    /// Counts natural playback (not seeks or rebuilds, which clear `lastWatchedPosition`) and grows the
    /// forward buffer with it.
    private func watched(_ position: MediaTime, in runtime: SessionRuntime) {
        if runtime.isPlaying, let last = runtime.lastWatchedPosition, position > last, let step = position.offset(from: last) {
            runtime.watched += step
        }
        runtime.lastWatchedPosition = runtime.isPlaying ? position : nil
        guard let target = settings.bufferOptimizer.target(afterWatching: runtime.watched) else {
            if runtime.appliedBufferTarget != nil {
                // The app switched the optimizer off: hand buffering back to the engine.
                runtime.appliedBufferTarget = nil
                runtime.player?.setForwardBufferDuration(nil)
            }
            return
        }
        // Whole-second steps keep engine calls rare; the cap itself is always reached exactly.
        if let applied = runtime.appliedBufferTarget, applied == target || (abs(MediaTime(target - applied).seconds) < 1 && target != settings.bufferOptimizer.maximum) { return }
        runtime.appliedBufferTarget = target
        runtime.player?.setForwardBufferDuration(target)
        emit(.forwardBufferChanged(runtime.session, target))
    }

    // MARK: Bitrate

    /// The engine's cap: the lower of the preferred peak bit rate and the resolution cap's bitrate.
    private func effectiveBitrateCap(_ runtime: SessionRuntime) -> Int? {
        let current = settings
        let resolutionCap = current.maximumResolution.flatMap { runtime.ladder.bitrateCap(maximumWidth: $0.width, maximumHeight: $0.height) }
        return [current.peakBitrate, resolutionCap].compactMap { $0 }.min()
    }

    private func applyBitrateCap(_ runtime: SessionRuntime, capChanged: Bool) {
        let cap = effectiveBitrateCap(runtime)
        guard cap != runtime.appliedBitrateCap else { return }
        runtime.appliedBitrateCap = cap
        if capChanged { runtime.capChangedSinceSwitch = true }
        runtime.player?.setMaxBitrate(cap)
    }

    private func variantChanged(_ runtime: SessionRuntime, bandwidth: Int, url: String) {
        guard runtime.activeVariant?.bandwidth != bandwidth else { return }
        let to = runtime.ladder.variant(bandwidth: bandwidth) ?? Variant(bandwidth: bandwidth, url: url)
        let from = runtime.activeVariant
        let reason: VariantChange.Reason
        if from == nil {
            reason = .initial
        } else if runtime.lowVariantSeekPending {
            reason = .seek
        } else if runtime.capChangedSinceSwitch, let from, runtime.appliedBitrateCap.map({ to.bandwidth <= $0 && from.bandwidth > $0 }) ?? (to.bandwidth > from.bandwidth) {
            reason = .cap
        } else {
            reason = .adaptive
        }
        runtime.lowVariantSeekPending = false
        runtime.capChangedSinceSwitch = false
        runtime.activeVariant = to
        emit(.variantChanged(runtime.session, VariantChange(from: from, to: to, reason: reason)))
    }

    private func handleBuffering(_ percent: Int, in runtime: SessionRuntime) {
        runtime.bufferingPercent = percent
        // Load and seek buffering are reported by their own BufferEmpty/LikelyToKeepUp pairs.
        guard runtime.phase == .ready, runtime.seekInFlight == nil, runtime.hasPlayed else { return }
        let session = runtime.session
        if percent == 0 && !runtime.stalled && runtime.playRequested {
            beginStall(runtime)
            if let failure = runtime.downloadFailure {
                retryOrFail(runtime, error: failure)
                return
            }
            runtime.player?.pause()
        } else if percent >= 100 && runtime.stalled {
            runtime.stalled = false
            emit(.lifecycle(session, .likelyToKeepUp))
            if runtime.playRequested {
                emit(.lifecycle(session, .recovered))
                runtime.player?.play()
                if runtime.isPlaying { startTicker(runtime) }
            }
        }
    }

    /// Normal playback ran out of data: report the stall and remember where it stopped.
    private func beginStall(_ runtime: SessionRuntime) {
        runtime.stalled = true
        runtime.resumePosition = runtime.player?.position ?? runtime.resumePosition
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .bufferEmpty))
        emit(.lifecycle(runtime.session, .stalled))
    }

    private func failedToPlayToEnd(_ runtime: SessionRuntime, error: PlaybackError) {
        guard !runtime.reportedFailedToPlayToEnd else { return }
        runtime.reportedFailedToPlayToEnd = true
        runtime.phase = .failed
        abandonBumper(in: runtime)
        stopTicker(runtime)
        if let seek = runtime.seekInFlight {
            runtime.seekInFlight = nil
            complete(seek, succeeded: false)
        }
        let failure = error.code == .failedToPlayToEnd ? error : PlaybackError(.failedToPlayToEnd, "Playback cannot continue: \(error.message)", url: error.url, httpStatus: error.httpStatus, underlying: error.underlying)
        emit(.lifecycle(runtime.session, .failedToPlayToEndTime(failure)))
        logger.error("playback failed mid-stream", metadata: ["session": "\(runtime.session.id)", "error": "\(failure)"])
        runtime.player?.pause()
        scheduleAutomaticResume(runtime, error: error)
    }

    private func reachedEnd(_ runtime: SessionRuntime) {
        let session = runtime.session
        stopTicker(runtime)
        if let seek = runtime.seekInFlight {
            runtime.seekInFlight = nil
            complete(seek, succeeded: false)
        }
        runtime.stalled = false
        runtime.awaitingSeekFrame = false
        let end = runtime.duration ?? runtime.player?.position ?? runtime.lastReportedTime
        // The plugin finishes what the end completes (a post-roll) before the content's last progress.
        movePlayhead(runtime, to: end, ended: true)
        if end > runtime.lastReportedTime || runtime.lastReportedTime == .before {
            emit(.progress(session, reported(end, runtime)))
        }
        let lastShown = reported(runtime.lastReportedTime, runtime)
        let passed = session.video.cuePoints.after(lastShown, atOrBefore: .after)
        if !passed.isEmpty { emit(.cuePointsPassed(session, CuePointPassage(previousTime: lastShown, currentTime: .after, cuePoints: passed))) }
        runtime.lastReportedTime = .after
        runtime.phase = .ended
        let wasPlaying = runtime.playRequested
        runtime.isPlaying = false
        runtime.playRequested = false
        runtime.player?.pause()
        emit(.lifecycle(session, .end))
        guard settings.autoAdvance else { return }
        let next = (index ?? 0) + 1
        if next < queue.count {
            terminateCurrent()
            advance(to: next, playRequested: settings.autoPlay || wasPlaying)
        } else {
            emit(.playlistCompleted(queue))
        }
    }

    // MARK: Retry and resume

    /// Schedules the next rebuild attempt for `error`; false when the policy says to give up.
    private func scheduleRetry(_ runtime: SessionRuntime, error: PlaybackError, kind: RetryAttempt.Kind) -> Bool {
        let policy = configuration.retryPolicy
        guard policy.isRetryable(error), runtime.retryAttempts < policy.maximumAttempts else { return false }
        runtime.retryAttempts += 1
        let delay = policy.delay(beforeAttempt: runtime.retryAttempts, random: configuration.random())
        emit(.retry(runtime.session, RetryAttempt(kind: kind, attempt: runtime.retryAttempts, maximumAttempts: policy.maximumAttempts, delay: delay, error: error)))
        logger.notice("retrying", metadata: ["session": "\(runtime.session.id)", "kind": "\(kind.rawValue)", "attempt": "\(runtime.retryAttempts)", "delay": "\(delay)"])
        arm(runtime, after: delay)
        return true
    }

    private func arm(_ runtime: SessionRuntime, after delay: Duration) {
        runtime.retryTask?.cancel()
        runtime.retryToken += 1
        runtime.retryTask = after(delay, send: .retryDue(sessionID: runtime.session.id, token: runtime.retryToken))
    }

    /// Feeds `input` back into the loop after `delay` on the controller's clock, unless cancelled first.
    private func after(_ delay: Duration, send input: ControllerInput) -> Task<Void, Never> {
        let clock = configuration.clock
        let send = self.send
        return Task {
            do { try await clock.sleep(for: delay) } catch { return }
            send(input)
        }
    }

    private func disarm(_ runtime: SessionRuntime) {
        runtime.retryTask?.cancel()
        runtime.retryTask = nil
        runtime.retryToken += 1
    }

    /// Playback cannot continue on this pipeline: retry when the policy allows, else give up.
    private func retryOrFail(_ runtime: SessionRuntime, error: PlaybackError) {
        guard runtime.rebuilding == nil else { return }
        if scheduleRetry(runtime, error: error, kind: .playback) {
            runtime.rebuilding = .retry(.playback)
            if !runtime.stalled && runtime.playRequested && runtime.hasPlayed {
                // The pipeline died while playing: to the viewer that is a stall until a retry recovers it.
                beginStall(runtime)
            }
            runtime.player?.pause()
            return
        }
        failedToPlayToEnd(runtime, error: error)
    }

    private func performScheduledRetry(_ runtime: SessionRuntime) {
        switch runtime.rebuilding {
        case .retry(.load):
            rebuild(runtime, at: runtime.openingSeek?.target, playWhenReady: runtime.playRequested)
        case .retry:
            rebuild(runtime, at: runtime.resumePosition ?? runtime.lastReportedTime, playWhenReady: runtime.playRequested)
        case .seek:
            break
        case .resume, nil:
            // An automatic resume is due after FailedToPlayToEndTime.
            guard runtime.phase == .failed, runtime.reportedFailedToPlayToEnd else { return }
            resume(at: runtime.resumePosition ?? runtime.lastReportedTime, autoPlay: runtime.playRequested, automatic: true)
        }
    }

    /// Replaces the session's pipeline with a fresh one loading at `position` (reset + seek: a bare seek
    /// on a pipeline whose downloads died restarts them but jumps ahead, see the engine notes).
    private func rebuild(_ runtime: SessionRuntime, at position: MediaTime?, playWhenReady: Bool) {
        guard let url = runtime.playbackURL else { return }
        runtime.eventTask?.cancel()
        runtime.player?.close()
        if let held = runtime.heldFrame {
            // The dead pipeline's frame never played: the new pipeline's first frame stands in for it.
            runtime.heldFrame = nil
            if held.cause == .start { runtime.reportedFirstFrame = false }
        }
        let start = position.flatMap { $0.isFinite && $0 > .zero ? $0 : nil }
        let configuration = engineConfiguration(url: url, startPosition: start, forwardBuffer: runtime.appliedBufferTarget, maxBitrate: runtime.appliedBitrateCap)
        let player: any EnginePlayer
        do {
            player = try engine.makePlayer(configuration: configuration)
        } catch {
            handleRebuildFailure(runtime, error: error)
            return
        }
        runtime.replacePlayer(player)
        runtime.hooksPlayheadJumped = true
        runtime.phase = .loading
        runtime.engineRunning = false
        runtime.downloadFailure = nil
        runtime.lastWatchedPosition = nil
        runtime.bufferingPercent = nil
        listen(to: player, in: runtime)
        player.load(playWhenReady: playWhenReady)
    }

    private func handleRebuildFailure(_ runtime: SessionRuntime, error: PlaybackError) {
        if let rebuild = runtime.rebuilding, runtime.reportedReady {
            rebuildFailed(runtime, error: error, after: rebuild)
        } else {
            runtime.rebuilding = nil
            runtime.phase = .failed
            emit(.lifecycle(runtime.session, .fail(error)))
        }
    }

    /// A rebuilt pipeline is ready at the resume position: carry on without repeating Ready.
    private func rebuilt(_ runtime: SessionRuntime, info: EngineMediaInfo, after rebuild: SessionRuntime.Rebuild) {
        let session = runtime.session
        if rebuild == .seek {
            runtime.rebuilding = nil
            runtime.phase = .ready
            runtime.seekableRanges = info.seekableRanges
            if let request = runtime.seekInFlight {
                runtime.seekInFlight = nil
                complete(request, succeeded: true)
            }
            seekFinished(runtime, succeeded: true)
            if runtime.playRequested && !runtime.isPlaying && runtime.engineRunning { startPlaying(runtime) }
            return
        }
        runtime.rebuilding = nil
        runtime.phase = .ready
        runtime.reportedFailedToPlayToEnd = false
        runtime.downloadFailure = nil
        runtime.automaticResumeAttempts = 0
        runtime.seekableRanges = info.seekableRanges
        let position = runtime.player?.position ?? runtime.resumePosition ?? .zero
        // Retries start from 1 again once playback has run a few seconds past the failure.
        runtime.retryResetPosition = position.advanced(by: .seconds(5))
        if info.duration != runtime.duration {
            runtime.duration = info.duration
            emit(.durationChanged(session, reportedDuration(info.duration, runtime)))
        }
        if case .resume(let autoPlay, _) = rebuild {
            runtime.playRequested = autoPlay
            emit(.lifecycle(session, .resumeComplete))
        }
        runtime.awaitingResumeFrame = true
        report(position: position, in: runtime)
        if runtime.stalled {
            runtime.stalled = false
            emit(.lifecycle(session, .likelyToKeepUp))
            if runtime.playRequested { emit(.lifecycle(session, .recovered)) }
        }
        if runtime.playRequested {
            if runtime.isPlaying { startTicker(runtime) } else if runtime.engineRunning { startPlaying(runtime) }
        } else if runtime.isPlaying {
            stopPlaying(runtime)
        }
    }

    /// A rebuilt pipeline could not load either.
    private func rebuildFailed(_ runtime: SessionRuntime, error: PlaybackError, after rebuild: SessionRuntime.Rebuild) {
        runtime.player?.close()
        switch rebuild {
        case .seek:
            if let request = runtime.seekInFlight {
                runtime.seekInFlight = nil
                complete(request, succeeded: false)
            }
            runtime.rebuilding = nil
            runtime.phase = .ready
            retryOrFail(runtime, error: error)
        case .retry(let kind):
            if scheduleRetry(runtime, error: error, kind: kind) { return }
            runtime.rebuilding = nil
            runtime.phase = .ready
            failedToPlayToEnd(runtime, error: error)
        case .resume(_, let automatic):
            runtime.rebuilding = nil
            runtime.phase = .failed
            emit(.lifecycle(runtime.session, .resumeFail(PlaybackError(error.code, "Resuming failed: \(error.message); call resumeVideo(at:autoPlay:) again once the network is back", url: error.url, httpStatus: error.httpStatus, underlying: error.underlying))))
            if automatic { scheduleAutomaticResume(runtime, error: error) }
        }
    }

    /// `resumeVideo(at:autoPlay:)`, from the app or from the automatic-resume policy.
    private func resume(at time: MediaTime, autoPlay: Bool, automatic: Bool) {
        guard let runtime = current, runtime.playbackURL != nil else {
            logger.warning("resumeVideo(at:autoPlay:) ignored: there is no session to resume")
            return
        }
        if case .resume = runtime.rebuilding {
            emit(.lifecycle(runtime.session, .error(PlaybackError(.invalidState, "resumeVideo(at:autoPlay:) is already running; wait for ResumeComplete or ResumeFail before calling it again"))))
            return
        }
        guard runtime.bumper == nil else {
            emit(.lifecycle(runtime.session, .error(PlaybackError(.invalidState, "resumeVideo(at:autoPlay:) is not possible while the bumper plays"))))
            return
        }
        disarm(runtime)
        for seek in [runtime.queuedSeek, runtime.seekInFlight, runtime.openingSeek].compactMap({ $0 }) { complete(seek, succeeded: false) }
        runtime.queuedSeek = nil
        runtime.seekInFlight = nil
        runtime.openingSeek = nil
        runtime.endedDuringSeek = false
        runtime.cueHighWater = max(runtime.cueHighWater, runtime.lastReportedTime)
        // The app passes a time it was shown (content time under SSAI); automatic resumes pass engine time.
        let time = automatic || !time.isFinite ? time : (runtime.hooks?.engineTime(forReportedTime: time) ?? time)
        runtime.resumePosition = time
        runtime.rebuilding = .resume(autoPlay: autoPlay, automatic: automatic)
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .resumeBegin))
        if !runtime.reportedReady {
            // Never loaded: a resume is a fresh load at the time.
            runtime.rebuilding = nil
            runtime.playRequested = autoPlay
        }
        rebuild(runtime, at: time, playWhenReady: autoPlay)
    }

    /// After giving up, probe for the network's return when the policy asks for it.
    private func scheduleAutomaticResume(_ runtime: SessionRuntime, error: PlaybackError) {
        guard let automatic = configuration.retryPolicy.automaticResume, configuration.retryPolicy.isRetryable(error) else { return }
        if let limit = automatic.maximumAttempts, runtime.automaticResumeAttempts >= limit { return }
        runtime.automaticResumeAttempts += 1
        emit(.retry(runtime.session, RetryAttempt(kind: .automaticResume, attempt: runtime.automaticResumeAttempts, maximumAttempts: automatic.maximumAttempts, delay: automatic.interval, error: error)))
        arm(runtime, after: automatic.interval)
    }

    // MARK: Preloading

    /// Starts preparing the next video once the current one passed the provider's preloading threshold.
    private func maybePreloadNext(after runtime: SessionRuntime, at position: MediaTime) {
        guard !runtime.preloadStarted, preloaded == nil, runtime.bumper == nil, let index, index + 1 < queue.count else { return }
        guard provider.sessionPreloadingPolicy.shouldPreload(position: position, duration: runtime.duration) else { return }
        runtime.preloadStarted = true
        preparationCounter += 1
        let id = preparationCounter
        let video = queue[index + 1]
        guard bumperPlayedInQueue || (video.bumper == nil && carriedBumper == nil) else { return }
        preloaded = Preloaded(preparationID: id, index: index + 1, video: video)
        let provider = self.provider
        let context = SessionPreparationContext(logger: logger)
        let send = self.send
        logger.debug("preloading the next video", metadata: ["index": "\(index + 1)"])
        Task {
            let plan = await Self.plan(video, provider: provider, context: context)
            send(.preloadPrepared(preparationID: id, plan))
        }
    }

    /// The next video's plan arrived: build its player and, when nothing is visible, preroll it paused.
    private func startPreload(_ result: Result<SessionPlan, PlaybackError>) {
        guard case .success(let plan) = result else { return }
        let configuration = newSessionConfiguration(url: plan.playbackURL, startPosition: nil)
        let player: any EnginePlayer
        do {
            player = try engine.makePlayer(configuration: configuration)
        } catch {
            // The next video is then built the usual way when its turn comes, and fails there.
            return
        }
        let session = PlaybackSession(
            id: nextSessionID(), video: plan.video, source: plan.source, player: player, providerExtension: plan.providerExtension,
            sidecarTextTracks: plan.sidecarTextTracks, thumbnailSource: plan.thumbnailSource, thumbnailSeekingEnabled: thumbnailSwitch, send: send
        )
        let runtime = SessionRuntime(session: session, player: player, configuration: configuration)
        runtime.hooks = plan.hooks
        preloaded?.runtime = runtime
        listen(to: player, in: runtime)
        if configuration.videoOutput == .headless {
            player.load(playWhenReady: false)
        } else {
            // A visible output would open a second window: only the preparation is done ahead of time.
            runtime.contentLoadDeferred = true
        }
    }

    private func discardPreload() {
        guard let next = preloaded else { return }
        preloaded = nil
        if let runtime = next.runtime {
            runtime.eventTask?.cancel()
            runtime.player?.close()
        }
    }

    /// Moves to the video at `position`, taking over its preloaded session when there is one.
    private func advance(to position: Int, playRequested: Bool) {
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
            runtime.playRequested = true
            runtime.awaitingTransitionFrame = true
            emit(.lifecycle(runtime.session, .playRequest))
        }
        emit(.lifecycle(runtime.session, .bufferEmpty))
        if runtime.contentLoadDeferred {
            runtime.contentLoadDeferred = false
            runtime.player?.load(playWhenReady: playRequested)
        } else if playRequested {
            runtime.player?.play()
        }
        let events = runtime.pendingEvents
        runtime.pendingEvents = []
        for event in events where current === runtime { handle(event, in: runtime) }
    }

    // MARK: Ticker

    private func startTicker(_ runtime: SessionRuntime) {
        runtime.tickTask?.cancel()
        runtime.tickToken += 1
        let token = runtime.tickToken
        let sessionID = runtime.session.id
        let clock = configuration.clock
        let interval = configuration.progressInterval
        let send = self.send
        runtime.tickTask = Task {
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                send(.tick(sessionID: sessionID, token: token))
            }
        }
    }

    private func stopTicker(_ runtime: SessionRuntime) {
        runtime.tickTask?.cancel()
        runtime.tickTask = nil
        runtime.tickToken += 1
    }

    private func emit(_ event: PlaybackEvent) {
        dispatcher.emit(event)
    }
}

extension Optional where Wrapped == Video {
    /// The bumper's plan, or nil when there is no bumper.
    fileprivate func asyncPlan(provider: any PlaybackSessionProvider, context: SessionPreparationContext) async -> Result<SessionPlan, PlaybackError>? {
        guard let video = self else { return nil }
        return await LoopState.plan(video, provider: provider, context: context)
    }
}
