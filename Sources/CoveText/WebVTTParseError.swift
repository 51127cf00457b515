import CoveInput

/// Why a whole file was refused: what was wrong, where, and what to do about it.
///
/// Only problems that make the file untrustworthy as a whole throw (not WebVTT at all, not
/// UTF-8, binary data, a limit). A bad cue is skipped and reported as a `WebVTTWarning`, as
/// browsers do, unless `WebVTTParseOptions.failOnSkippedCue` asks for the error instead.
public struct WebVTTParseError: Error, Sendable, Hashable, CustomStringConvertible, InputError {
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

    /// Kind, line, byte offset, detail and advice, shared with the other readers' errors (`CoveInput`).
    let failure: InputFailure<Kind>

    public var kind: Kind { failure.kind }
    /// 1-based line number, or nil when the problem concerns the file as a whole.
    public var line: Int? { failure.line }
    /// Offset of the offending byte in the input (a BOM counted), for encoding errors.
    public var byteOffset: Int? { failure.byteOffset }
    /// What was wrong, in one sentence.
    public var detail: String { failure.detail }
    /// What the author of the file (or the caller) can do about it.
    public var advice: String { failure.advice }

    public init(_ kind: Kind, line: Int?, byteOffset: Int? = nil, detail: String, advice: String) {
        failure = InputFailure(kind, line: line, byteOffset: byteOffset, detail: detail, advice: advice)
    }

    @usableFromInline
    package init(_ failure: InputFailure<Kind>) {
        self.failure = failure
    }

    public var description: String {
        failure.message("WebVTT rejected", kind: kind.name, style: .afterKind)
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
