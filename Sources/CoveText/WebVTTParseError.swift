import CoveInput

/// Why a whole file was refused: what was wrong, where, and what to do about it.
///
/// Only problems that make the file unusable as a whole throw: not WebVTT at all (the spec's
/// parser aborts on a missing signature), text in UTF-16, binary data (Cove's own guard, in
/// front of the spec's parser), a limit. Everything the spec's parser recovers from is recovered
/// from and reported as a `WebVTTWarning` (a NUL byte, ill-formed UTF-8, a bad cue), unless
/// `WebVTTParseOptions.failOnSkippedCue` asks for an error for the cues that cannot be shown.
public struct WebVTTParseError: Error, Sendable, Hashable, CustomStringConvertible, InputError {
    public enum Kind: Sendable, Hashable {
        /// The data is empty or does not start with `WEBVTT` (after an optional BOM) followed by
        /// a space, a tab or a line ending.
        case missingHeader
        /// The text is UTF-16 (it starts with a UTF-16 byte-order mark, or with `WEBVTT` in
        /// UTF-16), not UTF-8. Ill-formed UTF-8 anywhere else is not an error: it is replaced with
        /// U+FFFD, as the spec's UTF-8 decoding does, and reported as `WebVTTWarning.Kind.invalidUTF8`.
        case invalidUTF8
        /// The data is clearly not text: media, an image, a compressed body, or mostly NUL and
        /// control bytes; the associated value says which. A few NUL bytes in text are not an
        /// error: the spec replaces each with U+FFFD (`WebVTTWarning.Kind.nulCharacters`).
        case binaryData(BinaryKind)
        /// The input goes over one of `WebVTTParseLimits`; `limit` is the configured value.
        case limitExceeded(WebVTTParseLimits.Limit, limit: Int)
        /// A cue's timing line is malformed (only thrown with `failOnSkippedCue`).
        case badTimestamp
        /// A cue's end is not after its start (only thrown with `failOnSkippedCue`; otherwise the
        /// cue is kept, as the spec says, and never shown).
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
        // Stable for log filters whatever was found; the error's detail says what it was.
        case .binaryData: "binaryData"
        case .limitExceeded(let limit, let value): "limitExceeded \(limit.rawValue)=\(value)"
        case .badTimestamp: "badTimestamp"
        case .endBeforeStart: "endBeforeStart"
        }
    }
}
