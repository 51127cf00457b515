import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// The pipeline's tracks: GStreamer's stream collection and selection as they arrive on the bus, the
/// app's track selection (`select-streams`, or Cove's renditions), and what apps see of both (the
/// `TrackCollections` value in the state).
///
/// Threads: the collection and selection messages are handled on the bus thread; `selectTracks` runs on
/// the caller's thread and reports a rendition switch from there (see the threading model).
extension GStreamerPipeline {
    func selectTracks(audio requested: String?, text: String?) {
        guard !isClosed else { return }
        let renditions = state.withLock { $0.audio }
        if let renditions, let id = requested,
            renditions.select(id, at: currentPosition()?.seconds, decoderOffset: decoderOffset, rate: state.withLock { $0.rate })
        {
            // GStreamer keeps decoding its one audio stream; which rendition feeds it is Cove's choice.
            emit(.tracksSelected(state.withLock { $0.publicSelection }))
        }
        let coveText = selectCoveText(text)
        // With Cove's audio renditions GStreamer's audio is the rendition's stream; with Cove's subtitles
        // GStreamer plays no text stream.
        // With Cove's audio renditions and subtitles GStreamer keeps its own selection (every stream it
        // has): a selection naming a stale stream id after the audio source restarted would deselect it,
        // and an unlinked appsrc stops the pipeline.
        if renditions != nil && (coveText || text == nil) { return }
        _ = sendSelection(audio: renditions == nil ? requested : state.withLock { $0.tracks.firstAudioStreamID }, text: coveText ? nil : text)
    }

    /// Sends `select-streams` for the current video plus the wanted audio and text; false when nothing
    /// was sent.
    private func sendSelection(audio: String?, text: String?) -> Bool {
        guard !isClosed else { return false }
        let ids = state.withLock { $0.tracks.streamSelection(audio: audio, text: text) }
        guard !ids.isEmpty else { return false }
        var cStrings = ids.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { base in
                cove_select_streams(playbin.pointer, base, gint(buffer.count)) != 0
            }
        }
    }

    /// STREAM_COLLECTION: GStreamer's streams (codecs as the variant declares them) become the tracks.
    func handleCollection(_ message: UnsafeMutablePointer<GstMessage>) {
        guard var tracks = TrackCollections.streams(inCollection: message) else { return }
        tracks = tracks.map(declaredCodec)
        let merged = state.withLock { s -> [EngineTrack]? in
            guard s.tracks.collect(tracks) else { return nil }
            if s.expectsVideo == nil { s.expectsVideo = tracks.contains { $0.kind == .video } }
            return s.publicTracks
        }
        if let merged { emit(.tracksChanged(merged)) }
    }

    /// STREAMS_SELECTED: what plays now (and whether there is video, for frame timing); the held audio
    /// rendition may start once the main source's selection is known.
    func handleStreamsSelected(_ message: UnsafeMutablePointer<GstMessage>) {
        let (ids, kinds) = TrackCollections.selection(in: message)
        let reported = state.withLock { s -> [String] in
            s.tracks.selectedStreamIDs = ids
            s.expectsVideo = kinds.contains(.video)
            return s.publicSelection
        }
        emit(.tracksSelected(reported))
        state.withLock { $0.audio }?.releaseInput()
    }

    /// A stream's codec as its variant declares it, with Cove's streaming (see `TrackCollections.declaredCodec`).
    private func declaredCodec(_ track: EngineTrack) -> EngineTrack {
        guard route == .cove, let declared = feed?.session?.playingVariant?.codecs ?? feed?.session?.presentation?.variants.first?.codecs else { return track }
        return TrackCollections.declaredCodec(track, declared: declared)
    }
}
