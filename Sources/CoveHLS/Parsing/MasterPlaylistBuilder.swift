/// Builds a `MasterPlaylist` from its lines (RFC 8216 section 4.3.4).
struct MasterPlaylistBuilder {
    let limits: HLSParseLimits
    private var common = CommonTagState()
    private var variants: [VariantStream] = []
    private var iFrameVariants: [IFrameVariantStream] = []
    private var renditions: [Rendition] = []
    private var sessionData: [SessionData] = []
    private var sessionKeys: [EncryptionKey] = []
    private var pendingUnknown: [String] = []
    /// An `EXT-X-STREAM-INF` waiting for its URI line, with its own line for the error if none comes.
    private var pendingVariant: (attributes: StreamAttributes, line: PlaylistLine)?

    init(limits: HLSParseLimits) {
        self.limits = limits
    }

    mutating func build(_ lines: [PlaylistLine]) throws(HLSParseError) -> MasterPlaylist {
        for line in lines {
            if let pending = pendingVariant {
                guard case .uri = line.content else { throw Self.missingURI(pending.line, before: line) }
                try countVariant(line)
                variants.append(pending.attributes.variant(uri: line.text, unknownTags: pendingUnknown))
                pendingUnknown = []
                pendingVariant = nil
                continue
            }
            switch line.content {
            case .uri:
                throw HLSParseError(
                    .unexpectedURI, line: line.number,
                    detail: "A URI line follows no EXT-X-STREAM-INF.",
                    advice: "Put an EXT-X-STREAM-INF tag (with at least BANDWIDTH) on the line before each variant URI."
                )
            case .tag(let name, let value):
                try handleTag(TagReader(line: line, name: name, value: value, limits: limits))
            }
        }
        if let pending = pendingVariant { throw Self.missingURI(pending.line, before: nil) }
        guard !variants.isEmpty else {
            throw HLSParseError(
                .noVariants, line: nil,
                detail: "The master playlist has no EXT-X-STREAM-INF variant.",
                advice: "Add at least one EXT-X-STREAM-INF tag followed by the URI of a media playlist."
            )
        }
        return MasterPlaylist(
            version: common.version?.value, hasIndependentSegments: common.hasIndependentSegments, start: common.start?.value,
            variants: variants, iFrameVariants: iFrameVariants, renditions: renditions,
            sessionData: sessionData, sessionKeys: sessionKeys, unknownTags: pendingUnknown
        )
    }

    private mutating func handleTag(_ reader: TagReader) throws(HLSParseError) {
        if try common.handle(reader) { return }
        switch reader.name {
        case "EXT-X-STREAM-INF":
            var attributes = try reader.attributes()
            pendingVariant = (try StreamAttributes(&attributes, isIFrame: false), reader.line)
        case "EXT-X-I-FRAME-STREAM-INF":
            var attributes = try reader.attributes()
            let uri = try attributes.requiredQuotedString("URI")
            let stream = try StreamAttributes(&attributes, isIFrame: true)
            try countVariant(reader.line)
            iFrameVariants.append(stream.iFrameVariant(uri: uri))
        case "EXT-X-MEDIA":
            try count(renditions.count, "EXT-X-MEDIA", reader.line)
            renditions.append(try Self.rendition(reader))
        case "EXT-X-SESSION-DATA":
            try count(sessionData.count, "EXT-X-SESSION-DATA", reader.line)
            sessionData.append(try Self.sessionData(reader))
        case "EXT-X-SESSION-KEY":
            try count(sessionKeys.count, "EXT-X-SESSION-KEY", reader.line)
            if let key = try KeyAndMapTags.key(reader, isSessionKey: true) { sessionKeys.append(key) }
        default:
            pendingUnknown.append(reader.line.text)
        }
    }

    private func countVariant(_ line: PlaylistLine) throws(HLSParseError) {
        try limits.check(
            .maxVariants, variants.count + iFrameVariants.count + 1, line: line.number,
            detail: "The master playlist has more than \(limits.maxVariants) variants.")
    }

    private func count(_ current: Int, _ tag: String, _ line: PlaylistLine) throws(HLSParseError) {
        try limits.check(
            .maxRenditions, current + 1, line: line.number, subject: tag, detail: "The master playlist has more than \(limits.maxRenditions) \(tag) tags.")
    }

    private static func missingURI(_ tagLine: PlaylistLine, before next: PlaylistLine?) -> HLSParseError {
        HLSParseError(
            .missingURI, line: tagLine.number, tag: "EXT-X-STREAM-INF",
            detail: next.map { "EXT-X-STREAM-INF is followed by a tag on line \($0.number) instead of its URI." }
                ?? "EXT-X-STREAM-INF is the last entry of the playlist and has no URI line after it.",
            advice: "Put the variant's media-playlist URI on the line right after each EXT-X-STREAM-INF."
        )
    }

    private static func rendition(_ reader: TagReader) throws(HLSParseError) -> Rendition {
        var attributes = try reader.attributes()
        let typeText = try attributes.requiredEnumerated("TYPE")
        guard let type = MediaType(rawValue: typeText) else {
            throw attributes.error(
                .invalidAttribute, attribute: "TYPE", detail: "TYPE=\(HLSParseError.snippet(typeText, limit: 20)) is not a media type.",
                advice: "Use AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS."
            )
        }
        let groupID = try attributes.requiredQuotedString("GROUP-ID")
        let name = try attributes.requiredQuotedString("NAME")
        let uri = try attributes.quotedString("URI")
        let instreamID = try attributes.quotedString("INSTREAM-ID")
        if type == .closedCaptions {
            if uri != nil {
                throw attributes.error(
                    .invalidAttribute, attribute: "URI", detail: "A CLOSED-CAPTIONS rendition cannot have a URI.",
                    advice: "Remove URI; closed captions travel inside the video, and INSTREAM-ID says which channel."
                )
            }
            if instreamID == nil { throw attributes.missing("INSTREAM-ID") }
        } else if instreamID != nil {
            throw attributes.error(
                .invalidAttribute, attribute: "INSTREAM-ID", detail: "INSTREAM-ID is only allowed for TYPE=CLOSED-CAPTIONS.",
                advice: "Remove INSTREAM-ID, or set TYPE=CLOSED-CAPTIONS."
            )
        }
        return Rendition(
            type: type, groupID: groupID, name: name,
            language: try attributes.quotedString("LANGUAGE"),
            associatedLanguage: try attributes.quotedString("ASSOC-LANGUAGE"),
            isDefault: try attributes.yesNo("DEFAULT") ?? false,
            isAutoselect: try attributes.yesNo("AUTOSELECT") ?? false,
            isForced: try attributes.yesNo("FORCED") ?? false,
            instreamID: instreamID,
            characteristics: StreamAttributes.list(try attributes.quotedString("CHARACTERISTICS")),
            channels: try attributes.quotedString("CHANNELS"),
            uri: uri,
            otherAttributes: attributes.remaining
        )
    }

    private static func sessionData(_ reader: TagReader) throws(HLSParseError) -> SessionData {
        var attributes = try reader.attributes()
        let dataID = try attributes.requiredQuotedString("DATA-ID")
        let value = try attributes.quotedString("VALUE")
        let uri = try attributes.quotedString("URI")
        let content: SessionData.Content
        switch (value, uri) {
        case (let value?, nil): content = .value(value)
        case (nil, let uri?): content = .uri(uri)
        case (nil, nil): throw attributes.missing("VALUE")
        case (_?, _?):
            throw attributes.error(
                .invalidAttribute, attribute: "URI", detail: "EXT-X-SESSION-DATA has both VALUE and URI.",
                advice: "Keep exactly one of VALUE or URI."
            )
        }
        return SessionData(
            dataID: dataID, content: content, language: try attributes.quotedString("LANGUAGE"),
            otherAttributes: attributes.remaining
        )
    }
}
