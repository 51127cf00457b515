import CoveInput

/// Something the parser skipped, ignored or repaired without refusing the file, with the line to
/// look at. Browsers do all of this silently; keeping it lets tools and logs explain a missing or
/// garbled caption.
public struct WebVTTWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A cue's timing line is not `start --> end [settings]`: the cue was skipped.
        case badTimestamp
        /// A cue's end is not after its start (it ends before it starts, or when it starts). The
        /// cue is kept, as the spec says, but is never shown.
        case endBeforeStart
        /// A block that is not a cue, `NOTE`, `STYLE` or `REGION` (or a `STYLE`/`REGION` after
        /// the first cue, where the spec does not allow them) was ignored.
        case unrecognizedBlock
        /// A `REGION` block without an `id` was ignored.
        case invalidRegion
        /// The header's `X-TIMESTAMP-MAP` could not be read; cue times were left unmapped.
        case invalidTimestampMap
        /// A thumbnail cue had no image URL or a malformed `#xywh=` fragment: the entry was skipped.
        case invalidThumbnail
        /// The file has NUL bytes; each was replaced by U+FFFD, as the spec's parser does (one
        /// warning for the file, at the first one's line).
        case nulCharacters
        /// The file has ill-formed UTF-8; each ill-formed sequence was replaced by U+FFFD, as the
        /// spec's UTF-8 decoding does (one warning for the file, at the first one's line).
        case invalidUTF8

        /// Whether a cue (or thumbnail entry) was lost because of this warning. Not for
        /// `endBeforeStart`: that cue is in the document, it is only never active.
        public var skipsCue: Bool {
            switch self {
            case .badTimestamp, .invalidThumbnail: true
            case .endBeforeStart, .unrecognizedBlock, .invalidRegion, .invalidTimestampMap, .nulCharacters, .invalidUTF8: false
            }
        }
    }

    public let kind: Kind
    /// 1-based line number of the block's first line (a cue's timing line), or nil when unknown.
    public let line: Int?
    /// What was wrong and what was done about it.
    public let message: String

    public init(_ kind: Kind, line: Int?, message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    public var description: String {
        let place = line.map { " at line \($0)" } ?? ""
        return "WebVTT \(kind.rawValue)\(place): \(message)"
    }
}

/// Collects warnings up to a limit and counts the rest (`CoveInput`'s, shared with the VMAP reader).
typealias WarningLog = CoveInput.WarningLog<WebVTTWarning>
