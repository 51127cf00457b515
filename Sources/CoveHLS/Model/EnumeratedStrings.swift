/// `HDCP-LEVEL`: open, because later drafts added values (`TYPE-1`) and more may follow; a
/// value Cove does not know is kept rather than refused.
public struct HDCPLevel: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let type0 = HDCPLevel(rawValue: "TYPE-0")
    public static let type1 = HDCPLevel(rawValue: "TYPE-1")
    public static let none = HDCPLevel(rawValue: "NONE")
}

/// `VIDEO-RANGE`: open for the same reason as `HDCPLevel`.
public struct VideoRange: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let sdr = VideoRange(rawValue: "SDR")
    public static let hlg = VideoRange(rawValue: "HLG")
    public static let pq = VideoRange(rawValue: "PQ")
}

/// `EXT-X-KEY` `METHOD`: open, so a new scheme (`SAMPLE-AES-CTR`, vendor methods) reaches the
/// DRM layer instead of failing the whole playlist. `NONE` is not a value here: it clears keys.
public struct EncryptionMethod: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let aes128 = EncryptionMethod(rawValue: "AES-128")
    public static let sampleAES = EncryptionMethod(rawValue: "SAMPLE-AES")
    public static let sampleAESCTR = EncryptionMethod(rawValue: "SAMPLE-AES-CTR")
}

/// `EXT-X-PLAYLIST-TYPE`. Closed: the RFC defines exactly these two and their meaning matters
/// for live handling, so anything else is an error.
public enum PlaylistType: String, Sendable, Hashable, CaseIterable {
    case vod = "VOD"
    case event = "EVENT"
}

/// `EXT-X-MEDIA` `TYPE`. Closed: a rendition of an unknown type cannot be routed anywhere.
public enum MediaType: String, Sendable, Hashable, CaseIterable {
    case audio = "AUDIO"
    case video = "VIDEO"
    case subtitles = "SUBTITLES"
    case closedCaptions = "CLOSED-CAPTIONS"
}

/// `EXT-X-START`: where a player should begin. Negative offsets count from the playlist's end.
public struct StartPoint: Sendable, Hashable {
    public let timeOffset: Double
    public let isPrecise: Bool

    public init(timeOffset: Double, isPrecise: Bool = false) {
        self.timeOffset = timeOffset
        self.isPrecise = isPrecise
    }
}
