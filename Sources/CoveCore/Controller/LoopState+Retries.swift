import Foundation
import Logging

/// Recovering from failures (`RetryBudget`, the `.retry` timer): scheduled rebuilds of the pipeline,
/// rebuilds for seeks and `resumeVideo(at:autoPlay:)`, and automatic-resume probes after giving up.
extension LoopState {
    /// Schedules the next rebuild attempt for `error`; false when the policy says to give up.
    func scheduleRetry(_ runtime: SessionRuntime, error: PlaybackError, kind: RetryAttempt.Kind) -> Bool {
        guard
            case .retry(let attempt, let maximum, let delay) = runtime.retries.handle(
                .failed(error, policy: configuration.retryPolicy, random: configuration.random()))
        else {
            return false
        }
        emit(.retry(runtime.session, RetryAttempt(kind: kind, attempt: attempt, maximumAttempts: maximum, delay: delay, error: error)))
        logger.notice("retrying", metadata: ["session": "\(runtime.session.id)", "kind": "\(kind.rawValue)", "attempt": "\(attempt)", "delay": "\(delay)"])
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
            if case .stalled = watchStall(.pipelineDied(wanted: runtime.intent.isRequested && runtime.intent.hasPlayed), in: runtime) { reportStall(runtime) }
            runtime.player?.pause()
            return
        }
        failedToPlayToEnd(runtime, error: error)
    }

    func performScheduledRetry(_ runtime: SessionRuntime) {
        switch runtime.rebuilding {
        case .retry(.load):
            rebuild(runtime, at: runtime.seeks.opening?.target, playWhenReady: runtime.intent.isRequested)
        case .retry:
            // A seek the dead pipeline never finished goes to the new one: it opens at the seek's target.
            let position = runtime.seeks.inFlight?.target ?? runtime.resumePosition ?? runtime.lastReportedTime
            rebuild(runtime, at: position, playWhenReady: runtime.intent.isRequested)
        case .seek:
            break
        case .resume, nil:
            // An automatic resume is due after FailedToPlayToEndTime.
            guard runtime.phase == .failed, runtime.milestones.has(.failedToPlayToEndReported) else { return }
            resume(at: runtime.resumePosition ?? runtime.lastReportedTime, autoPlay: runtime.intent.isRequested, automatic: true)
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
        runtime.rebuildStart = position.flatMap { $0.isFinite ? max($0, .zero) : nil }
        let configuration = engineConfiguration(
            url: url, rights: runtime.session.video.playbackRights, startPosition: start, forwardBuffer: runtime.appliedBufferTarget,
            maxBitrate: runtime.appliedBitrateCap, volume: effectiveVolume(of: runtime), inAdBreak: runtime.hooksState.inAdBreak,
            source: runtime.session.source)
        let player: any EnginePlayer
        do {
            player = try engine.makePlayer(configuration: configuration)
            applyShutter(to: player)
        } catch {
            handleRebuildFailure(runtime, error: error)
            return
        }
        runtime.replacePlayer(player)
        _ = runtime.hooksState.handle(.playheadJumped)
        runtime.phase = .loading
        _ = runtime.intent.handle(.pipelineReplaced)
        watchStall(.pipelineReplaced, in: runtime)
        runtime.lastWatchedPosition = nil
        listen(to: player, in: runtime)
        // The captions on screen when the old pipeline went stay on the new one's picture.
        if self.configuration.captionsOnPicture, !runtime.reportedCues.isEmpty { player.showCaptions(runtime.reportedCues) }
        player.load(playWhenReady: playWhenReady)
    }

    private func handleRebuildFailure(_ runtime: SessionRuntime, error: PlaybackError) {
        if let rebuild = runtime.rebuilding, runtime.milestones.has(.readyReported) {
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
            runtime.rebuildStart = nil
            runtime.phase = .ready
            runtime.seekableRanges = info.seekableRanges
            track(.inFlightEnded(succeeded: true), in: runtime)
            seekFinished(runtime, succeeded: true)
            apply(runtime.intent.handle(.loaded), in: runtime)
            performSeekAskedWhileRebuilding(runtime)
            return
        }
        runtime.rebuilding = nil
        runtime.phase = .ready
        runtime.milestones.rebuiltPipelineLoaded()
        runtime.seekableRanges = info.seekableRanges
        let position = Self.loadedPosition(engine: runtime.player?.position, start: runtime.rebuildStart) ?? runtime.resumePosition ?? runtime.lastReportedTime
        runtime.rebuildStart = nil
        // Retries start from 1 again once playback has run a few seconds past the failure.
        _ = runtime.retries.handle(.loaded(at: position))
        if info.duration != runtime.duration {
            runtime.duration = info.duration
            emit(.durationChanged(session, reportedDuration(info.duration, runtime)))
        }
        if case .resume = rebuild { emit(.lifecycle(session, .resumeComplete)) }
        _ = runtime.frames.handle(.rebuiltPipelineLoaded)
        // A retry's pipeline opened at the target of a seek in flight when the old one died: that seek landed.
        if case .retry = rebuild { track(.inFlightEnded(succeeded: true), in: runtime) }
        report(position: position, in: runtime)
        if watchStall(.rebuiltPipelineLoaded, in: runtime) == .recovered {
            emit(.lifecycle(session, .likelyToKeepUp))
            if runtime.intent.isRequested { emit(.lifecycle(session, .recovered)) }
        }
        apply(runtime.intent.handle(.rebuiltPipelineLoaded), in: runtime)
        // Wanted but loaded without playing (a play asked while a resume without autoPlay loaded, or while
        // a stall held it): the engine starts now, and its clock starting reports Play.
        if runtime.intent.isRequested, !runtime.intent.isEngineRunning, runtime.bumper == nil { runtime.player?.play() }
        performSeekAskedWhileRebuilding(runtime)
    }

    /// Where a rebuilt pipeline that just loaded is, as Media3 masks a seek's position until the engine
    /// reports one: the engine's position when it knows one, else where the pipeline was asked to start.
    /// A zero from a pipeline asked to start well into the media is its position query answering before
    /// any buffer reached the sinks (GStreamer's, on a pipeline that prerolled with one input waiting),
    /// not a position: it was reported as a seek's landing at 0.000 s (issue 33's chaos run).
    static func loadedPosition(engine: MediaTime?, start: MediaTime?) -> MediaTime? {
        guard let start else { return engine }
        guard let engine, !(engine == .zero && start > .seconds(1)) else { return start }
        return engine
    }

    /// A seek asked while a rebuilt pipeline loaded (for a resume, a retry or another seek) waited in the
    /// tracker's queue, as one asked before Ready does: it goes now. (It used to stay there, never performed
    /// and never answered, until the session ended.)
    private func performSeekAskedWhileRebuilding(_ runtime: SessionRuntime) {
        guard runtime.phase == .ready || runtime.phase == .ended, let queued = track(.ready, in: runtime).perform else { return }
        if runtime.phase == .ended { runtime.phase = .ready }
        performSeek(in: runtime, queued)
    }

    /// A rebuilt pipeline could not load either.
    func rebuildFailed(_ runtime: SessionRuntime, error: PlaybackError, after rebuild: SessionRuntime.Rebuild) {
        runtime.player?.close()
        switch rebuild {
        case .seek:
            track(.inFlightEnded(succeeded: false), in: runtime)
            runtime.rebuilding = nil
            runtime.phase = .ready
            retryOrFail(runtime, error: error)
        case .retry(let kind):
            if scheduleRetry(runtime, error: error, kind: kind) { return }
            runtime.rebuilding = nil
            runtime.phase = .ready
            // A seek asked while it loaded will not happen.
            track(.loadFailed, in: runtime)
            failedToPlayToEnd(runtime, error: error)
        case .resume(_, let automatic):
            runtime.rebuilding = nil
            runtime.phase = .failed
            track(.loadFailed, in: runtime)
            emit(
                .lifecycle(
                    runtime.session,
                    .resumeFail(
                        PlaybackError(
                            error.code, "Resuming failed: \(error.message); call resumeVideo(at:autoPlay:) again once the network is back", url: error.url,
                            httpStatus: error.httpStatus, cause: .playback(error)))))
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
            emit(
                .lifecycle(
                    runtime.session,
                    .error(
                        PlaybackError(
                            .invalidState, "resumeVideo(at:autoPlay:) is already running; wait for ResumeComplete or ResumeFail before calling it again"))))
            return
        }
        guard runtime.bumper == nil else {
            emit(.lifecycle(runtime.session, .error(PlaybackError(.invalidState, "resumeVideo(at:autoPlay:) is not possible while the bumper plays"))))
            return
        }
        disarm(runtime)
        track(.abandoned, in: runtime)
        runtime.cueHighWater = max(runtime.cueHighWater, runtime.lastReportedTime)
        // The app passes a time it was shown (content time under SSAI); automatic resumes pass engine time.
        // Before the start is the start (a pipeline asked to start at a negative time never plays).
        let start = time.isFinite ? max(time, .zero) : time
        let time = automatic || !start.isFinite ? start : (runtime.hooks?.engineTime(forReportedTime: start) ?? start)
        runtime.resumePosition = time
        runtime.rebuilding = .resume(autoPlay: autoPlay, automatic: automatic)
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .resumeBegin))
        // The resume's autoPlay is the app's wish now; a play or pause asked before the rebuilt pipeline
        // loads is newer and replaces it.
        _ = runtime.intent.handle(.resumed(autoPlay: autoPlay))
        // Never loaded: a resume is a fresh load at the time.
        if !runtime.milestones.has(.readyReported) { runtime.rebuilding = nil }
        rebuild(runtime, at: time, playWhenReady: autoPlay)
    }

    /// After giving up, probe for the network's return when the policy asks for it.
    func scheduleAutomaticResume(_ runtime: SessionRuntime, error: PlaybackError) {
        guard case .probe(let attempt, let maximum, let interval) = runtime.retries.handle(.gaveUp(error, policy: configuration.retryPolicy)) else { return }
        emit(.retry(runtime.session, RetryAttempt(kind: .automaticResume, attempt: attempt, maximumAttempts: maximum, delay: interval, error: error)))
        arm(.retry, in: runtime, after: interval)
    }
}
