/// The RFC's number grammars, read from bytes: Swift's `Int(_:)` and `Double(_:)` accept more
/// than HLS does (`+1`, `0x1p3`, `nan`, `1e5`), and a playlist must mean the same thing in every player.
enum Numbers {
    enum Outcome<Value> {
        case value(Value)
        case malformed
        case outOfRange
    }

    /// `decimal-integer`: `[0-9]+`, into an `Int` (values above `Int.max` are out of range).
    static func decimalInteger(_ text: some StringProtocol) -> Outcome<Int> {
        var value = 0
        var sawDigit = false
        var overflow = false
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return .malformed }
            sawDigit = true
            if overflow { continue }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(byte - 0x30))
            if o1 || o2 { overflow = true } else { value = plus }
        }
        guard sawDigit else { return .malformed }
        return overflow ? .outOfRange : .value(value)
    }

    /// `decimal-floating-point` (and, when `signed`, `signed-decimal-floating-point`): digits with
    /// at most one `.`, no exponent, no `inf` or `nan`. The result is always finite.
    static func decimalFloat(_ text: some StringProtocol, signed: Bool) -> Outcome<Double> {
        var digits = 0
        var dots = 0
        var isFirst = true
        for byte in text.utf8 {
            defer { isFirst = false }
            if byte >= 0x30, byte <= 0x39 { digits += 1; continue }
            if byte == UInt8(ascii: "."), dots == 0 { dots += 1; continue }
            if byte == UInt8(ascii: "-"), signed, isFirst { continue }
            return .malformed
        }
        guard digits > 0, let value = Double(String(text)) else { return .malformed }
        return value.isFinite ? .value(value) : .outOfRange
    }

    /// `hexadecimal-sequence`: `0x` or `0X` and at least one hex digit, as big-endian bytes (an
    /// odd digit count gets a leading zero nibble).
    static func hexadecimal(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count > 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "X") else { return nil }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(utf8.count - 1)
        if utf8.count % 2 == 1 { nibbles.append(0) }
        for byte in utf8.dropFirst(2) {
            switch byte {
            case 0x30...0x39: nibbles.append(byte - 0x30)
            case 0x41...0x46: nibbles.append(byte - 0x41 + 10)
            case 0x61...0x66: nibbles.append(byte - 0x61 + 10)
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(nibbles.count / 2)
        var index = 0
        while index + 1 < nibbles.count {
            bytes.append(nibbles[index] << 4 | nibbles[index + 1])
            index += 2
        }
        return bytes
    }

    /// `decimal-resolution`: `<width>x<height>`.
    static func resolution(_ text: some StringProtocol) -> Outcome<Resolution> {
        let parts = text.split(separator: "x", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .malformed }
        switch (decimalInteger(parts[0]), decimalInteger(parts[1])) {
        case (.value(let width), .value(let height)): return .value(Resolution(width: width, height: height))
        case (.outOfRange, _), (_, .outOfRange): return .outOfRange
        default: return .malformed
        }
    }

    /// `<n>[@<o>]` of `EXT-X-BYTERANGE` and the `EXT-X-MAP` `BYTERANGE` attribute.
    static func byteRange(_ text: some StringProtocol) -> Outcome<(length: Int, offset: Int?)> {
        let parts = text.split(separator: "@", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return .malformed }
        let length: Int
        switch decimalInteger(parts[0]) {
        case .value(let value): length = value
        case .malformed: return .malformed
        case .outOfRange: return .outOfRange
        }
        guard parts.count == 2 else { return .value((length, nil)) }
        switch decimalInteger(parts[1]) {
        case .value(let offset):
            guard !offset.addingReportingOverflow(length).overflow else { return .outOfRange }
            return .value((length, offset))
        case .malformed: return .malformed
        case .outOfRange: return .outOfRange
        }
    }
}
