/// A sub-range of a resource: `length` bytes starting at `offset`.
public struct ByteRange: Sendable, Hashable, CustomStringConvertible {
    public let length: Int
    public let offset: Int

    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }

    /// The first byte after the range, which is where an offset-less next range starts.
    public var end: Int { offset.addingReportingOverflow(length).partialValue }

    public var description: String { "\(length)@\(offset)" }
}

/// `EXT-X-MAP`: the initialisation section (fMP4 `moov`, TS PAT/PMT) that segments after it need.
public struct MediaInitializationSection: Sendable, Hashable {
    public let uri: String
    public let byteRange: ByteRange?
    public let otherAttributes: [HLSAttribute]

    public init(uri: String, byteRange: ByteRange? = nil, otherAttributes: [HLSAttribute] = []) {
        self.uri = uri
        self.byteRange = byteRange
        self.otherAttributes = otherAttributes
    }
}

/// One media segment with everything in force for it, so a consumer never has to replay the
/// playlist's tags to know which key, map or discontinuity applies.
///
/// `mediaSequence`, `discontinuitySequence` and `startTime` depend on the segments before it;
/// they are set when the segment is placed in a `MediaPlaylist` (and are 0 until then).
public struct MediaSegment: Sendable, Hashable {
    public let uri: String
    /// The `EXTINF` duration, in seconds.
    public let duration: Double
    /// The `EXTINF` title; nil when absent or empty.
    public let title: String?
    /// The resolved byte range: an omitted offset is filled in from the previous segment.
    public let byteRange: ByteRange?
    /// An `EXT-X-DISCONTINUITY` precedes this segment.
    public let isDiscontinuity: Bool
    /// Keys in force (one per key format); empty means clear.
    public let keys: [EncryptionKey]
    public let map: MediaInitializationSection?
    /// The `EXT-X-PROGRAM-DATE-TIME` written right before this segment, if any.
    public let programDateTime: HLSDateTime?
    /// `EXT-X-GAP`: the segment is missing and must not be loaded.
    public let isGap: Bool
    /// Unrecognised tags written before this segment's URI, kept verbatim so the writer puts them back.
    public let unknownTags: [String]

    /// The absolute media sequence number.
    public internal(set) var mediaSequence = 0
    /// The absolute discontinuity sequence number.
    public internal(set) var discontinuitySequence = 0
    /// Seconds from the start of the playlist: the sum of the durations before this segment.
    public internal(set) var startTime = 0.0

    public init(
        uri: String, duration: Double, title: String? = nil, byteRange: ByteRange? = nil,
        isDiscontinuity: Bool = false, keys: [EncryptionKey] = [], map: MediaInitializationSection? = nil,
        programDateTime: HLSDateTime? = nil, isGap: Bool = false, unknownTags: [String] = []
    ) {
        self.uri = uri
        self.duration = duration
        self.title = title?.isEmpty == true ? nil : title
        self.byteRange = byteRange
        self.isDiscontinuity = isDiscontinuity
        self.keys = keys
        self.map = map
        self.programDateTime = programDateTime
        self.isGap = isGap
        self.unknownTags = unknownTags
    }

    /// The first key in force, for the common single-DRM case.
    public var key: EncryptionKey? { keys.first }
    public var isEncrypted: Bool { !keys.isEmpty }
    public var endTime: Double { startTime + duration }
}
