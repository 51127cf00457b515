import CCoveGst
import CGStreamer
import CoveCore

/// The tracks a pipeline knows and which of them play: GStreamer's streams (from its stream-collection
/// and streams-selected messages).
///
/// A value kept in the pipeline's state (under its lock) and changed only through these functions, none
/// of which calls out. Reading GStreamer's stream objects (at the bottom) happens on the bus thread,
/// outside the lock.
struct TrackCollections {
    /// GStreamer's streams, from the latest stream collection.
    private(set) var streams: [EngineTrack] = []
    /// The streams GStreamer last said were selected.
    var selectedStreamIDs: [String] = []
    /// Takes a new stream collection; false when it lists the same streams as before.
    mutating func collect(_ streams: [EngineTrack]) -> Bool {
        guard self.streams != streams else { return false }
        self.streams = streams
        return true
    }

    /// The streams `select-streams` names for the wanted `audio` and `text`: the video playing (or the
    /// first), plus each of the two that is one of GStreamer's streams of its kind.
    func streamSelection(audio: String?, text: String?) -> [String] {
        var ids = streams.filter { $0.kind == .video && selectedStreamIDs.contains($0.id) }.map(\.id)
        if ids.isEmpty, let firstVideo = streams.first(where: { $0.kind == .video }) { ids.append(firstVideo.id) }
        if let audio, streams.contains(where: { $0.id == audio && $0.kind == .audio }) { ids.append(audio) }
        if let text, streams.contains(where: { $0.id == text && $0.kind == .text }) { ids.append(text) }
        return ids
    }

    /// GStreamer's (first) audio stream.
    var firstAudioStreamID: String? { streams.first { $0.kind == .audio }?.id }
}

// MARK: - Reading GStreamer's streams (bus thread)

extension TrackCollections {
    /// The streams a STREAM_COLLECTION message lists (those of a kind apps see); nil when it carries none.
    static func streams(inCollection message: UnsafeMutablePointer<GstMessage>) -> [EngineTrack]? {
        guard let collection = cove_message_stream_collection(message) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(collection)) }
        var tracks: [EngineTrack] = []
        let count = gst_stream_collection_get_size(collection)
        for index in 0..<count {
            guard let stream = gst_stream_collection_get_stream(collection, index) else { continue }
            if let track = track(from: stream) { tracks.append(track) }
        }
        return tracks
    }

    /// The stream ids a STREAMS_SELECTED message names, and the kinds among them.
    static func selection(in message: UnsafeMutablePointer<GstMessage>) -> (ids: [String], kinds: [EngineTrack.Kind]) {
        var ids: [String] = []
        var kinds: [EngineTrack.Kind] = []
        let count = cove_message_streams_selected_count(message)
        for index in 0..<count {
            guard let stream = cove_message_streams_selected_stream(message, index) else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(stream)) }
            if let id = gst_stream_get_stream_id(stream) { ids.append(String(cString: id)) }
            if let track = track(from: stream) { kinds.append(track.kind) }
        }
        return (ids, kinds)
    }

    /// A video, audio or text stream as a track (its codec, language, title and picture size from its caps and tags).
    private static func track(from stream: UnsafeMutablePointer<GstStream>) -> EngineTrack? {
        guard let rawID = gst_stream_get_stream_id(stream) else { return nil }
        let type = gst_stream_get_stream_type(stream).rawValue
        let kind: EngineTrack.Kind
        if type & GST_STREAM_TYPE_VIDEO.rawValue != 0 {
            kind = .video
        } else if type & GST_STREAM_TYPE_AUDIO.rawValue != 0 {
            kind = .audio
        } else if type & GST_STREAM_TYPE_TEXT.rawValue != 0 {
            kind = .text
        } else {
            return nil
        }
        let caps = takeGString(cove_stream_caps_string(stream))
        let fields = caps.map(CodecNames.parse)
        return EngineTrack(
            id: String(cString: rawID),
            kind: kind,
            language: takeGString(cove_stream_language(stream)),
            title: takeGString(cove_stream_title(stream)),
            codec: caps.flatMap(CodecNames.rfc6381(fromCaps:)),
            width: fields?["width"].flatMap(Int.init),
            height: fields?["height"].flatMap(Int.init)
        )
    }
}
