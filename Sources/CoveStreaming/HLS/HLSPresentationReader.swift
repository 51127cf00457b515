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
            throw StreamingError(.invalidManifest, "A variant's playlist is itself a master playlist; the stream's variants must point at media playlists", url: url)
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
            variants.append(VariantTrack(
                index: variants.count, bandwidth: stream.bandwidth, averageBandwidth: stream.averageBandwidth,
                width: stream.resolution.map(\.width), height: stream.resolution.map(\.height), codecs: stream.codecs,
                frameRate: stream.frameRate, playlistURL: playlistURL, audioGroup: stream.audioGroup, subtitlesGroup: stream.subtitlesGroup
            ))
        }
        guard !variants.isEmpty else {
            throw StreamingError(.invalidManifest, "The master playlist lists no playable variant (no EXT-X-STREAM-INF with a usable URI)", url: url)
        }
        if variants.contains(where: { $0.playlistURL == url }) {
            throw StreamingError(.invalidManifest, "The master playlist lists itself as a variant; it would load forever. Point EXT-X-STREAM-INF at the media playlists", url: url)
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
            startOffset: master.start?.timeOffset
        )
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
            segments.append(SegmentReference(
                sequence: segment.mediaSequence, start: segment.startTime + offset, duration: segment.duration,
                url: segmentURL, byteRange: segment.byteRange.map { ByteSpan(offset: $0.offset, length: $0.length) },
                initSection: segment.map.flatMap { map in
                    HLSURI.resolve(map.uri, against: url).map { InitSection(url: $0, byteRange: map.byteRange.map { ByteSpan(offset: $0.offset, length: $0.length) }) }
                },
                discontinuity: segment.discontinuitySequence, key: segment.key.flatMap { key(from: $0, base: url) }, isGap: segment.isGap
            ))
        }
        let timeline = MediaTimeline(segments: segments, targetDuration: Double(playlist.targetDuration), isLive: playlist.isLive, isEvent: playlist.playlistType == .event)
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
    /// A known segment: its sequence number and its start on the timeline.
    private var anchor: (sequence: Int, start: Double, end: Double, targetDuration: Double)?

    public init() {}

    public static func == (lhs: SequenceClock, rhs: SequenceClock) -> Bool {
        lhs.anchor?.sequence == rhs.anchor?.sequence && lhs.anchor?.start == rhs.anchor?.start
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(anchor?.sequence)
        hasher.combine(anchor?.start)
    }

    /// What to add to the playlist's own segment times (which start at 0 at its first segment).
    func offset(for playlist: MediaPlaylist) -> Double {
        guard let anchor, let first = playlist.segments.first else { return 0 }
        if let match = playlist.segments.first(where: { $0.mediaSequence == anchor.sequence }) {
            return anchor.start - match.startTime
        }
        // No overlap: the window slid past everything known (or a variant lags). Estimate from the
        // sequence distance; segments are about a target duration long.
        let gap = Double(first.mediaSequence - anchor.sequence) * Double(max(playlist.targetDuration, 1))
        return max(anchor.start + gap, 0) - first.startTime
    }

    mutating func learn(_ timeline: MediaTimeline) {
        guard let last = timeline.segments.last else { return }
        anchor = (last.sequence, last.start, last.end, timeline.targetDuration)
    }
}
