import CoveCore

/// The tracks a streaming player shows apps, and which of them play: the engine's streams (what it
/// demuxed), the presentation's audio renditions standing in for the engine's one audio stream, and
/// Cove's own subtitle renditions (`cove-text-N`).
///
/// A value kept in the player's state (under its lock) and changed only through these functions, none
/// of which calls out.
struct RenditionTracks {
    /// The engine's streams, from its latest `tracksChanged`, with the codecs the variant declares.
    private(set) var streams: [EngineTrack] = []
    /// The streams the engine last said were selected.
    var selectedStreamIDs: [String] = []
    /// The presentation's subtitle renditions as tracks (ids `cove-text-N`), beside the engine's streams.
    var coveText: [(track: EngineTrack, rendition: AlternateRendition)] = []
    /// The subtitle rendition playing.
    private(set) var coveTextSelected: String?

    /// Takes the engine's streams.
    mutating func collect(_ streams: [EngineTrack]) {
        self.streams = streams
    }

    /// The engine's streams as apps see them: with audio renditions (`audioRenditions`, nil without),
    /// the one audio stream the engine decodes stands for whichever rendition is selected, so the
    /// renditions are listed instead; Cove's subtitle renditions follow.
    func publicTracks(audioRenditions: [EngineTrack]?) -> [EngineTrack] {
        var tracks = streams
        if let audioRenditions {
            tracks.removeAll { $0.kind == .audio }
            tracks += audioRenditions
        }
        return tracks + coveText.map(\.track)
    }

    /// The selected streams as apps see them (see `publicTracks`): with audio renditions, the selected
    /// rendition instead of the engine's audio stream; with Cove's subtitles, the one playing instead of
    /// the engine's text stream.
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

    /// The engine's (first) audio stream.
    var firstAudioStreamID: String? { streams.first { $0.kind == .audio }?.id }

    /// Switches Cove's subtitles to `id` (a `cove-text-N` track) or off (nil). `known` is false, and
    /// nothing changes, when the presentation has no Cove subtitles, or `id` is one of the engine's
    /// streams while none of Cove's plays; `rendition` is the one to load (nil: none, Cove's subtitles stop).
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
    /// be chosen automatically (as an HLS player selects it).
    static func preferredText(_ tracks: [(track: EngineTrack, rendition: AlternateRendition)]) -> String? {
        (tracks.first { $0.rendition.isDefault } ?? tracks.first { $0.rendition.isAutoselect && $0.rendition.isForced })?.track.id
    }

    /// A stream's codec as its variant declares it (HLS `CODECS`, `avc1.42c015`), when the engine's caps
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
        // Keep the engine's when it already says as much (or names another codec family).
        guard current.isEmpty || (codec.hasPrefix(current) && codec.count > current.count) else { return track }
        var enriched = track
        enriched.codec = codec
        return enriched
    }
}
