import CCoveGst
import CGStreamer
import CoveCore
import CoveStreaming

/// The tracks a pipeline knows and which of them play: GStreamer's streams (from its stream-collection
/// and streams-selected messages) and Cove's own subtitle renditions (`cove-text-N`), and how they add
/// up, with Cove's audio renditions, to the tracks and selection apps see.
///
/// A value kept in the pipeline's state (under its lock) and changed only through these functions, none
/// of which calls out. Reading GStreamer's stream objects (at the bottom) happens on the bus thread,
/// outside the lock.
struct TrackCollections {
    /// GStreamer's streams, from the latest stream collection.
    private(set) var streams: [EngineTrack] = []
    /// The streams GStreamer last said were selected.
    var selectedStreamIDs: [String] = []
    /// Cove's streaming: the presentation's subtitle renditions as tracks (ids `cove-text-N`), beside
    /// the streams GStreamer finds in the media.
    var coveText: [(track: EngineTrack, rendition: AlternateRendition)] = []
    /// The subtitle rendition playing.
    private(set) var coveTextSelected: String?

    /// Takes a new stream collection; false when it lists the same streams as before.
    mutating func collect(_ streams: [EngineTrack]) -> Bool {
        guard self.streams != streams else { return false }
        self.streams = streams
        return true
    }

    /// GStreamer's streams as apps see them: with Cove's audio renditions (`audioRenditions`, nil
    /// without), the one audio stream GStreamer decodes stands for whichever rendition is selected, so the
    /// renditions are listed instead; Cove's subtitle renditions follow.
    func publicTracks(audioRenditions: [EngineTrack]?) -> [EngineTrack] {
        var tracks = streams
        if let audioRenditions {
            tracks.removeAll { $0.kind == .audio }
            tracks += audioRenditions
        }
        return tracks + coveText.map(\.track)
    }

    /// The selected streams as apps see them (see `publicTracks`): with Cove's audio renditions, the
    /// selected rendition instead of GStreamer's audio stream; with Cove's subtitles, the one playing
    /// instead of GStreamer's text stream.
    func publicSelection(audioFromRenditions: Bool, selectedRendition: String?) -> [String] {
        var ids = selectedStreamIDs
        if audioFromRenditions {
            ids.removeAll { id in streams.contains { $0.id == id && $0.kind == .audio } }
            if let selectedRendition { ids.append(selectedRendition) }
        }
        if !coveText.isEmpty {
            ids.removeAll { id in streams.contains { $0.id == id && $0.kind == .text } }
            if let text = coveTextSelected { ids.append(text) }
        }
        return ids
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

    /// Switches Cove's subtitles to `id` (a `cove-text-N` track) or off (nil). `known` is false, and
    /// nothing changes, when the presentation has no Cove subtitles, or `id` is one of GStreamer's streams
    /// while none of Cove's plays; `rendition` is the one to load (nil: none, Cove's subtitles stop).
    mutating func selectCoveText(_ id: String?) -> (known: Bool, rendition: AlternateRendition?) {
        guard !coveText.isEmpty else { return (false, nil) }
        let rendition = id.flatMap { id in coveText.first { $0.track.id == id }?.rendition }
        guard rendition != nil || id == nil || coveTextSelected != nil else { return (false, nil) }
        coveTextSelected = rendition == nil ? nil : id
        return (true, rendition)
    }

    /// The presentation's subtitle renditions that have playlists, as text tracks `cove-text-N` (N: the
    /// rendition's index in the presentation).
    static func coveTextTracks(in presentation: Presentation) -> [(track: EngineTrack, rendition: AlternateRendition)] {
        presentation.textRenditions.enumerated().compactMap { index, rendition -> (track: EngineTrack, rendition: AlternateRendition)? in
            guard rendition.playlistURL != nil else { return nil }
            return (EngineTrack(id: "cove-text-\(index)", kind: .text, language: rendition.language, title: rendition.name, codec: "wvtt"), rendition)
        }
    }

    /// The subtitle track that plays from the start: the default one, else the first forced one that may
    /// be chosen automatically (as GStreamer's own HLS selected it).
    static func preferredText(_ tracks: [(track: EngineTrack, rendition: AlternateRendition)]) -> String? {
        (tracks.first { $0.rendition.isDefault } ?? tracks.first { $0.rendition.isAutoselect && $0.rendition.isForced })?.track.id
    }

    /// A stream's codec as its variant declares it (HLS `CODECS`, `avc1.42c015`), when GStreamer's caps
    /// carry less (raw TS demuxing knows `avc1` before the parser has read the profile).
    static func declaredCodec(_ track: EngineTrack, declared: [String]) -> EngineTrack {
        let family: [String]
        switch track.kind {
        case .video: family = ["avc1", "avc3", "hvc1", "hev1", "vp09", "av01"]
        case .audio: family = ["mp4a", "ac-3", "ec-3", "opus", "flac"]
        case .text: return track
        }
        guard let codec = declared.first(where: { code in family.contains { code.hasPrefix($0) } }) else { return track }
        let current = track.codec ?? ""
        // Keep GStreamer's when it already says as much (or names another codec family).
        guard current.isEmpty || (codec.hasPrefix(current) && codec.count > current.count) else { return track }
        var enriched = track
        enriched.codec = codec
        return enriched
    }
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
