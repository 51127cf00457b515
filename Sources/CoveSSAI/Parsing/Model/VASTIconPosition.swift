/// An icon's `xPosition`: `left`, `right`, or pixels from the left edge. Two types rather than one,
/// so a vertical word (`top`) cannot stand for a horizontal place.
public enum VASTIconXPosition: Sendable, Hashable, Encodable, CustomStringConvertible {
    case left
    case right
    /// Pixels from the player's left edge.
    case pixels(Int)

    /// Reads `left`, `right` (any letter case) or a non-negative whole number; nil otherwise.
    static func parse(_ text: String) -> VASTIconXPosition? {
        switch text.lowercased() {
        case "left": .left
        case "right": .right
        default: VASTIconPixels.parse(text).map(VASTIconXPosition.pixels)
        }
    }

    public var description: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .pixels(let value): String(value)
        }
    }

    /// As VAST writes it: the word as a string, pixels as a number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .pixels(let value) = self { try container.encode(value) } else { try container.encode(description) }
    }
}

/// An icon's `yPosition`: `top`, `bottom`, or pixels from the top edge.
public enum VASTIconYPosition: Sendable, Hashable, Encodable, CustomStringConvertible {
    case top
    case bottom
    /// Pixels from the player's top edge.
    case pixels(Int)

    /// Reads `top`, `bottom` (any letter case) or a non-negative whole number; nil otherwise.
    static func parse(_ text: String) -> VASTIconYPosition? {
        switch text.lowercased() {
        case "top": .top
        case "bottom": .bottom
        default: VASTIconPixels.parse(text).map(VASTIconYPosition.pixels)
        }
    }

    public var description: String {
        switch self {
        case .top: "top"
        case .bottom: "bottom"
        case .pixels(let value): String(value)
        }
    }

    /// As VAST writes it: the word as a string, pixels as a number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .pixels(let value) = self { try container.encode(value) } else { try container.encode(description) }
    }
}

/// The pixel form both positions share: ASCII digits only (no sign, no unit), short enough to fit.
enum VASTIconPixels {
    static func parse(_ text: String) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }
}
