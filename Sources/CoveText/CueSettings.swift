/// A cue's settings (the text after the end time), typed as the spec defines them, with the
/// text as written kept beside them: renderers use the typed values, while tools, logs and the
/// serializer need the original. Settings that are unknown or have invalid values are ignored,
/// as the spec requires; a later valid setting of the same name replaces an earlier one.
public struct WebVTTCueSettings: Sendable, Hashable {
    /// `vertical:rl` or `vertical:lr`: vertical text whose lines grow to the left or the right.
    public enum Vertical: String, Sendable, Hashable, CaseIterable {
        case rl
        case lr
    }

    /// `line:` as a line number (negative counts from the bottom) or a percentage of the video.
    public enum LinePosition: Sendable, Hashable {
        case lineNumber(Double)
        case percentage(Double)
    }

    /// The part of the cue box that `line:` positions (`line:10%,end`).
    public enum LineAlignment: String, Sendable, Hashable, CaseIterable {
        case start
        case center
        case end
    }

    public struct Line: Sendable, Hashable {
        public let position: LinePosition
        /// nil when not given (the spec's "auto", which is `start`).
        public let alignment: LineAlignment?

        public init(position: LinePosition, alignment: LineAlignment? = nil) {
            self.position = position
            self.alignment = alignment
        }
    }

    /// The part of the cue box that `position:` places (`position:30%,line-left`).
    public enum PositionAlignment: String, Sendable, Hashable, CaseIterable {
        case lineLeft = "line-left"
        case center
        case lineRight = "line-right"
    }

    public struct Position: Sendable, Hashable {
        /// 0 to 100.
        public let percentage: Double
        /// nil when not given (the spec's "auto", derived from `align`).
        public let alignment: PositionAlignment?

        public init(percentage: Double, alignment: PositionAlignment? = nil) {
            self.percentage = percentage
            self.alignment = alignment
        }
    }

    /// `align:`, the text alignment within the cue box.
    public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
        case start
        case center
        case end
        case left
        case right
    }

    public let vertical: Vertical?
    public let line: Line?
    public let position: Position?
    /// `size:`, the cue box size as a percentage (0 to 100) of the video.
    public let size: Double?
    public let align: TextAlignment?
    /// The id of the `REGION` the cue is shown in. Only set when that region was defined, and
    /// dropped by a `vertical`, a `line` or a `size` other than 100% written after it, as the
    /// spec's settings parser does.
    public let region: String?
    /// The settings as written, trimmed of surrounding whitespace; empty when there are none.
    public let raw: String

    /// No settings: every value is the spec's default.
    public static let none = WebVTTCueSettings(
        vertical: nil, line: nil, position: nil, size: nil, align: nil, region: nil, raw: ""
    )

    init(
        vertical: Vertical?, line: Line?, position: Position?, size: Double?, align: TextAlignment?,
        region: String?, raw: String
    ) {
        self.vertical = vertical
        self.line = line
        self.position = position
        self.size = size
        self.align = align
        self.region = region
        self.raw = raw
    }
}
