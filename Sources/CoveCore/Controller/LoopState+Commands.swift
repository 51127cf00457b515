import Foundation
import Logging

/// The app's commands: the dispatch of every `ControllerInput.Command`, and the transport it needs —
/// play, pause, settings and inserting into the queue (seeks are in `LoopState+Seeks`).
///
/// Separate because this is the app-facing entry point: commands check what they are asked and hand
/// the longer work to the session, engine-event and resilience extensions.
extension LoopState {
    // MARK: Commands

    func handle(_ command: ControllerInput.Command) {
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
            let wasPlaying = current?.intent.isRequested ?? preparation?.intent.isRequested ?? false
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
        case .offerTextTracks(let sessionID, let tracks):
            guard let runtime = current, runtime.session.id == sessionID else { return }
            offerInterstitialText(tracks, in: runtime)
        case .failSession(let sessionID, let error):
            guard let runtime = current, runtime.session.id == sessionID else { return }
            stopRefused(runtime, error: error)
        case .updateSettings(let new):
            updateSettings(new)
        case .setSessionVolume(let sessionID, let volume):
            guard let runtime = [current, preloaded?.runtime].compactMap({ $0 }).first(where: { $0.session.id == sessionID }) else { return }
            runtime.volumeOverride = volume
            let applied = effectiveVolume(of: runtime)
            runtime.player?.setVolume(applied)
            runtime.bumper?.player.setVolume(applied)
        case .resume(let time, let autoPlay):
            resume(at: time, autoPlay: autoPlay, automatic: false)
        case .selectTrack(let sessionID, let kind, let trackID):
            guard let runtime = current, runtime.session.id == sessionID, let player = runtime.player else { return }
            if kind == .text {
                selectText(trackID, in: runtime, player: player, remember: true)
                return
            }
            runtime.requestedAudioTrackID = trackID
            player.selectTracks(audio: trackID, text: streamTextSelection(runtime))
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

    /// Takes the app's new settings and applies what changed to the sessions that play.
    private func updateSettings(_ new: ControllerSettings) {
        let old = settings
        settings = new
        // Auto-play starts a session "as soon as it is delivered" (the seed's words): one still being
        // prepared when it is turned on plays too. Turning it off does not take back a play already asked for.
        if new.autoPlay && !old.autoPlay, var preparation {
            _ = preparation.intent.handle(.playRequested)
            self.preparation = preparation
        }
        if new.rate != old.rate {
            // Ads play at 1× (as the seed plays them); the rate applies again once the break is over.
            if let runtime = current, case .setEngineRate(let rate)? = runtime.hooksState.handle(.appRateChanged(new.rate)) {
                runtime.player?.setRate(rate)
            }
            current?.bumper?.player.setRate(new.rate)
        }
        if new.volume != old.volume {
            for runtime in [current, preloaded?.runtime].compactMap({ $0 }) where runtime.volumeOverride == nil {
                runtime.player?.setVolume(new.volume)
                runtime.bumper?.player.setVolume(new.volume)
            }
        }
        if new.shutter != old.shutter { perform(shutter.set(closed: new.shutter, fade: new.shutterFadeTime)) }
        if new.peakBitrate != old.peakBitrate || new.maximumResolution != old.maximumResolution {
            if let runtime = current { applyBitrateCap(runtime, capChanged: true) }
            if new.peakBitrate != old.peakBitrate { current?.bumper?.player.setMaxBitrate(new.peakBitrate) }
        }
    }

    private func play() {
        if var preparation {
            _ = preparation.intent.handle(.playRequested)
            self.preparation = preparation
            return
        }
        guard let runtime = current else {
            logger.warning(
                queue.isEmpty
                    ? "play() ignored: the queue is empty; call setVideos(_:) first"
                    : "play() ignored: there is no active session; call setVideos(_:) or advanceToNext()")
            return
        }
        guard runtime.phase != .failed, let player = runtime.player else {
            logger.warning("play() ignored: session \(runtime.session.id) failed and cannot play")
            return
        }
        emit(.lifecycle(runtime.session, .playRequest))
        _ = runtime.intent.handle(.playRequested)
        if let bumper = runtime.bumper {
            bumper.player.play()
            return
        }
        if runtime.phase == .ended {
            // Like an HTML media element: play() at the end starts over.
            runtime.phase = .ready
            performSeek(in: runtime, PendingSeek(id: nextSeekID(), target: .zero, tolerance: .zero, completion: nil))
        }
        if runtime.intent.holds.contains(.stall) { return }
        if runtime.phase == .ready && runtime.intent.hasPlayed && runtime.stall.bufferingPercent == 0 && !runtime.seeks.isSeeking {
            // The buffer ran dry while paused (the engine will not report it again): this is a stall.
            handleBuffering(0, in: runtime)
            return
        }
        // An engine whose clock already runs will not report playing again: then Play is reported here.
        apply(runtime.intent.handle(.playSent(loaded: runtime.phase == .ready)), in: runtime)
        player.play()
    }

    private func pause() {
        if var preparation {
            _ = preparation.intent.handle(.pauseRequested)
            self.preparation = preparation
            return
        }
        guard let runtime = current, runtime.phase != .failed, let player = runtime.player else {
            logger.info("pause() ignored: no session is playing")
            return
        }
        emit(.lifecycle(runtime.session, .pauseRequest))
        _ = runtime.intent.handle(.pauseRequested)
        _ = runtime.frames.handle(.pauseRequested)
        if let bumper = runtime.bumper {
            apply(bumper.playback.handle(.pauseRequested), in: runtime)
            bumper.player.pause()
            return
        }
        // Stalled or not yet started: the engine will not report a state change, so Pause is reported here.
        apply(runtime.intent.handle(.pauseSent), in: runtime)
        player.pause()
    }

    private func insert(_ video: Video, after position: Int) {
        guard position >= 0, position < queue.count else {
            let error = PlaybackError(
                .invalidArgument, "Cannot insert after index \(position): the queue has \(queue.count) videos, so valid indices are 0..<\(queue.count)")
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

    /// A server-side ad break (reported by a plugin such as SSAI) plays at 1× whatever the app's rate:
    /// the rate is set aside when the break starts and restored when it ends.
    func applyAdRate(for event: PlaybackEvent, in runtime: SessionRuntime) {
        let change: HooksState.Event
        switch event {
        case .adSequenceEntered: change = .adBreakEntered(appRate: settings.rate)
        case .adSequenceExited: change = .adBreakExited(appRate: settings.rate)
        default: return
        }
        if case .setEngineRate(let rate)? = runtime.hooksState.handle(change) { runtime.player?.setRate(rate) }
    }
}
