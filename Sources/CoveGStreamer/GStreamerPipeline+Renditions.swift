import CCoveGst
import CGStreamer
import CoveCore
import CoveStreaming
import Foundation
import Synchronization

/// Cove's streaming of a presentation's alternate renditions: audio renditions streamed into playbin3's
/// second `appsrc` (`AudioRenditionFeed`), subtitle renditions fetched and parsed by Cove
/// (`TextRenditionLoader`) and delivered as cues.
///
/// Threads: the announcements run on the streaming session's tasks (`presentationReady`), the subtitle
/// selection there or on the caller's thread (`selectTracks`), the playhead update on the bus thread.
/// Loaders are made, started and stopped with no lock held.
extension GStreamerPipeline {
    /// The variant's audio renditions with playlists of their own play from a second appsrc (playbin3's
    /// `suburi`), streamed by Cove like the video. Called before the pipeline leaves NULL.
    func announceAudioRenditions(_ presentation: Presentation) {
        guard state.withLock({ $0.audio == nil }) else { return }
        guard
            let audio = AudioRenditionFeed(
                presentation: presentation, transport: streaming.transport, configuration: streaming.settings(for: configuration), logger: logger,
                playhead: { [weak self] in self?.streamingPlayhead() },
                onEvent: { [weak self] event in self?.handleAudioStreaming(event) }
            )
        else { return }
        audio.session?.setForwardBuffer(forwardBufferTarget(configuration.forwardBufferDuration))
        state.withLock { $0.audio = audio }
        cove_set_string(playbin.object, "suburi", AudioRenditionFeed.uri)
    }

    /// The audio rendition's session reports: its requests count, its failures are the stream's.
    private func handleAudioStreaming(_ event: StreamingEvent) {
        switch event {
        case .request, .downloadFailed:
            handleStreaming(event)
        case .failed(let error):
            handleStreaming(.downloadFailed(error))
        case .presentationReady, .starting, .timelineUpdated, .variantSelected:
            break
        }
    }

    /// The presentation's subtitle renditions become text tracks; the default one (or the first that may
    /// be chosen automatically) plays, as GStreamer's own HLS selected it.
    func announceTextRenditions(_ presentation: Presentation) {
        guard !presentation.textRenditions.isEmpty else { return }
        let tracks = TrackCollections.coveTextTracks(in: presentation)
        guard !tracks.isEmpty else { return }
        let merged = state.withLock { s -> [EngineTrack] in
            s.tracks.coveText = tracks
            return s.publicTracks
        }
        emit(.tracksChanged(merged))
        if let preferred = TrackCollections.preferredText(tracks) { _ = selectCoveText(preferred) }
    }

    /// Switches Cove's subtitle loader to `id` (a `cove-text-N` track) or off. False when the presentation
    /// has no Cove subtitles, or `id` is one of GStreamer's streams (then Cove's subtitles stop).
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
        if let rendition, let session = feed?.session {
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
                    return (true, s.textPlayhead ?? s.streamStart)
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
