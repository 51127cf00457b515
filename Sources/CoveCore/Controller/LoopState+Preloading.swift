import Foundation
import Logging

/// Preloading: preparing (and, headless, prerolling) the next video while the current one plays.
///
/// Separate because it works on the next session rather than the current one;
/// `advance(to:playRequested:)` (Sessions) takes a preloaded session over.
extension LoopState {
    // MARK: Preloading

    /// Starts preparing the next video once the current one passed the provider's preloading threshold.
    func maybePreloadNext(after runtime: SessionRuntime, at position: MediaTime) {
        guard !runtime.milestones.has(.preloadStarted), preloaded == nil, runtime.bumper == nil, let index, index + 1 < queue.count else { return }
        guard provider.sessionPreloadingPolicy.shouldPreload(position: position, duration: runtime.duration) else { return }
        _ = runtime.milestones.reach(.preloadStarted)
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
    func startPreload(_ result: Result<SessionPlan, PlaybackError>) {
        guard case .success(let plan) = result else { return }
        let configuration = newSessionConfiguration(url: plan.playbackURL, rights: plan.video.playbackRights, startPosition: nil, source: plan.source)
        let player: any EnginePlayer
        do {
            player = try engine.makePlayer(configuration: configuration)
            applyShutter(to: player)
        } catch {
            // The next video is then built the usual way when its turn comes, and fails there.
            return
        }
        let session = PlaybackSession(
            id: nextSessionID(), video: plan.video, source: plan.source, player: player, providerExtension: plan.providerExtension,
            sidecarTextTracks: plan.sidecarTextTracks, thumbnailSource: thumbnailSource(for: plan), thumbnailSeekingEnabled: thumbnailSwitch, send: send
        )
        let runtime = SessionRuntime(session: session, player: player, configuration: configuration)
        runtime.hooks = plan.hooks
        preloaded?.runtime = runtime
        listen(to: player, in: runtime)
        if configuration.videoOutput == .headless {
            player.load(playWhenReady: false)
        } else {
            // A visible output would open a second window: only the preparation is done ahead of time.
            _ = runtime.intent.handle(.loadDeferred)
        }
    }

    func discardPreload() {
        guard let next = preloaded else { return }
        preloaded = nil
        if let runtime = next.runtime {
            runtime.timers.cancelAll()
            runtime.eventTask?.cancel()
            runtime.player?.close()
        }
    }
}
