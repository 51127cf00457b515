import Foundation
import Logging

/// Keeping playback going: the forward-buffer optimizer, bitrate caps and variant switches,
/// buffering stalls, failures and the end, and retry, rebuild and resume.
///
/// Separate because it is the recovery and tuning policy of a playing session, apart from the
/// event plumbing that triggers it.
extension LoopState {
    // MARK: Buffer optimizer

    /// Counts natural playback (not seeks or rebuilds, which clear `lastWatchedPosition`) and grows the
    /// forward buffer with it.
    func watched(_ position: MediaTime, in runtime: SessionRuntime) {
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

    func applyBitrateCap(_ runtime: SessionRuntime, capChanged: Bool) {
        let cap = effectiveBitrateCap(runtime)
        guard cap != runtime.appliedBitrateCap else { return }
        runtime.appliedBitrateCap = cap
        if capChanged { runtime.capChangedSinceSwitch = true }
        runtime.player?.setMaxBitrate(cap)
    }

    func variantChanged(_ runtime: SessionRuntime, bandwidth: Int, url: String) {
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

    func handleBuffering(_ percent: Int, in runtime: SessionRuntime) {
        // Load and seek buffering are reported by their own BufferEmpty/LikelyToKeepUp pairs.
        let counts = runtime.phase == .ready && runtime.seekInFlight == nil && runtime.hasPlayed
        let session = runtime.session
        switch runtime.stall.handle(.buffering(percent, counts: counts, wanted: runtime.playRequested)) {
        case .stalled(let failure):
            reportStall(runtime)
            if let failure {
                retryOrFail(runtime, error: failure)
                return
            }
            runtime.player?.pause()
        case .recovered:
            emit(.lifecycle(session, .likelyToKeepUp))
            if runtime.playRequested {
                emit(.lifecycle(session, .recovered))
                runtime.player?.play()
                if runtime.isPlaying { startTicker(runtime) }
            }
        case .downloadFailed, nil:
            break
        }
    }

    /// Normal playback ran out of data: report the stall and remember where it stopped.
    private func reportStall(_ runtime: SessionRuntime) {
        runtime.resumePosition = runtime.player?.position ?? runtime.resumePosition
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .bufferEmpty))
        emit(.lifecycle(runtime.session, .stalled))
    }

    /// A plugin stopped the session for good (a refusal, not a fault): the engine closes, pending seeks
    /// fail, and `Fail` is reported once; nothing retries, resumes or advances.
    func stopRefused(_ runtime: SessionRuntime, error: PlaybackError) {
        guard runtime.phase != .failed else { return }
        runtime.phase = .failed
        runtime.playRequested = false
        runtime.isPlaying = false
        // No retry or automatic resume may reopen a refused stream.
        disarm(runtime)
        runtime.rebuilding = nil
        runtime.eventTask?.cancel()
        runtime.eventTask = nil
        abandonBumper(in: runtime)
        stopTicker(runtime)
        for seek in [runtime.seekInFlight, runtime.queuedSeek, runtime.openingSeek].compactMap({ $0 }) { complete(seek, succeeded: false) }
        runtime.seekInFlight = nil
        runtime.queuedSeek = nil
        runtime.openingSeek = nil
        runtime.player?.pause()
        runtime.player?.close()
        emit(.lifecycle(runtime.session, .fail(error)))
        logger.error("session stopped by a plugin", metadata: ["session": "\(runtime.session.id)", "error": "\(error)"])
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
        let failure = error.code == .failedToPlayToEnd ? error : PlaybackError(.failedToPlayToEnd, "Playback cannot continue: \(error.message)", url: error.url, httpStatus: error.httpStatus, cause: .playback(error))
        emit(.lifecycle(runtime.session, .failedToPlayToEndTime(failure)))
        logger.error("playback failed mid-stream", metadata: ["session": "\(runtime.session.id)", "error": "\(failure)"])
        runtime.player?.pause()
        scheduleAutomaticResume(runtime, error: error)
    }

    func reachedEnd(_ runtime: SessionRuntime) {
        let session = runtime.session
        stopTicker(runtime)
        if let seek = runtime.seekInFlight {
            runtime.seekInFlight = nil
            complete(seek, succeeded: false)
        }
        _ = runtime.stall.handle(.reachedEnd)
        _ = runtime.frames.handle(.seekAbandoned)
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
    func scheduleRetry(_ runtime: SessionRuntime, error: PlaybackError, kind: RetryAttempt.Kind) -> Bool {
        let policy = configuration.retryPolicy
        guard policy.isRetryable(error), runtime.retryAttempts < policy.maximumAttempts else { return false }
        runtime.retryAttempts += 1
        let delay = policy.delay(beforeAttempt: runtime.retryAttempts, random: configuration.random())
        emit(.retry(runtime.session, RetryAttempt(kind: kind, attempt: runtime.retryAttempts, maximumAttempts: policy.maximumAttempts, delay: delay, error: error)))
        logger.notice("retrying", metadata: ["session": "\(runtime.session.id)", "kind": "\(kind.rawValue)", "attempt": "\(runtime.retryAttempts)", "delay": "\(delay)"])
        arm(.retry, in: runtime, after: delay)
        return true
    }

    func disarm(_ runtime: SessionRuntime) {
        runtime.timers.cancel(.retry)
    }

    /// Playback cannot continue on this pipeline: retry when the policy allows, else give up.
    func retryOrFail(_ runtime: SessionRuntime, error: PlaybackError) {
        guard runtime.rebuilding == nil else { return }
        if scheduleRetry(runtime, error: error, kind: .playback) {
            runtime.rebuilding = .retry(.playback)
            // The pipeline died while playing: to the viewer that is a stall until a retry recovers it.
            if case .stalled = runtime.stall.handle(.pipelineDied(wanted: runtime.playRequested && runtime.hasPlayed)) { reportStall(runtime) }
            runtime.player?.pause()
            return
        }
        failedToPlayToEnd(runtime, error: error)
    }

    func performScheduledRetry(_ runtime: SessionRuntime) {
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
    func rebuild(_ runtime: SessionRuntime, at position: MediaTime?, playWhenReady: Bool) {
        guard let url = runtime.playbackURL else { return }
        runtime.eventTask?.cancel()
        runtime.player?.close()
        _ = runtime.frames.handle(.pipelineReplaced)
        let start = position.flatMap { $0.isFinite && $0 > .zero ? $0 : nil }
        let configuration = engineConfiguration(url: url, rights: runtime.session.video.playbackRights, startPosition: start, forwardBuffer: runtime.appliedBufferTarget, maxBitrate: runtime.appliedBitrateCap, volume: effectiveVolume(of: runtime), inAdBreak: runtime.playingAdBreak)
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
        _ = runtime.stall.handle(.pipelineReplaced)
        runtime.lastWatchedPosition = nil
        listen(to: player, in: runtime)
        // The captions on screen when the old pipeline went stay on the new one's picture.
        if self.configuration.captionsOnPicture, !runtime.reportedCues.isEmpty { player.showCaptions(runtime.reportedCues) }
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
    func rebuilt(_ runtime: SessionRuntime, info: EngineMediaInfo, after rebuild: SessionRuntime.Rebuild) {
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
        _ = runtime.frames.handle(.rebuiltPipelineLoaded)
        report(position: position, in: runtime)
        if runtime.stall.handle(.rebuiltPipelineLoaded) == .recovered {
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
    func rebuildFailed(_ runtime: SessionRuntime, error: PlaybackError, after rebuild: SessionRuntime.Rebuild) {
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
            emit(.lifecycle(runtime.session, .resumeFail(PlaybackError(error.code, "Resuming failed: \(error.message); call resumeVideo(at:autoPlay:) again once the network is back", url: error.url, httpStatus: error.httpStatus, cause: .playback(error)))))
            if automatic { scheduleAutomaticResume(runtime, error: error) }
        }
    }

    /// `resumeVideo(at:autoPlay:)`, from the app or from the automatic-resume policy.
    func resume(at time: MediaTime, autoPlay: Bool, automatic: Bool) {
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
        arm(.retry, in: runtime, after: automatic.interval)
    }
}
