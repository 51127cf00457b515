import CoveCore
import Foundation

/// The presentation's alternate renditions: audio renditions streamed into the fed player's separate
/// audio input (`AudioRenditions`), subtitle renditions fetched and parsed by Cove
/// (`TextRenditionLoader`) and delivered as cues; and the app's track selection across them and the
/// engine's own streams.
///
/// Threads: the announcements run on the main session's task (`presentationReady`), the selection on
/// the caller's thread, the playhead update on the buffer check's task. Loaders are made, started and
/// stopped with no lock held.
extension StreamingPlayer {
    /// The variant's audio renditions with playlists of their own play from the fed player's audio input,
    /// streamed by Cove like the video. Called before the feed starts.
    func announceAudioRenditions(_ presentation: Presentation) {
        guard let fed = fedPlayer, state.withLock({ $0.audio == nil }), AudioRenditions.separateAudio(in: presentation) else { return }
        let input = fed.openInput(.audio)
        guard
            let audio = AudioRenditions(
                presentation: presentation, transport: engine.transport, configuration: settings, logger: logger, input: input,
                protection: protection, onEvent: { [weak self] event in self?.handleAudioSession(event) })
        else { return }
        let forwardBuffer = state.withLock { s -> Duration? in
            s.audio = audio
            return s.forwardBuffer ?? configuration.forwardBufferDuration
        }
        if let session = audio.session {
            session.setForwardBuffer(forwardBufferTarget(forwardBuffer))
            fed.attach(session, to: .audio)
        }
    }

    /// The presentation's subtitle renditions become text tracks; the default one (or the first that may
    /// be chosen automatically) plays, as an HLS player selects it.
    func announceTextRenditions(_ presentation: Presentation) {
        guard !presentation.textRenditions.isEmpty else { return }
        let tracks = RenditionTracks.coveTextTracks(in: presentation)
        guard !tracks.isEmpty else { return }
        let merged = state.withLock { s -> [EngineTrack] in
            s.tracks.coveText = tracks
            return s.publicTracks
        }
        emit(.tracksChanged(merged))
        if let preferred = RenditionTracks.preferredText(tracks) { _ = selectCoveText(preferred) }
    }

    func selectTracks(audio requested: String?, text: String?) {
        guard !isClosed else { return }
        let (audio, fed) = state.withLock { ($0.audio, $0.fed) }
        if let audio, let fed, let id = requested {
            let choice = audio.select(id, playhead: position?.seconds)
            if let session = choice.session {
                session.setForwardBuffer(forwardBufferTarget(state.withLock { $0.forwardBuffer } ?? configuration.forwardBufferDuration))
                fed.attach(session, to: .audio)
            }
            // The engine keeps decoding its one audio stream; which rendition feeds it is Cove's choice.
            if choice.known { emit(.tracksSelected(state.withLock { $0.publicSelection })) }
        }
        let coveText = selectCoveText(text)
        // With audio renditions the engine's audio is the rendition's stream; with Cove's subtitles the
        // engine plays no text stream. With both, the engine keeps its own selection (every stream it
        // has): a selection naming a stale stream id after the audio source restarted would deselect it.
        if audio != nil && (coveText || text == nil) { return }
        let engineAudio = audio == nil ? requested : state.withLock { $0.tracks.firstAudioStreamID }
        player.selectTracks(audio: engineAudio, text: coveText ? nil : text)
    }

    /// Switches Cove's subtitle loader to `id` (a `cove-text-N` track) or off. False when the presentation
    /// has no Cove subtitles, or `id` is one of the engine's streams (then Cove's subtitles stop).
    func selectCoveText(_ id: String?) -> Bool {
        let (rendition, old, known) = state.withLock { s -> (AlternateRendition?, TextRenditionLoader?, Bool) in
            let choice = s.tracks.selectCoveText(id)
            guard choice.known else { return (nil, nil, false) }
            let old = s.textLoader
            s.textLoader = nil
            return (choice.rendition, old, true)
        }
        old?.stop()
        guard known else { return false }
        if let rendition {
            do {
                let loader = try session.makeTextRenditionLoader(
                    for: rendition,
                    onCues: { [weak self] cues in
                        for cue in cues { self?.emit(.textCue(cue)) }
                    },
                    onError: { [weak self] error in
                        self?.emit(.warning("Subtitles '\(rendition.name)' failed: \(error.message)"))
                    })
                // Another selection may have come while this loader was made: then it is not wanted.
                let (wanted, at) = state.withLock { s -> (Bool, Double?) in
                    guard s.tracks.coveTextSelected == id, s.textLoader == nil, !s.closed else { return (false, nil) }
                    s.textLoader = loader
                    return (true, s.textPlayhead ?? s.feedStart)
                }
                guard wanted else { return true }
                if let at { loader.seek(to: at) }
                loader.start()
            } catch {
                emit(.warning("Subtitles '\(rendition.name)' cannot load: \(error.message)"))
            }
        }
        if id == nil || rendition != nil {
            emit(.tracksSelected(state.withLock { $0.publicSelection }))
        }
        return rendition != nil || id == nil
    }

    /// Tells the subtitle loader where the playhead is (it fetches ahead of it).
    func updateTextPlayhead(_ playhead: Double?) {
        guard let playhead else { return }
        let loader = state.withLock { s -> TextRenditionLoader? in
            guard let loader = s.textLoader, abs((s.textPlayhead ?? -10) - playhead) >= 0.5 else { return nil }
            s.textPlayhead = playhead
            return loader
        }
        loader?.update(playhead: playhead)
    }
}
