import CoveCore
import CoveHLS
import Foundation

/// Reads HLS playlists into the presentation model. Pure: bytes in, values or a typed error out (the
/// parser underneath is bounded and fuzzed).
public enum HLSPresentationReader {
    /// What the first playlist turned out to be.
    public enum Entry: Sendable {
        /// A master playlist: variants to choose from.
        case presentation(Presentation)
        /// A lone media playlist: one variant whose timeline is already here.
        case singleVariant(Presentation, MediaPlaylist)
    }

    /// Reads the playlist the app's URL pointed at. `url` is where it finally came from (after redirects).
    public static func readEntry(_ bytes: some Collection<UInt8>, url: URL, limits: HLSParseLimits = .init()) throws(StreamingError) -> Entry {
        switch try parse(bytes, url: url, limits: limits) {
        case .master(let master):
            return .presentation(try presentation(from: master, url: url))
        case .media(let media):
            let variant = VariantTrack(index: 0, bandwidth: 0, playlistURL: url)
            return .singleVariant(Presentation(manifestURL: url, variants: [variant], startOffset: media.start?.timeOffset), media)
        }
    }

    /// Reads a media playlist (a variant's or a rendition's). A master playlist here is an error.
    public static func readMediaPlaylist(_ bytes: some Collection<UInt8>, url: URL, limits: HLSParseLimits = .init()) throws(StreamingError) -> MediaPlaylist {
        guard case .media(let media) = try parse(bytes, url: url, limits: limits) else {
            throw StreamingError(
                .invalidManifest, "A variant's playlist is itself a master playlist; the stream's variants must point at media playlists", url: url)
        }
        return media
    }

    private static func parse(_ bytes: some Collection<UInt8>, url: URL, limits: HLSParseLimits) throws(StreamingError) -> HLSPlaylist {
        do {
            return try HLSPlaylist.parse(bytes, limits: limits)
        } catch {
            throw StreamingError(.invalidManifest, "The HLS playlist could not be read: \(error)", url: url)
        }
    }

    static func presentation(from master: MasterPlaylist, url: URL) throws(StreamingError) -> Presentation {
        var variants: [VariantTrack] = []
        for stream in master.variants {
            guard let playlistURL = HLSURI.resolve(stream.uri, against: url) else { continue }
            variants.append(
                VariantTrack(
                    index: variants.count, bandwidth: stream.bandwidth, averageBandwidth: stream.averageBandwidth,
                    width: stream.resolution.map(\.width), height: stream.resolution.map(\.height), codecs: stream.codecs,
                    frameRate: stream.frameRate, playlistURL: playlistURL, audioGroup: stream.audioGroup, subtitlesGroup: stream.subtitlesGroup
                ))
        }
        guard !variants.isEmpty else {
            throw StreamingError(.invalidManifest, "The master playlist lists no playable variant (no EXT-X-STREAM-INF with a usable URI)", url: url)
        }
        if variants.contains(where: { $0.playlistURL == url }) {
            throw StreamingError(
                .invalidManifest, "The master playlist lists itself as a variant; it would load forever. Point EXT-X-STREAM-INF at the media playlists",
                url: url)
        }
        let renditions = master.renditions.compactMap { rendition -> AlternateRendition? in
            let kind: AlternateRendition.Kind
            switch rendition.type {
            case .audio: kind = .audio
            case .subtitles: kind = .text
            default: return nil
            }
            return AlternateRendition(
                kind: kind, groupID: rendition.groupID, name: rendition.name, language: rendition.language,
                isDefault: rendition.isDefault, isAutoselect: rendition.isAutoselect, isForced: rendition.isForced,
                playlistURL: rendition.uri.flatMap { HLSURI.resolve($0, against: url) }
            )
        }
        return Presentation(
            manifestURL: url, variants: variants,
            audioRenditions: renditions.filter { $0.kind == .audio }, textRenditions: renditions.filter { $0.kind == .text },
            startOffset: master.start?.timeOffset,
            contentProtection: declaredProtection(master.sessionKeys, base: url)
        )
    }

    /// `EXT-X-SESSION-KEY`s of sample encryption under a key system's format (not `identity`, whose key
    /// is fetched from its URI): declared up front, as a DASH manifest's `ContentProtection`, so the licence
    /// can name the system's `pssh` (a `data:` URI) before the first init segment.
    static func declaredProtection(_ keys: [EncryptionKey], base: URL) -> [DeclaredProtection] {
        keys.compactMap { key in
            guard key.method == .sampleAES || key.method == .sampleAESCTR, key.effectiveKeyFormat != "identity" else { return nil }
            let header = HLSURI.resolve(key.uri, against: base).flatMap(ProtectionSystemHeader.init(dataURL:))
            return DeclaredProtection(
                keySystem: KeySystem(hlsKeyFormat: key.effectiveKeyFormat), name: key.effectiveKeyFormat,
                defaultKeyID: header?.keyIDs.count == 1 ? header?.keyIDs.first : nil, systemHeader: header)
        }
    }

    /// Places a media playlist's segments on the presentation timeline. `clock` carries where earlier
    /// playlists of the same presentation put their segments, so a live window that slid keeps its
    /// times and variants stay aligned by media sequence number.
    public static func timeline(from playlist: MediaPlaylist, url: URL, clock: inout SequenceClock) -> MediaTimeline {
        let offset = clock.offset(for: playlist)
        var segments: [SegmentReference] = []
        segments.reserveCapacity(playlist.segments.count)
        for segment in playlist.segments {
            guard let segmentURL = HLSURI.resolve(segment.uri, against: url) else { continue }
            segments.append(
                SegmentReference(
                    sequence: segment.mediaSequence, start: segment.startTime + offset, duration: segment.duration,
                    url: segmentURL, byteRange: segment.byteRange.map { ByteSpan(offset: $0.offset, length: $0.length) },
                    initSection: segment.map.flatMap { map in
                        HLSURI.resolve(map.uri, against: url).map {
                            InitSection(url: $0, byteRange: map.byteRange.map { ByteSpan(offset: $0.offset, length: $0.length) })
                        }
                    },
                    discontinuity: segment.discontinuitySequence, key: segment.key.flatMap { key(from: $0, base: url) }, isGap: segment.isGap
                ))
        }
        let timeline = MediaTimeline(
            segments: segments, targetDuration: Double(playlist.targetDuration), isLive: playlist.isLive, isEvent: playlist.playlistType == .event)
        clock.learn(timeline)
        return timeline
    }

    /// nil for `METHOD=NONE` (the segments after it are clear).
    static func key(from key: EncryptionKey, base: URL) -> SegmentKey? {
        let method: SegmentKey.Method
        switch key.method {
        case .aes128: method = .aes128
        case .sampleAES: method = .sampleAES
        case .sampleAESCTR: method = .sampleAESCTR
        case EncryptionMethod(rawValue: "NONE"): return nil
        default: method = .other
        }
        return SegmentKey(method: method, keyURL: HLSURI.resolve(key.uri, against: base), iv: key.iv, keyFormat: key.effectiveKeyFormat)
    }
}

/// Keeps segment times stable across playlist reloads and variants: the time of a media sequence
/// number, once known, never changes. (A live playlist restarts its own clock at its first segment on
/// every reload; without this the playhead would jump back by the slide.)
public struct SequenceClock: Sendable, Hashable {
    /// The start of every segment of the last timeline learned, by media sequence number: a reload, or
    /// another variant whose window lags a segment behind, lines up on any segment it shares with it.
    private var starts: [Int: Double] = [:]
    /// The last known segment: its sequence number, start and end on the timeline.
    private var last: (sequence: Int, start: Double, end: Double)?

    public init() {}

    public static func == (lhs: SequenceClock, rhs: SequenceClock) -> Bool {
        lhs.starts == rhs.starts && lhs.last?.sequence == rhs.last?.sequence && lhs.last?.start == rhs.last?.start
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(last?.sequence)
        hasher.combine(last?.start)
    }

    /// What to add to the playlist's own segment times (which start at 0 at its first segment).
    func offset(for playlist: MediaPlaylist) -> Double {
        guard let last, let first = playlist.segments.first else { return 0 }
        if let match = playlist.segments.last(where: { starts[$0.mediaSequence] != nil }), let start = starts[match.mediaSequence] {
            return start - match.startTime
        }
        // No overlap: the window slid past everything known (or a variant lags far behind). Estimate
        // from the sequence distance; segments are about a target duration long.
        let target = Double(max(playlist.targetDuration, 1))
        let distance = first.mediaSequence - last.sequence
        // After the known segments, the next one starts exactly where they end.
        let estimate = distance > 0 ? last.end + Double(distance - 1) * target : last.start + Double(distance) * target
        return max(estimate, 0) - first.startTime
    }

    mutating func learn(_ timeline: MediaTimeline) {
        guard let newest = timeline.segments.last else { return }
        starts = Dictionary(timeline.segments.map { ($0.sequence, $0.start) }, uniquingKeysWith: { first, _ in first })
        last = (newest.sequence, newest.start, newest.end)
    }
}
