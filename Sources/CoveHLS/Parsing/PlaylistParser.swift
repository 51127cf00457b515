/// Decides whether a playlist is a master or a media playlist, then hands its lines to the
/// matching builder. Deciding first (instead of guessing from the first tag) lets a playlist
/// that mixes both kinds fail with both lines named.
enum PlaylistParser {
    static let masterTags: Set<Substring> = [
        "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-MEDIA", "EXT-X-SESSION-DATA", "EXT-X-SESSION-KEY",
    ]
    static let mediaTags: Set<Substring> = [
        "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE", "EXT-X-PLAYLIST-TYPE",
        "EXT-X-ENDLIST", "EXT-X-I-FRAMES-ONLY", "EXTINF", "EXT-X-BYTERANGE", "EXT-X-DISCONTINUITY", "EXT-X-KEY",
        "EXT-X-MAP", "EXT-X-PROGRAM-DATE-TIME", "EXT-X-DATERANGE", "EXT-X-GAP",
    ]

    static func parse(_ bytes: [UInt8], limits: HLSParseLimits) throws(HLSParseError) -> HLSPlaylist {
        let lines = try LineReader.read(bytes, limits: limits)
        var firstMaster: PlaylistLine?
        var firstMedia: PlaylistLine?
        var firstURI: PlaylistLine?
        for line in lines {
            guard let name = line.tagName else {
                if firstURI == nil { firstURI = line }
                continue
            }
            if firstMaster == nil, masterTags.contains(name) { firstMaster = line }
            if firstMedia == nil, mediaTags.contains(name) { firstMedia = line }
            if let master = firstMaster, let media = firstMedia {
                let (earlier, later) = master.number < media.number ? (master, media) : (media, master)
                let laterKind = later.number == master.number ? "master" : "media"
                let earlierKind = laterKind == "master" ? "media" : "master"
                throw HLSParseError(
                    .mixedPlaylistKinds, line: later.number, tag: later.tagName.map(String.init),
                    detail: "\(later.tagName ?? "") is a \(laterKind)-playlist tag, but line \(earlier.number) has \(earlier.tagName ?? ""), a \(earlierKind)-playlist tag.",
                    advice: "A playlist is either a master playlist (variants) or a media playlist (segments); split it into two files."
                )
            }
        }
        if firstMaster != nil {
            var builder = MasterPlaylistBuilder(limits: limits)
            return .master(try builder.build(lines))
        }
        if firstMedia != nil {
            var builder = MediaPlaylistBuilder(limits: limits)
            return .media(try builder.build(lines))
        }
        throw HLSParseError(
            .missingTargetDuration, line: firstURI?.number,
            detail: firstURI == nil
                ? "The playlist has no variants, no segments and no EXT-X-TARGETDURATION."
                : "The playlist lists URIs but has neither EXT-X-STREAM-INF (master) nor EXT-X-TARGETDURATION and EXTINF (media) tags.",
            advice: "Add EXT-X-TARGETDURATION and an EXTINF before each segment URI for a media playlist, or an EXT-X-STREAM-INF before each variant URI for a master playlist."
        )
    }
}

/// Helpers every builder uses to read a tag's value and report problems with it.
struct TagReader {
    let line: PlaylistLine
    let name: Substring
    let value: Substring?
    let limits: HLSParseLimits

    var tag: String { String(name) }

    func error(_ kind: HLSParseError.Kind, _ detail: String, advice: String) -> HLSParseError {
        HLSParseError(kind, line: line.number, tag: tag, detail: "\(tag): \(detail)", advice: advice)
    }

    /// For flag tags (`EXT-X-ENDLIST`): a value would be ignored by other players, so it is refused.
    func requireNoValue() throws(HLSParseError) {
        guard let value else { return }
        throw error(
            .invalidTagValue, "This tag takes no value, but has \(HLSParseError.snippet(value, limit: 20)).",
            advice: "Write #\(tag) on its own, without ':' or a value."
        )
    }

    func requireValue() throws(HLSParseError) -> Substring {
        guard let value, !value.isEmpty else {
            throw error(.invalidTagValue, "The tag has no value.", advice: "Write #\(tag):<value> as RFC 8216 section 4.3 describes.")
        }
        return value
    }

    func integerValue() throws(HLSParseError) -> Int {
        let text = try requireValue()
        switch Numbers.decimalInteger(text) {
        case .value(let number): return number
        case .malformed:
            throw error(.invalidTagValue, "\(HLSParseError.snippet(text, limit: 24)) is not a decimal integer.", advice: "Write a whole number of digits, without sign, decimal point or spaces.")
        case .outOfRange:
            throw error(.numberOutOfRange, "\(HLSParseError.snippet(text, limit: 24)) is too large to represent.", advice: "Check the value; it must fit in 64 bits (at most \(Int.max)).")
        }
    }

    func attributes() throws(HLSParseError) -> AttributeList {
        try AttributeList(value ?? "", tag: name, line: line.number, limits: limits)
    }

    func duplicate(of first: Int) -> HLSParseError {
        error(.duplicateTag, "The tag appears again (first on line \(first)).", advice: "Keep one #\(tag); players disagree on which one wins.")
    }
}

/// The tags both playlist kinds share: `EXT-X-VERSION`, `EXT-X-INDEPENDENT-SEGMENTS`, `EXT-X-START`.
struct CommonTagState {
    var version: Int?
    var versionLine: Int?
    var hasIndependentSegments = false
    var start: StartPoint?
    var startLine: Int?

    /// Returns false when the tag is not one of the common ones.
    mutating func handle(_ reader: TagReader) throws(HLSParseError) -> Bool {
        switch reader.name {
        case "EXTM3U":
            throw reader.error(.duplicateTag, "The #EXTM3U header appears again.", advice: "Keep #EXTM3U only on the first line; two playlists may have been concatenated.")
        case "EXT-X-VERSION":
            if let versionLine { throw reader.duplicate(of: versionLine) }
            version = try reader.integerValue()
            versionLine = reader.line.number
        case "EXT-X-INDEPENDENT-SEGMENTS":
            try reader.requireNoValue()
            hasIndependentSegments = true
        case "EXT-X-START":
            if let startLine { throw reader.duplicate(of: startLine) }
            var attributes = try reader.attributes()
            let offset = try attributes.requiredFloat("TIME-OFFSET", signed: true)
            let precise = try attributes.yesNo("PRECISE") ?? false
            try Self.refuseOthers(attributes)
            start = StartPoint(timeOffset: offset, isPrecise: precise)
            startLine = reader.line.number
        default:
            return false
        }
        return true
    }

    /// `EXT-X-START` has no extension point, so an unknown attribute there is most likely a typo.
    static func refuseOthers(_ attributes: AttributeList) throws(HLSParseError) {
        guard let name = attributes.firstRemainingName else { return }
        throw attributes.error(
            .invalidAttribute, attribute: name, detail: "\(name) is not an attribute of this tag.",
            advice: "Remove \(name) or check its spelling."
        )
    }
}
