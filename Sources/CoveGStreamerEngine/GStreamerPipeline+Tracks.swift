import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// The pipeline's tracks: GStreamer's stream collection and selection as they arrive on the bus, and the
/// app's track selection (`select-streams`), kept in the `TrackCollections` value in the state. A
/// producer's own renditions (which audio rendition feeds the audio input, subtitles it loads) are the
/// producer's to add.
///
/// Threads: the collection and selection messages are handled on the bus thread; `selectTracks` runs on
/// the caller's thread.
extension GStreamerPipeline {
    func selectTracks(audio requested: String?, text: String?) {
        guard !isClosed else { return }
        _ = sendSelection(audio: requested, text: text)
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
        guard let tracks = TrackCollections.streams(inCollection: message) else { return }
        let merged = state.withLock { s -> [EngineTrack]? in
            guard s.tracks.collect(tracks) else { return nil }
            if s.expectsVideo == nil { s.expectsVideo = tracks.contains { $0.kind == .video } }
            return tracks
        }
        if let merged { emit(.tracksChanged(merged)) }
    }

    /// STREAMS_SELECTED: what plays now (and whether there is video, for frame timing); the held audio
    /// input may start once the main source's selection is known.
    func handleStreamsSelected(_ message: UnsafeMutablePointer<GstMessage>) {
        let (ids, kinds) = TrackCollections.selection(in: message)
        state.withLock { s in
            s.tracks.selectedStreamIDs = ids
            s.expectsVideo = kinds.contains(.video)
        }
        emit(.tracksSelected(ids))
        state.withLock { $0.audio }?.releaseInput()
    }
}
