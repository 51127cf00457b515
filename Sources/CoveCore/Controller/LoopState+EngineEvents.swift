import Foundation
import Logging

/// The current session's engine events: loading and readiness, tracks and text selection (with the
/// remembered caption choice), frames, and the start and stop of playback.
///
/// Separate because it translates what the engine reports into the app's lifecycle events,
/// independently of how sessions are created (Sessions) or recovered (Resilience).
extension LoopState {
    // MARK: Engine events

    func handle(_ event: EngineEvent, in runtime: SessionRuntime) {
        let session = runtime.session
        switch event {
        case .prerolled(let info):
            guard runtime.phase == .loading else { return }
            if let rebuild = runtime.rebuilding, runtime.milestones.has(.readyReported) {
                rebuilt(runtime, info: info, after: rebuild)
            } else {
                runtime.rebuilding = nil
                becameReady(runtime, info: info)
            }
        case .playing:
            apply(runtime.intent.handle(.engineStarted(loaded: runtime.phase == .ready)), in: runtime)
        case .paused:
            apply(runtime.intent.handle(.engineStopped), in: runtime)
        case .firstFrame(let wallTime):
            let presented = FrameTiming.Event.presented(
                wallTime: wallTime, playRequested: runtime.intent.isRequested, isPlaying: runtime.intent.isPlaying, bumperPlaying: runtime.bumper != nil)
            if let frame = runtime.frames.handle(presented) { emit(.framePresented(session, frame)) }
        case .seekCompleted(let id, let succeeded):
            // Not the seek in flight (an interrupted one, already answered): nothing finished.
            guard !track(.engineCompleted(id: id, succeeded: succeeded), in: runtime).answers.isEmpty else { return }
            runtime.variantAttribution.handle(.seekCompleted)
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
            _ = runtime.captionPreference.handle(.askAgain)
            publishTracks(runtime)
        case .videoSizeChanged(_, let height):
            // Nothing switched yet: the first picture tells which variant the engine started on.
            // After a low-variant seek, the picture tells that the fresh pipeline started low.
            if runtime.activeVariant == nil || (runtime.variantAttribution.lowVariantSeek && runtime.activeVariant?.height != height),
                let variant = runtime.ladder.variants.first(where: { $0.height == height }),
                runtime.ladder.variants.filter({ $0.height == height }).count == 1
            {
                variantChanged(runtime, bandwidth: variant.bandwidth, url: variant.url)
            }
        case .variantChanged(let bandwidth, let url):
            variantChanged(runtime, bandwidth: bandwidth, url: url)
        case .transferCompleted(let transfer):
            emit(.mediaTransferred(session, transfer))
        case .variantsDiscovered(let variants):
            let ladder = VariantLadder(variants)
            guard ladder != runtime.ladder else { return }
            runtime.ladder = ladder
            emit(.variantsDiscovered(session, ladder))
            if settings.maximumResolution != nil { applyBitrateCap(runtime, capChanged: true) }
        case .downloadFailed(let error) where runtime.phase == .loading:
            // Before the media loaded (a first load or a rebuilt pipeline), downloads that died leave it
            // nothing to load with and it would wait forever: a load failure, retried by the policy. (Chaos:
            // a retry's pipeline whose segments came back as junk never loaded and never failed.)
            // The pipeline may still load on what it has and play: the stall watch keeps the failure, so the
            // stall where the pushed media ends hands over to the retries instead of waiting for good (chaos:
            // an AES-128 video whose fourth segment was an HTML page loaded, played and stood still).
            _ = watchStall(.downloadFailed(error), in: runtime)
            handle(.failed(error), in: runtime)
        case .downloadFailed(let error):
            // A seek in flight waits for its target's media, which a download that failed after its retries
            // will not bring: the pipeline is rebuilt at the target (a retry that carries the seek) instead
            // of leaving the seek unanswered — whether or not this pipeline failed before (the stall watch
            // reports only its first failure). Chaos found seeks that never completed.
            // Likewise when playback is wanted but has not started (the engine's own flushing seek for a rate
            // or a start, still prerolling): it never runs dry, so no stall would ever say so.
            let seekWaits = runtime.seeks.isSeeking && runtime.phase == .ready
            let startWaits = runtime.phase == .ready && runtime.intent.isRequested && !runtime.intent.isPlaying && runtime.bumper == nil
            guard case .downloadFailed(_, let whileStalled) = watchStall(.downloadFailed(error), in: runtime) else {
                if seekWaits || startWaits { retryOrFail(runtime, error: error) }
                return
            }
            emit(.lifecycle(session, .error(error)))
            // During a retry episode downloads failing again means the network is still bad: go on
            // retrying now rather than wait for a buffer the rebuilt pipeline may never report as empty.
            if whileStalled || runtime.retries.isInEpisode || seekWaits || startWaits { retryOrFail(runtime, error: error) }
        case .failed(let error):
            if runtime.phase == .loading, let rebuild = runtime.rebuilding, runtime.milestones.has(.readyReported) {
                rebuildFailed(runtime, error: error, after: rebuild)
            } else if runtime.phase == .loading, scheduleRetry(runtime, error: error, kind: .load) {
                runtime.rebuilding = .retry(.load)
                logger.notice("session failed to load; retrying", metadata: ["session": "\(session.id)", "error": "\(error)"])
            } else if runtime.phase == .loading {
                runtime.phase = .failed
                stopTicker(runtime)
                track(.loadFailed, in: runtime)
                abandonBumper(in: runtime)
                emit(.lifecycle(session, .fail(error)))
                logger.error("session failed to load", metadata: ["session": "\(session.id)", "error": "\(error)"])
                runtime.player?.close()
                continueAfterFailure(of: index ?? 0, playRequested: runtime.intent.isRequested)
            } else if runtime.phase != .failed {
                retryOrFail(runtime, error: error)
            }
        case .warning(let text):
            logger.notice("engine warning", metadata: ["session": "\(session.id)", "warning": "\(text)"])
        case .keyStatusesChanged(let system, let statuses):
            emit(.keyStatusesChanged(session, system, statuses))
        case .volumeChanged(let volume):
            guard volume != runtime.reportedVolume else { return }
            runtime.reportedVolume = volume
            emit(.volumeChanged(session, volume))
        case .endOfStream:
            guard runtime.phase == .ready else { return }
            // A seek to (or past) the end finishes first, then the end comes (`seekHandled`).
            if track(.endOfStream, in: runtime).endReached { reachedEnd(runtime) }
        }
    }

    private func becameReady(_ runtime: SessionRuntime, info: EngineMediaInfo) {
        let session = runtime.session
        runtime.phase = .ready
        _ = runtime.milestones.reach(.readyReported)
        defer {
            // Loaded: hold the session to the remembered caption choice.
            _ = runtime.captionPreference.handle(.askAgain)
            applyCaptionPreference(runtime, text: session.textTrackGroup.tracks, selected: session.selectedTextTrack)
        }
        runtime.duration = info.duration
        runtime.seekableRanges = info.seekableRanges
        runtime.videoType = videoType(info)
        emit(.durationChanged(session, reportedDuration(info.duration, runtime)))
        if !info.seekableRanges.isEmpty { emit(.seekableRangesChanged(session, info.seekableRanges)) }
        emit(.mediaTypeDetermined(session, runtime.engineTracks.contains { $0.kind == .video } ? .audioVideo : .audio))
        emit(.videoTypeDetermined(session, videoType(info)))
        let codecs = determinedCodecs(runtime)
        if !codecs.isEmpty { emit(.codecsDetermined(session, codecs)) }
        emit(.lifecycle(session, .ready))
        let seeks = track(.ready, in: runtime)
        emit(.lifecycle(session, .likelyToKeepUp))
        if let queued = seeks.perform { performSeek(in: runtime, queued) }
        apply(runtime.intent.handle(.loaded), in: runtime)
    }

    /// A live window slides: report it when either end moved by a second or more.
    func reportSeekableRangesIfMoved(_ runtime: SessionRuntime) {
        guard let ranges = runtime.player?.seekableRanges, !ranges.isEmpty else { return }
        let moved =
            ranges.count != runtime.seekableRanges.count
            || zip(ranges, runtime.seekableRanges).contains { new, old in
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
        return hasDVRWindow(info.seekableRanges) ? .liveDVR : .live
    }

    /// A live window at least `liveDVRMinimumWindow` long: what makes live seekable (live DVR).
    func hasDVRWindow(_ ranges: [TimeRange]) -> Bool {
        (ranges.compactMap(\.duration).max() ?? .zero) >= configuration.liveDVRMinimumWindow
    }

    private func determinedCodecs(_ runtime: SessionRuntime) -> [String] {
        let selected = runtime.engineTracks.filter { runtime.selectedTrackIDs.isEmpty || runtime.selectedTrackIDs.contains($0.id) }
        var codecs: [String] = []
        for codec in selected.compactMap(\.codec) where !codecs.contains(codec) { codecs.append(codec) }
        return codecs.isEmpty ? (runtime.session.source?.codecs ?? []) : codecs
    }

    func publishTracks(_ runtime: SessionRuntime) {
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
        // During an interstitial (an SSAI ad), the tracks offered for it too, and the one shown in place of
        // the content's selection.
        let interstitial = runtime.interstitialTextTracks.filter { if case .failed = $0.status { false } else { true } }.map(\.mediaTrack)
        let text = tracks(.text, .text) + sidecars + interstitial
        let selectedAudio = audio.first { runtime.selectedTrackIDs.contains($0.id) }
        let contentText = runtime.selectedSidecarID.flatMap { id in sidecars.first { $0.id == id } } ?? text.first { runtime.selectedTrackIDs.contains($0.id) }
        let selectedText = runtime.interstitialTextID.flatMap { id in interstitial.first { $0.id == id } } ?? contentText
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
    func selectText(_ trackID: String?, in runtime: SessionRuntime, player: any EnginePlayer, remember: Bool) {
        // An interstitial's own track stands in for the content's selection, which stays as it is; it
        // is not the viewer's preference (it exists only during the interstitial).
        if let interstitial = interstitialTrack(trackID, in: runtime) {
            runtime.interstitialTextID = interstitial.mediaTrack.id
            publishTracks(runtime)
            updateTextCues(runtime, at: player.position ?? runtime.lastReportedTime)
            return
        }
        runtime.interstitialTextID = nil
        let sidecar = trackID.flatMap { id in runtime.session.sidecarTextTracks.first { $0.mediaTrack.id == id } }
        if trackID != nil && sidecar == nil && trackID?.hasPrefix(SidecarTextTrack.idPrefix) == true {
            logger.warning("selectTextTrack ignored: the session has no sidecar track \(trackID ?? "")")
            return
        }
        if remember, let preferences = configuration.captionPreferences {
            let chosen = trackID.flatMap { id in runtime.session.textTrackGroup.tracks.first { $0.id == id } }
            let choice: CaptionPreferences.Choice? = trackID == nil ? .off : chosen?.language.map(CaptionPreferences.Choice.language)
            if let choice {
                do { try preferences.save(choice) } catch {
                    logger.warning("the caption choice could not be saved", metadata: ["file": "\(preferences.fileURL.path)", "error": "\(error)"])
                }
            }
            _ = runtime.captionPreference.handle(.appChose)
        }
        runtime.selectedSidecarID = sidecar?.mediaTrack.id
        let streamText = sidecar == nil ? trackID : nil
        runtime.requestedStreamTextID = .some(streamText)
        // The audio last asked for, else the one the engine plays (even before the session has published it).
        let audio =
            runtime.requestedAudioTrackID ?? runtime.session.selectedAudioTrack?.id
            ?? runtime.engineTracks.first { $0.kind == .audio && runtime.selectedTrackIDs.contains($0.id) }?.id
        player.selectTracks(audio: audio, text: streamText)
        publishTracks(runtime)
        updateTextCues(runtime, at: player.position ?? runtime.lastReportedTime)
    }

    /// Holds the session to the remembered caption choice until the app makes one of its own: the
    /// stream's own selections (its DEFAULT renditions, selected in stages) do not override the viewer's.
    private func applyCaptionPreference(_ runtime: SessionRuntime, text: [MediaTrack], selected: MediaTrack?) {
        // Not while an interstitial's track is shown: the content's selection is held as it was and
        // comes back after it.
        guard runtime.interstitialTextID == nil, !runtime.captionPreference.appChose, let preferences = configuration.captionPreferences,
            let player = runtime.player
        else { return }
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
        guard case .select(let asked)? = runtime.captionPreference.handle(.preferred(target: target, selected: selected?.id)) else { return }
        selectText(asked, in: runtime, player: player, remember: false)
    }

    private static func mediaTrack(_ track: EngineTrack, kind: MediaTrack.Kind) -> MediaTrack {
        let title = track.title
        let accessibility = (title?.lowercased().contains("sdh") ?? false) || (title?.lowercased().contains("cc") ?? false)
        return MediaTrack(id: track.id, kind: kind, language: track.language, title: title, codec: track.codec, isAccessibility: accessibility)
    }

    /// Carries out what the play intent asked for.
    func apply(_ effects: [PlayIntent.Effect], in runtime: SessionRuntime) {
        for effect in effects {
            switch effect {
            case .reportPlay(let first): reportPlay(runtime, first: first)
            case .reportPause: reportPause(runtime)
            case .playEngine: runtime.player?.play()
            case .loadEngine(let playWhenReady): runtime.player?.load(playWhenReady: playWhenReady)
            case .resumeProgress: startTicker(runtime)
            }
        }
    }

    /// Playback starts (the intent says so); the first time, with the cue points before the start position.
    private func reportPlay(_ runtime: SessionRuntime, first: Bool) {
        let session = runtime.session
        if first {
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
        _ = runtime.captionPreference.handle(.askAgain)
        applyCaptionPreference(runtime, text: session.textTrackGroup.tracks, selected: session.selectedTextTrack)
        if let frame = runtime.frames.handle(.playStarted(now: Date().timeIntervalSince1970)) { emit(.framePresented(session, frame)) }
        startTicker(runtime)
    }

    private func reportPause(_ runtime: SessionRuntime) {
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .pause))
        if let hooks = runtime.hooks {
            for event in hooks.playingChanged(false, at: runtime.player?.position ?? runtime.lastReportedTime) { emit(event) }
        }
    }
}
