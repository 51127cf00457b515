import Foundation

/// A byte range inside a resource (HLS `EXT-X-BYTERANGE`, DASH `indexRange`/`mediaRange`).
public struct ByteSpan: Sendable, Hashable, CustomStringConvertible {
    public let offset: Int
    public let length: Int

    public init(offset: Int, length: Int) {
        self.offset = max(offset, 0)
        self.length = max(length, 0)
    }

    /// The HTTP `Range` header value (inclusive end).
    public var rangeHeader: String { "bytes=\(offset)-\(offset + max(length, 1) - 1)" }
    public var description: String { "\(length)@\(offset)" }
}

/// Where a segment's decoder set-up lives (HLS `EXT-X-MAP`, a DASH initialization segment).
public struct InitSection: Sendable, Hashable {
    public let url: URL
    public let byteRange: ByteSpan?

    public init(url: URL, byteRange: ByteSpan? = nil) {
        self.url = url
        self.byteRange = byteRange
    }
}

/// How a segment is encrypted (HLS `EXT-X-KEY`).
public struct SegmentKey: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case aes128 = "AES-128"
        case sampleAES = "SAMPLE-AES"
        case sampleAESCTR = "SAMPLE-AES-CTR"
        case other
    }
    public let method: Method
    public let keyURL: URL?
    /// The explicit IV; nil means the media sequence number (RFC 8216 §5.2).
    public let iv: [UInt8]?
    public let keyFormat: String

    public init(method: Method, keyURL: URL?, iv: [UInt8]? = nil, keyFormat: String = "identity") {
        self.method = method
        self.keyURL = keyURL
        self.iv = iv
        self.keyFormat = keyFormat
    }
}

/// One media segment placed on the presentation timeline.
public struct SegmentReference: Sendable, Hashable {
    /// Media sequence number (HLS) or segment number (DASH): aligned across variants.
    public let sequence: Int
    /// Start on the presentation timeline, in seconds.
    public let start: Double
    public let duration: Double
    public let url: URL
    public let byteRange: ByteSpan?
    public let initSection: InitSection?
    /// Discontinuity sequence: segments of different values do not share timestamps.
    public let discontinuity: Int
    public let key: SegmentKey?
    /// A segment the server says is missing (HLS `EXT-X-GAP`): skipped, never fetched.
    public let isGap: Bool

    public init(
        sequence: Int, start: Double, duration: Double, url: URL, byteRange: ByteSpan? = nil, initSection: InitSection? = nil, discontinuity: Int = 0,
        key: SegmentKey? = nil, isGap: Bool = false
    ) {
        self.sequence = sequence
        self.start = start
        self.duration = duration
        self.url = url
        self.byteRange = byteRange
        self.initSection = initSection
        self.discontinuity = discontinuity
        self.key = key
        self.isGap = isGap
    }

    public var end: Double { start + duration }
}

/// The segments of one variant or rendition, as far as they are known now.
public struct MediaTimeline: Sendable, Hashable {
    public let segments: [SegmentReference]
    /// The longest a segment may be (HLS `EXT-X-TARGETDURATION`): paces live refreshes.
    public let targetDuration: Double
    /// False once the list is complete (VOD, or a live stream that ended).
    public let isLive: Bool
    /// HLS `PLAYLIST-TYPE:EVENT`: segments are only ever added, so the whole list stays seekable.
    public let isEvent: Bool
    /// How far behind the end of a live timeline playback sits, when the manifest says (DASH
    /// `suggestedPresentationDelay`); nil: three target durations (RFC 8216 §6.3.3).
    public let liveDelay: Double?

    public init(segments: [SegmentReference], targetDuration: Double, isLive: Bool, isEvent: Bool = false, liveDelay: Double? = nil) {
        self.segments = segments
        self.liveDelay = liveDelay.flatMap { $0.isFinite && $0 >= 0 ? min($0, 3_600) : nil }
        // Between a millisecond and an hour: it paces live reloads, so a hostile value must not stop them.
        self.targetDuration = min(max(targetDuration.isFinite ? targetDuration : 1, 0.001), 3_600)
        self.isLive = isLive
        self.isEvent = isEvent
    }

    public var start: Double { segments.first?.start ?? 0 }
    public var end: Double { segments.last?.end ?? 0 }
    public var duration: Double { end - start }

    /// The index of the segment that holds `time`: the first when before the start, the last when at or
    /// past the end.
    public func index(containing time: Double) -> Int? {
        guard !segments.isEmpty else { return nil }
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= time + 1e-6 { low = middle } else { high = middle - 1 }
        }
        return low
    }

    public func index(ofSequence sequence: Int) -> Int? {
        guard let first = segments.first?.sequence else { return nil }
        let (index, overflow) = sequence.subtractingReportingOverflow(first)
        guard !overflow, segments.indices.contains(index), segments[index].sequence == sequence else {
            return segments.firstIndex { $0.sequence == sequence }
        }
        return index
    }

    /// Where a live stream's playback starts and its live edge sits: `liveDelay` (DASH's suggested
    /// presentation delay) or three target durations (RFC 8216 §6.3.3) before the end, never before the start.
    public var liveEdge: Double { max(start, end - (liveDelay ?? 3 * targetDuration)) }
}
