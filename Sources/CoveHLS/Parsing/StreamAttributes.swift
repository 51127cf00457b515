/// The attributes `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF` share, read while the tag's
/// line is at hand (so errors name it), before the URI arrives.
struct StreamAttributes {
    let bandwidth: Int
    let averageBandwidth: Int?
    let codecs: [String]
    let resolution: Resolution?
    let frameRate: Double?
    let hdcpLevel: HDCPLevel?
    let videoRange: VideoRange?
    let audioGroup: String?
    let videoGroup: String?
    let subtitlesGroup: String?
    let closedCaptions: ClosedCaptionsReference?
    let others: [HLSAttribute]

    init(_ attributes: inout AttributeList, isIFrame: Bool) throws(HLSParseError) {
        bandwidth = try attributes.requiredInteger("BANDWIDTH")
        averageBandwidth = try attributes.integer("AVERAGE-BANDWIDTH")
        codecs = Self.list(try attributes.quotedString("CODECS"))
        resolution = try attributes.resolution("RESOLUTION")
        hdcpLevel = try attributes.enumerated("HDCP-LEVEL").map(HDCPLevel.init(rawValue:))
        videoRange = try attributes.enumerated("VIDEO-RANGE").map(VideoRange.init(rawValue:))
        videoGroup = try attributes.quotedString("VIDEO")
        if isIFrame {
            // The RFC gives I-frame streams none of these; if present they are kept as other attributes.
            frameRate = nil
            audioGroup = nil
            subtitlesGroup = nil
            closedCaptions = nil
        } else {
            frameRate = try attributes.float("FRAME-RATE")
            audioGroup = try attributes.quotedString("AUDIO")
            subtitlesGroup = try attributes.quotedString("SUBTITLES")
            switch attributes.take("CLOSED-CAPTIONS") {
            case nil: closedCaptions = nil
            case .quoted(let group)?: closedCaptions = .group(group)
            case .unquoted("NONE")?: closedCaptions = .disabled
            case .unquoted?:
                throw attributes.error(
                    .invalidAttribute, attribute: "CLOSED-CAPTIONS",
                    detail: "CLOSED-CAPTIONS is neither a quoted group ID nor NONE.",
                    advice: "Write CLOSED-CAPTIONS=\"<group>\" or CLOSED-CAPTIONS=NONE."
                )
            }
        }
        others = attributes.remaining
    }

    /// Splits a comma-separated quoted list (`CODECS`, `CHARACTERISTICS`), dropping spaces and empty items.
    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").compactMap { item in
            let trimmed = item.trimmingSpaces
            return trimmed.isEmpty ? nil : String(trimmed)
        }
    }

    func variant(uri: String, unknownTags: [String]) -> VariantStream {
        VariantStream(
            uri: uri, bandwidth: bandwidth, averageBandwidth: averageBandwidth, codecs: codecs,
            resolution: resolution, frameRate: frameRate, hdcpLevel: hdcpLevel, videoRange: videoRange,
            audioGroup: audioGroup, videoGroup: videoGroup, subtitlesGroup: subtitlesGroup,
            closedCaptions: closedCaptions, otherAttributes: others, unknownTags: unknownTags
        )
    }

    func iFrameVariant(uri: String) -> IFrameVariantStream {
        IFrameVariantStream(
            uri: uri, bandwidth: bandwidth, averageBandwidth: averageBandwidth, codecs: codecs,
            resolution: resolution, hdcpLevel: hdcpLevel, videoRange: videoRange, videoGroup: videoGroup,
            otherAttributes: others
        )
    }
}
