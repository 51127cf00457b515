/// Builds a `MediaPlaylist` from its lines (RFC 8216 sections 4.3.2 and 4.3.3), carrying the
/// key, map and byte-range state from tag to segment the way a player reads them.
struct MediaPlaylistBuilder {
    let limits: HLSParseLimits
    private var common = CommonTagState()
    // Tags that may appear only once, with the line they were read on.
    private var targetDuration: (value: Int, line: Int)?
    private var mediaSequence: (value: Int, line: Int)?
    private var discontinuitySequence: (value: Int, line: Int)?
    private var playlistType: (value: PlaylistType, line: Int)?
    private var hasEndList = false
    private var isIFramesOnly = false
    private var segments: [MediaSegment] = []
    private var dateRanges: [DateRange] = []
    /// Segments so far that start with a discontinuity, to check the numbering cannot overflow.
    private var discontinuityCount = 0

    // State in force for the next segments.
    private var keys: [EncryptionKey] = []
    private var map: MediaInitializationSection?

    // State of the segment being read, reset at each URI line.
    private var pendingInfo: (duration: Double, title: String?, line: Int)?
    private var pendingByteRange: (length: Int, offset: Int?, line: Int)?
    private var pendingDiscontinuity = false
    private var pendingDateTime: (value: HLSDateTime, line: Int)?
    private var pendingGap = false
    private var pendingUnknown: [String] = []
    /// Every segment-scoped line since the last URI, so tags after the last segment can be kept.
    private var pendingLines: [String] = []

    init(limits: HLSParseLimits) {
        self.limits = limits
    }

    mutating func build(_ lines: [PlaylistLine]) throws(HLSParseError) -> MediaPlaylist {
        for line in lines {
            switch line.content {
            case .uri: try finishSegment(uri: line)
            case .tag(let name, let value): try handleTag(TagReader(line: line, name: name, value: value, limits: limits))
            }
        }
        if let info = pendingInfo {
            throw HLSParseError(
                .missingURI, line: info.line, tag: "EXTINF",
                detail: "The last EXTINF has no segment URI after it.",
                advice: "Put the segment's URI on a line after its EXTINF; a truncated download can cause this."
            )
        }
        guard let targetDuration else {
            throw HLSParseError(
                .missingTargetDuration, line: nil, tag: "EXT-X-TARGETDURATION",
                detail: "The media playlist has no EXT-X-TARGETDURATION.",
                advice: "Add #EXT-X-TARGETDURATION:<seconds> (the longest segment duration, rounded up) near the top."
            )
        }
        return MediaPlaylist(
            version: common.version?.value, targetDuration: targetDuration.value, mediaSequence: mediaSequence?.value ?? 0,
            discontinuitySequence: discontinuitySequence?.value ?? 0, playlistType: playlistType?.value, hasEndList: hasEndList,
            isIFramesOnly: isIFramesOnly, hasIndependentSegments: common.hasIndependentSegments, start: common.start?.value,
            segments: segments, dateRanges: dateRanges, unknownTags: pendingLines
        )
    }

    private var hasStartedSegments: Bool { !segments.isEmpty || pendingInfo != nil }

    private mutating func handleTag(_ reader: TagReader) throws(HLSParseError) {
        if try common.handle(reader) { return }
        let line = reader.line.number
        switch reader.name {
        case "EXT-X-TARGETDURATION":
            targetDuration = try reader.once(targetDuration) { () throws(HLSParseError) in try reader.integerValue() }
        case "EXT-X-MEDIA-SEQUENCE":
            mediaSequence = try reader.once(mediaSequence) { () throws(HLSParseError) in
                try refuseAfterSegments(reader)
                return try reader.integerValue()
            }
        case "EXT-X-DISCONTINUITY-SEQUENCE":
            discontinuitySequence = try reader.once(discontinuitySequence) { () throws(HLSParseError) in
                try refuseAfterSegments(reader)
                return try reader.integerValue()
            }
        case "EXT-X-PLAYLIST-TYPE":
            playlistType = try reader.once(playlistType) { () throws(HLSParseError) in
                let text = try reader.requireValue()
                guard let type = PlaylistType(rawValue: String(text)) else {
                    throw reader.error(
                        .invalidTagValue, "\(HLSParseError.snippet(text, limit: 20)) is not a playlist type.",
                        advice: "Write VOD or EVENT, or leave the tag out for a sliding-window live playlist.")
                }
                return type
            }
        case "EXT-X-ENDLIST":
            try reader.requireNoValue()
            hasEndList = true
        case "EXT-X-I-FRAMES-ONLY":
            try reader.requireNoValue()
            isIFramesOnly = true
        case "EXT-X-DATERANGE":
            try limits.check(
                .maxDateRanges, dateRanges.count + 1, line: reader.line.number, subject: reader.tag,
                detail: "The playlist has more than \(limits.maxDateRanges) date ranges.")
            dateRanges.append(try DateRangeTag.read(reader))
        case "EXTINF":
            if let info = pendingInfo {
                throw HLSParseError(
                    .missingURI, line: info.line, tag: "EXTINF",
                    detail: "EXTINF is followed by another EXTINF on line \(line) instead of a segment URI.",
                    advice: "Put each segment's URI on a line after its EXTINF."
                )
            }
            pendingInfo = try Self.info(reader)
            pendingLines.append(reader.line.text)
        case "EXT-X-BYTERANGE":
            if let pendingByteRange { throw reader.duplicate(of: pendingByteRange.line) }
            pendingByteRange = try Self.byteRange(reader)
            pendingLines.append(reader.line.text)
        case "EXT-X-DISCONTINUITY":
            try reader.requireNoValue()
            pendingDiscontinuity = true
            pendingLines.append(reader.line.text)
        case "EXT-X-KEY":
            if let key = try KeyAndMapTags.key(reader, isSessionKey: false) {
                keys = KeyAndMapTags.applying(key, to: keys)
            } else {
                keys = []
            }
            pendingLines.append(reader.line.text)
        case "EXT-X-MAP":
            map = try KeyAndMapTags.map(reader)
            pendingLines.append(reader.line.text)
        case "EXT-X-PROGRAM-DATE-TIME":
            pendingDateTime = try reader.once(pendingDateTime) { () throws(HLSParseError) in HLSDateTime(text: String(try reader.requireValue())) }
            pendingLines.append(reader.line.text)
        case "EXT-X-GAP":
            try reader.requireNoValue()
            pendingGap = true
            pendingLines.append(reader.line.text)
        default:
            pendingUnknown.append(reader.line.text)
            pendingLines.append(reader.line.text)
        }
    }

    private func refuseAfterSegments(_ reader: TagReader) throws(HLSParseError) {
        guard hasStartedSegments else { return }
        throw reader.error(
            .misplacedTag, "The tag appears after the first segment.",
            advice: "Move #\(reader.tag) above the first EXTINF; it numbers the segments that follow it."
        )
    }

    private mutating func finishSegment(uri line: PlaylistLine) throws(HLSParseError) {
        guard let info = pendingInfo else {
            throw HLSParseError(
                .unexpectedURI, line: line.number,
                detail: "A segment URI has no EXTINF before it.",
                advice: "Put #EXTINF:<duration>, on a line before each segment URI."
            )
        }
        try limits.check(.maxSegments, segments.count + 1, line: line.number, detail: "The media playlist has more than \(limits.maxSegments) segments.")
        let discontinuities = discontinuityCount + (pendingDiscontinuity ? 1 : 0)
        if (mediaSequence?.value ?? 0).addingReportingOverflow(segments.count).overflow
            || (discontinuitySequence?.value ?? 0).addingReportingOverflow(discontinuities).overflow
        {
            throw HLSParseError(
                .numberOutOfRange, line: line.number,
                detail: "This segment's media or discontinuity sequence number does not fit in 64 bits.",
                advice: "Check EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE; they are far too large."
            )
        }
        var range: ByteRange?
        if let pending = pendingByteRange {
            if let offset = pending.offset {
                range = ByteRange(length: pending.length, offset: offset)
            } else if let previous = segments.last, previous.uri == line.text, let previousRange = previous.byteRange,
                !previousRange.end.addingReportingOverflow(pending.length).overflow
            {
                range = ByteRange(length: pending.length, offset: previousRange.end)
            } else {
                throw HLSParseError(
                    .invalidByteRange, line: pending.line, tag: "EXT-X-BYTERANGE",
                    detail: "EXT-X-BYTERANGE has no offset, and the previous segment is not a sub-range of the same URI to continue from.",
                    advice: "Write the offset explicitly (#EXT-X-BYTERANGE:<length>@<offset>)."
                )
            }
        }
        segments.append(
            MediaSegment(
                uri: line.text, duration: info.duration, title: info.title, byteRange: range,
                isDiscontinuity: pendingDiscontinuity, keys: keys, map: map, programDateTime: pendingDateTime?.value,
                isGap: pendingGap, unknownTags: pendingUnknown
            ))
        discontinuityCount = discontinuities
        pendingInfo = nil
        pendingByteRange = nil
        pendingDiscontinuity = false
        pendingDateTime = nil
        pendingGap = false
        pendingUnknown = []
        pendingLines.removeAll(keepingCapacity: true)
    }

    private static func info(_ reader: TagReader) throws(HLSParseError) -> (Double, String?, Int) {
        let text = try reader.requireValue()
        let comma = text.firstIndex(of: ",")
        let durationText = comma.map { text[..<$0] } ?? text
        let title = comma.map { String(text[text.index(after: $0)...]) }
        switch Numbers.decimalFloat(durationText, signed: false) {
        case .value(let duration):
            return (duration, title, reader.line.number)
        case .outOfRange:
            throw reader.error(.numberOutOfRange, "The duration is too large to represent.", advice: "Write the segment duration in seconds.")
        case .malformed:
            let negative = durationText.first == "-"
            throw reader.error(
                .invalidTagValue,
                negative
                    ? "The duration \(HLSParseError.snippet(durationText, limit: 24)) is negative."
                    : "The duration \(HLSParseError.snippet(durationText, limit: 24)) is not a decimal number.",
                advice: "Write #EXTINF:<seconds>,[title] with a non-negative decimal duration such as 6.006 (no exponent, inf or nan)."
            )
        }
    }

    private static func byteRange(_ reader: TagReader) throws(HLSParseError) -> (Int, Int?, Int) {
        let text = try reader.requireValue()
        switch Numbers.byteRange(text) {
        case .value(let range): return (range.length, range.offset, reader.line.number)
        case .malformed:
            throw reader.error(
                .invalidTagValue, "\(HLSParseError.snippet(text, limit: 24)) is not <length>[@<offset>].",
                advice: "Write #EXT-X-BYTERANGE:<length>@<offset> with decimal integers.")
        case .outOfRange:
            throw reader.error(
                .numberOutOfRange, "The byte range is too large to represent.", advice: "Check the length and offset; their sum must fit in 64 bits.")
        }
    }
}
