/// Why a whole file was refused: what was wrong, where, and what to do about it.
///
/// Only problems that make the file untrustworthy as a whole throw (not WebVTT at all, not
/// UTF-8, binary data, a limit). A bad cue is skipped and reported as a `WebVTTWarning`, as
/// browsers do, unless `WebVTTParseOptions.failOnSkippedCue` asks for the error instead.
public struct WebVTTParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The data is empty or does not start with `WEBVTT` (after an optional BOM) followed by
        /// a space, a tab or a line ending.
        case missingHeader
        /// The bytes are not valid UTF-8; `byteOffset` points at the first bad byte.
        case invalidUTF8
        /// The data contains a NUL byte, which text never does: it is binary (media, an image).
        case binaryData
        /// The input goes over one of `WebVTTParseLimits`; `limit` is the configured value.
        case limitExceeded(WebVTTParseLimits.Limit, limit: Int)
        /// A cue's timing line is malformed (only thrown with `failOnSkippedCue`).
        case badTimestamp
        /// A cue ends before it starts (only thrown with `failOnSkippedCue`).
        case endBeforeStart
    }

    public let kind: Kind
    /// 1-based line number, or nil when the problem concerns the file as a whole.
    public let line: Int?
    /// Offset of the offending byte in the input (a BOM counted), for encoding errors.
    public let byteOffset: Int?
    /// What was wrong, in one sentence.
    public let detail: String
    /// What the author of the file (or the caller) can do about it.
    public let advice: String

    public init(_ kind: Kind, line: Int?, byteOffset: Int? = nil, detail: String, advice: String) {
        self.kind = kind
        self.line = line
        self.byteOffset = byteOffset
        self.detail = detail
        self.advice = advice
    }

    public var description: String {
        var place: [String] = []
        if let line { place.append("line \(line)") }
        if let byteOffset { place.append("byte \(byteOffset)") }
        let location = place.isEmpty ? "" : " at " + place.joined(separator: ", ")
        return "WebVTT rejected (\(kind.name))\(location): \(detail) \(advice)"
    }
}

extension WebVTTParseError.Kind {
    /// A short stable name for logs.
    public var name: String {
        switch self {
        case .missingHeader: "missingHeader"
        case .invalidUTF8: "invalidUTF8"
        case .binaryData: "binaryData"
        case .limitExceeded(let limit, let value): "limitExceeded \(limit.rawValue)=\(value)"
        case .badTimestamp: "badTimestamp"
        case .endBeforeStart: "endBeforeStart"
        }
    }
}

extension WebVTTParseError {
    static func limitExceeded(
        _ limit: WebVTTParseLimits.Limit, _ limits: WebVTTParseLimits, line: Int?, detail: String
    ) -> WebVTTParseError {
        let value = limits.value(of: limit)
        return WebVTTParseError(
            .limitExceeded(limit, limit: value), line: line,
            detail: detail,
            advice:
                "Check that the file is really WebVTT and not generated in a loop; raise WebVTTParseLimits.\(limit.rawValue) (now \(value)) if it is legitimate."
        )
    }
}
