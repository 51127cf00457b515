/// Where a cue goes on the picture, from its WebVTT settings (`line:85% position:20% align:start`),
/// for engines that draw captions: the simple settings honoured, the rest (`size`, `vertical`,
/// regions) left to the default bottom-centre placement.
public struct CaptionPlacement: Sendable, Hashable {
    public enum Alignment: String, Sendable, Hashable {
        case start, center, end
    }

    /// Vertical position of the cue's box as a fraction of the picture's height (0 top, 1 bottom);
    /// nil: the bottom, as players place captions by default.
    public let line: Double?
    /// Horizontal position of the cue's box as a fraction of the width; nil: centred.
    public let position: Double?
    /// How the cue's lines align with each other and, without a position, in the picture.
    public let alignment: Alignment

    /// WebVTT's default line height (5.33 % of the picture) turns a line number into a fraction.
    static let lineHeight = 0.0533

    public init(line: Double? = nil, position: Double? = nil, alignment: Alignment = .center) {
        self.line = line.map(Self.fraction)
        self.position = position.map(Self.fraction)
        self.alignment = alignment
    }

    /// Reads `settings` (a cue's raw settings string); unknown or malformed settings are ignored.
    public init(settings: String) {
        var line: Double?
        var position: Double?
        var alignment = Alignment.center
        for setting in settings.split(whereSeparator: \.isWhitespace) {
            let parts = setting.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            // `line:50%,center` — the anchor after the comma is not honoured.
            let value = String(parts[1].split(separator: ",").first ?? "")
            switch parts[0] {
            case "line":
                if let percent = Self.percent(value) {
                    line = percent
                } else if let number = Int(value), abs(number) <= 1_000 {
                    // Line numbers count from the top (0, 1, …) or from the bottom (-1 is the last line).
                    line = number >= 0 ? Double(number) * Self.lineHeight : 1 + Double(number + 1) * Self.lineHeight
                }
            case "position":
                position = Self.percent(value)
            case "align":
                switch value {
                case "start", "left": alignment = .start
                case "end", "right": alignment = .end
                case "center", "middle": alignment = .center
                default: break
                }
            default:
                continue
            }
        }
        self.init(line: line, position: position, alignment: alignment)
    }

    /// The default: bottom centre.
    public static let bottomCenter = CaptionPlacement()

    private static func percent(_ text: String) -> Double? {
        guard text.hasSuffix("%"), let value = Double(text.dropLast()), value.isFinite, (0...100).contains(value) else { return nil }
        return value / 100
    }

    private static func fraction(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), 1) : 0.5
    }
}
