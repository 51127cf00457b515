/// `CLOSED-CAPTIONS` of a variant: a rendition group, or `NONE` — which tells the player not to
/// look for CEA-608/708 in the video at all (it matters for seamless switching).
public enum ClosedCaptionsReference: Sendable, Hashable {
    case group(String)
    case disabled
}

/// One `EXT-X-STREAM-INF` and the URI after it.
public struct VariantStream: Sendable, Hashable {
    public let uri: String
    /// `BANDWIDTH`: peak bits per second.
    public let bandwidth: Int
    public let averageBandwidth: Int?
    /// `CODECS`, split on commas (`["avc1.42c015", "mp4a.40.2"]`); empty when absent.
    public let codecs: [String]
    public let resolution: Resolution?
    public let frameRate: Double?
    public let hdcpLevel: HDCPLevel?
    public let videoRange: VideoRange?
    /// `AUDIO`, `VIDEO` and `SUBTITLES` group IDs.
    public let audioGroup: String?
    public let videoGroup: String?
    public let subtitlesGroup: String?
    public let closedCaptions: ClosedCaptionsReference?
    /// Attributes Cove does not model (`PROGRAM-ID`, `PATHWAY-ID`, `SCORE`, …), in order.
    public let otherAttributes: [HLSAttribute]
    /// Unrecognised tags written before this variant's URI, kept verbatim.
    public let unknownTags: [String]

    public init(
        uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String] = [],
        resolution: Resolution? = nil, frameRate: Double? = nil, hdcpLevel: HDCPLevel? = nil,
        videoRange: VideoRange? = nil, audioGroup: String? = nil, videoGroup: String? = nil,
        subtitlesGroup: String? = nil, closedCaptions: ClosedCaptionsReference? = nil,
        otherAttributes: [HLSAttribute] = [], unknownTags: [String] = []
    ) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.frameRate = frameRate
        self.hdcpLevel = hdcpLevel
        self.videoRange = videoRange
        self.audioGroup = audioGroup
        self.videoGroup = videoGroup
        self.subtitlesGroup = subtitlesGroup
        self.closedCaptions = closedCaptions
        self.otherAttributes = otherAttributes
        self.unknownTags = unknownTags
    }
}

/// One `EXT-X-I-FRAME-STREAM-INF`: a playlist of key frames for trick play and thumbnails.
public struct IFrameVariantStream: Sendable, Hashable {
    public let uri: String
    public let bandwidth: Int
    public let averageBandwidth: Int?
    public let codecs: [String]
    public let resolution: Resolution?
    public let hdcpLevel: HDCPLevel?
    public let videoRange: VideoRange?
    public let videoGroup: String?
    public let otherAttributes: [HLSAttribute]

    public init(
        uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String] = [],
        resolution: Resolution? = nil, hdcpLevel: HDCPLevel? = nil, videoRange: VideoRange? = nil,
        videoGroup: String? = nil, otherAttributes: [HLSAttribute] = []
    ) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.hdcpLevel = hdcpLevel
        self.videoRange = videoRange
        self.videoGroup = videoGroup
        self.otherAttributes = otherAttributes
    }
}
