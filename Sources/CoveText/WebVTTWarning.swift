import CoveInput

/// Something the parser skipped or ignored without refusing the file, with the line to look at.
/// Browsers drop these silently; keeping them lets tools and logs explain a missing caption.
public struct WebVTTWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A cue's timing line is not `start --> end [settings]`: the cue was skipped.
        case badTimestamp
        /// A cue ends before it starts: the cue was skipped.
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

        /// Whether a cue (or thumbnail entry) was lost because of this warning.
        public var skipsCue: Bool {
            switch self {
            case .badTimestamp, .endBeforeStart, .invalidThumbnail: true
            case .unrecognizedBlock, .invalidRegion, .invalidTimestampMap: false
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
