import Foundation
import Logging

/// Seeks (`SeekTracker`): asking the hooks, queueing while loading, seeking in place or by rebuilding the
/// pipeline at a low variant, answering every request once, and what follows a finished seek.
extension LoopState {
    typealias PendingSeek = SessionRuntime.PendingSeek

    func nextSeekID() -> Int {
        seekCounter += 1
        return seekCounter
    }

    func reject(_ completion: (@Sendable (Bool) -> Void)?) {
        guard let completion else { return }
        dispatcher.enqueue(.callback { completion(false) })
    }

    func seek(to target: MediaTime, tolerance: SeekTolerance, completion: (@Sendable (Bool) -> Void)?, askingHooks: Bool = true) {
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
            track(.requestedWhileLoading(request), in: runtime)
            return
        }
        if runtime.phase == .ended { runtime.phase = .ready }
        performSeek(in: runtime, request)
    }

    func performSeek(in runtime: SessionRuntime, _ request: PendingSeek) {
        if shouldSeekByRebuilding(runtime, to: request.target) {
            seekByRebuilding(runtime, request)
            return
        }
        begin(request, in: runtime, byRebuilding: false)
        runtime.player?.seek(to: request.target, tolerance: request.tolerance, id: request.id)
    }

    /// What every seek starts with, in place or by rebuilding: it becomes the one in flight, the next frame is
    /// its frame, watching and cue points start over from the target, and the buffer is empty until it lands.
    private func begin(_ request: PendingSeek, in runtime: SessionRuntime, byRebuilding: Bool) {
        track(.sent(request), in: runtime)
        _ = runtime.frames.handle(.seekIssued)
        runtime.lastWatchedPosition = nil
        runtime.cueHighWater = .before
        _ = runtime.hooksState.handle(.playheadJumped)
        runtime.variantAttribution.handle(.seekSent(byRebuilding: byRebuilding))
        if byRebuilding {
            runtime.resumePosition = request.target
            runtime.rebuilding = .seek
        }
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .bufferEmpty))
    }

    /// An engine that does not choose a seek's variant fetches its first segment at the variant it is on:
    /// at 720p that is a whole large segment before the first frame. A fresh pipeline opened at the target
    /// starts on the lowest variant instead (Cove's start policy) and climbs from there — a few
    /// round trips instead of a big download. Only for targets outside the buffer, on a ladder, when
    /// not already at the lowest variant.
    private func shouldSeekByRebuilding(_ runtime: SessionRuntime, to target: MediaTime) -> Bool {
        guard configuration.startPolicy.lowVariantSeeks, configuration.startPolicy.startsOnLowestVariant, runtime.phase == .ready, runtime.rebuilding == nil,
            let lowest = runtime.ladder.lowest, let active = runtime.activeVariant, active.bandwidth > lowest.bandwidth,
            let player = runtime.player, !player.choosesSeekVariant, let position = player.position, position.isFinite, target.isFinite
        else { return false }
        let status = player.status
        // Worth it only when fetching a segment at the current variant is slow: at loopback speeds a
        // rebuild costs more than the download it saves. (~2 s segments assumed.)
        guard let estimate = status.bandwidthEstimate, estimate > 0, Double(active.bandwidth) * 2 / Double(estimate) > 0.3 else { return false }
        let bufferedEnd = position.advanced(by: status.bufferedAhead ?? .zero)
        return target < position || target > bufferedEnd
    }

    private func seekByRebuilding(_ runtime: SessionRuntime, _ request: PendingSeek) {
        begin(request, in: runtime, byRebuilding: true)
        rebuild(runtime, at: request.target, playWhenReady: runtime.intent.isRequested)
    }

    /// Feeds the session's seek tracker and delivers the answers it returns.
    @discardableResult
    func track(_ event: SeekTracker.Event, in runtime: SessionRuntime) -> SeekTracker.Effects {
        let effects = runtime.seeks.handle(event)
        for (seek, succeeded) in effects.answers { complete(seek, succeeded: succeeded) }
        return effects
    }

    func complete(_ seek: PendingSeek, succeeded: Bool) {
        guard let completion = seek.completion else { return }
        dispatcher.enqueue(.callback { completion(succeeded) })
    }

    func seekFinished(_ runtime: SessionRuntime, succeeded: Bool) {
        let session = runtime.session
        if !succeeded { _ = runtime.frames.handle(.seekAbandoned) }
        if succeeded, let position = runtime.player?.position {
            if runtime.intent.hasPlayed {
                report(position: position, in: runtime)
            } else {
                runtime.lastReportedTime = position
                // The hooks learn where playback will start (an SSAI seek may land in a break).
                movePlayhead(runtime, to: position)
                emit(.progress(session, reported(position, runtime)))
            }
        }
        emit(.lifecycle(session, .likelyToKeepUp))
        if watchStall(.seekFinished, in: runtime) == .recovered {
            if runtime.intent.isRequested {
                emit(.lifecycle(session, .recovered))
                runtime.player?.play()
            }
        }
        if runtime.intent.isPlaying { startTicker(runtime) }
        if track(.seekHandled, in: runtime).endReached { reachedEnd(runtime) }
    }
}
