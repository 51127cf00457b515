import CoveCore
import Foundation

/// What reaches the controller: the engine's events (forwarded by the pump, with the tracks merged with
/// the presentation's renditions) and the streaming sessions' reports (on their tasks), in one stream.
extension StreamingPlayer {
    // MARK: The engine's events (pump task)

    /// Forwards `player`'s events until they finish; the player's `events` finish with the last
    /// player's (after `close`, or a failed fallback).
    func startPump(for player: any EnginePlayer, generation: Int) {
        let events = player.events
        Task { [weak self] in
            for await event in events {
                guard let self else { return }
                guard state.withLock({ $0.pumpGeneration == generation }) else { continue }
                handleEngine(event)
            }
            guard let self else { return }
            // A player replaced by a fallback finishes without finishing the stream.
            if state.withLock({ $0.pumpGeneration == generation }) { continuation.finish() }
        }
    }

    private func handleEngine(_ event: EngineEvent) {
        switch event {
        case .tracksChanged(let streams):
            let declared = session.playingVariant?.codecs ?? session.presentation?.variants.first?.codecs ?? []
            let merged = state.withLock { s -> [EngineTrack] in
                s.tracks.collect(s.fed == nil ? streams : streams.map { RenditionTracks.declaredCodec($0, declared: declared) })
                return s.publicTracks
            }
            emit(.tracksChanged(merged))
        case .tracksSelected(let ids):
            let selection = state.withLock { s -> [String] in
                s.tracks.selectedStreamIDs = ids
                return s.publicSelection
            }
            emit(.tracksSelected(selection))
        case .prerolled(let info):
            let (startCheck, fed) = state.withLock { s -> (Bool, Bool) in
                defer { s.prerolled = true }
                return (!s.prerolled && s.fed != nil, s.fed != nil)
            }
            // The engine knows only what it was told; the timeline (a live window) is the session's.
            let duration = session.duration.map { MediaTime(seconds: $0) }
            emit(fed ? .prerolled(EngineMediaInfo(duration: duration, seekableRanges: seekableRanges, isLive: duration == nil)) : .prerolled(info))
            if startCheck { startBufferCheck() }
        case .playing:
            state.withLock { $0.atPlaying = true }
            emit(event)
        case .paused:
            state.withLock { $0.atPlaying = false }
            emit(event)
        case .failed:
            // One failure per play: the streaming's own may have come first.
            let report = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            if report { emit(event) }
        default:
            emit(event)
        }
    }

    // MARK: The sessions' reports (their tasks)

    /// What the main session reports. Engine events go out at once: the ladder and the start come before
    /// anything is pushed.
    func handleSession(_ event: StreamingEvent) {
        guard !isClosed else { return }
        switch event {
        case .presentationReady(let presentation, _):
            if presentation.variants.count > 1 || presentation.variants.contains(where: { $0.bandwidth > 0 }) {
                emit(.variantsDiscovered(presentation.ladder))
            }
            announceAudioRenditions(presentation)
            announceTextRenditions(presentation)
        case .starting(let at, _):
            let (first, fed, audio) = state.withLock { s -> (Bool, (any FedEnginePlayer)?, AudioRenditions?) in
                guard s.feedStart == nil else { return (false, nil, nil) }
                s.feedStart = at
                return (true, s.fed, s.audio)
            }
            guard first, let fed else { return }
            audio?.session?.start(at: at)
            updateDuration(on: fed)
            fed.startFeed(at: at)
        case .timelineUpdated:
            if let fed = fedPlayer { updateDuration(on: fed) }
        case .variantSelected(let variant):
            emit(.variantChanged(bandwidth: variant.bandwidth, url: Redaction.redact(url: variant.playlistURL)))
        case .request(let record):
            report(record)
        case .downloadFailed(let error) where error.isPermanent:
            // No retry brings an expired licence or a deleted file back: the play fails with the typed error.
            fail(error.playbackError)
        case .downloadFailed(let error):
            emit(.downloadFailed(error.downloadFailure))
        case .failed(let error):
            let fallBack = state.withLock { s -> Bool in
                s.feedStart == nil && s.fed != nil && error.code == .notStreamable
            }
            if fallBack {
                fallBackToReading(reason: error.message)
            } else {
                fail(error.playbackError)
            }
        }
    }

    /// What an audio rendition's session reports: its requests count, its failures are the stream's.
    func handleAudioSession(_ event: StreamingEvent) {
        guard !isClosed else { return }
        switch event {
        case .request(let record):
            report(record)
        case .failed(let error) where error.code == .keyAuthorizationFailed:
            // A key or licence refused before the rendition played anything is the play's refusal, as it
            // is for the main session (whichever of the two asked first reports it).
            fail(error.playbackError)
        case .downloadFailed(let error), .failed(let error):
            if error.isPermanent { fail(error.playbackError) } else { emit(.downloadFailed(error.downloadFailure)) }
        case .presentationReady, .starting, .timelineUpdated, .variantSelected:
            break
        }
    }

    private func report(_ record: RequestRecord) {
        let kind = MediaTransfer.Kind(rawValue: record.kind.rawValue) ?? .other
        // An audio rendition's variant indexes are its own session's, not the ladder's.
        let bandwidth =
            record.stream == .audio ? nil : record.variantIndex.flatMap { index in session.presentation?.variants.first { $0.index == index }?.bandwidth }
        emit(
            .transferCompleted(
                MediaTransfer(
                    kind: kind, url: record.url, status: record.status, bytes: record.bytes, startedAt: record.startedAt, duration: record.duration,
                    variantBandwidth: bandwidth, attempt: record.attempt, span: record.span)))
    }

    /// Reports the play's failure, once.
    private func fail(_ error: PlaybackError) {
        let report = state.withLock { s -> Bool in
            defer { s.failed = true }
            return !s.failed
        }
        if report { emit(.failed(error)) }
    }

    /// Tells the engine the presentation's duration when it changed (a live window has none).
    private func updateDuration(on fed: any FedEnginePlayer) {
        let duration = session.duration
        let changed = state.withLock { s -> Bool in
            defer { s.duration = duration }
            return s.duration != duration || s.feedStart == nil
        }
        if changed { fed.setFeedDuration(duration) }
    }

    /// A media file behind a name that did not say so: the base engine reads it itself. The fed player,
    /// which never started, is replaced by a reading one that gets the app's commands so far.
    private func fallBackToReading(reason: String) {
        logger.notice("the \(engine.base.name) engine reads this URL itself", metadata: ["reason": "\(reason)"])
        let (old, intent) = state.withLock { s -> ((any EnginePlayer)?, State) in
            guard !s.closed, s.fed != nil else { return (nil, s) }
            s.fed = nil
            s.pumpGeneration += 1
            return (s.player, s)
        }
        guard let old else { return }
        old.close()
        let reader: any EnginePlayer
        do {
            reader = try engine.makeFilePlayer(configuration: configuration)
        } catch {
            fail(error)
            continuation.finish()
            return
        }
        let generation = state.withLock { s -> Int? in
            guard !s.closed else { return nil }
            s.player = reader
            return s.pumpGeneration
        }
        guard let generation else {
            reader.close()
            return
        }
        startPump(for: reader, generation: generation)
        if let volume = intent.volume { reader.setVolume(volume) }
        if let rate = intent.rate { reader.setRate(rate) }
        reader.load(playWhenReady: intent.wantsPlaying)
    }
}
