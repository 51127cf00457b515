/// Numbers as HLS wants them written: plain decimal, never an exponent (`1e-05` is valid Swift
/// output but not a valid `decimal-floating-point`), and exact enough to read back to the same
/// `Double`.
enum DecimalText {
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = value.description
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        return expand(mantissa: text[..<exponentIndex], exponent: Int(text[text.index(after: exponentIndex)...]) ?? 0)
    }

    /// Rewrites `d.ddd × 10^exponent` (Swift's shortest round-trip digits) without the exponent.
    private static func expand(mantissa: Substring, exponent: Int) -> String {
        var negative = false
        var digits: [Character] = []
        var pointPosition: Int?
        for character in mantissa {
            switch character {
            case "-": negative = true
            case ".": pointPosition = digits.count
            default: digits.append(character)
            }
        }
        let point = (pointPosition ?? digits.count) + exponent
        var result = negative ? "-" : ""
        if point <= 0 {
            result += "0." + String(repeating: "0", count: -point) + String(digits)
        } else if point >= digits.count {
            result += String(digits) + String(repeating: "0", count: point - digits.count)
        } else {
            result += String(digits[..<point]) + "." + String(digits[point...])
        }
        return result
    }
}
