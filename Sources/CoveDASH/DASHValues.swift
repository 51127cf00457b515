/// Readers for the MPD's attribute types, on bytes, with no locale and no Foundation formatter:
/// `xs:duration`, `xs:dateTime`, numbers and byte ranges. Each returns nil for anything it cannot read
/// exactly; the caller turns that into a typed error naming the attribute.
enum DASHValues {
    /// `xs:duration` as seconds: `PT1H2M3.5S`, `P1DT2H`, `PT0S`. Years and months count 365 and 30 days
    /// (as dash.js does; MPDs use them only for very long buffers). Negative durations are refused.
    static func duration(_ text: String) -> Double? {
        var bytes = Substring(text).utf8[...]
        guard bytes.first == UInt8(ascii: "P") else { return nil }
        bytes = bytes.dropFirst()
        var inTime = false
        var total = 0.0
        var sawComponent = false
        while let first = bytes.first {
            if first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                bytes = bytes.dropFirst()
                continue
            }
            let numberBytes = bytes.prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
            guard !numberBytes.isEmpty, numberBytes.count <= 24, let value = Double(String(decoding: numberBytes, as: UTF8.self)) else { return nil }
            bytes = bytes.dropFirst(numberBytes.count)
            guard let unit = bytes.first else { return nil }
            bytes = bytes.dropFirst()
            let seconds: Double
            switch (unit, inTime) {
            case (UInt8(ascii: "Y"), false): seconds = 365 * 86_400
            case (UInt8(ascii: "M"), false): seconds = 30 * 86_400
            case (UInt8(ascii: "W"), false): seconds = 7 * 86_400
            case (UInt8(ascii: "D"), false): seconds = 86_400
            case (UInt8(ascii: "H"), true): seconds = 3_600
            case (UInt8(ascii: "M"), true): seconds = 60
            case (UInt8(ascii: "S"), true): seconds = 1
            default: return nil
            }
            total += value * seconds
            sawComponent = true
        }
        guard sawComponent, total.isFinite else { return nil }
        return total
    }

    /// `xs:dateTime` as seconds since 1970: `2024-05-01T12:00:00Z`, with fractional seconds and an
    /// offset (`+02:00`); without a zone it is read as UTC (DASH-IF IOP requires UTC).
    static func dateTime(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 19, b.count <= 40, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
            let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
            (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            var scale = 0.1
            index += 1
            let start = index
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 {
                fraction += Double(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index < b.count {
            switch b[index] {
            case UInt8(ascii: "Z"):
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard index + 6 == b.count, b[index + 3] == UInt8(ascii: ":"),
                    let hours = digits(b, index + 1, 2), let minutes = digits(b, index + 4, 2), hours <= 14, minutes <= 59
                else { return nil }
                offset = (hours * 3_600 + minutes * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
                index += 6
            default:
                return nil
            }
        }
        guard index == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offset) + fraction
    }

    private static func digits(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            guard index < b.count, b[index] >= 0x30, b[index] <= 0x39 else { return nil }
            value = value * 10 + Int(b[index] - 0x30)
        }
        return value
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// An unsigned decimal integer that fits `UInt64`.
    static func unsigned(_ text: String) -> UInt64? {
        // One pass over the bytes: a live MPD has tens of thousands of these (every S@t and S@d).
        var value: UInt64 = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// An unsigned decimal integer from bytes (white space around it allowed, as attribute values are trimmed).
    static func unsigned(bytes: some Collection<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        var trailing = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                if digits > 0 { trailing = true }
                continue
            }
            guard !trailing, byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// A decimal integer that fits `Int` (a `SegmentTimeline` `r` may be -1).
    static func integer(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 20 else { return nil }
        return Int(text)
    }

    /// `first-last`, inclusive, first ≤ last.
    static func byteRange(_ text: String) -> ByteRange? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = unsigned(String(parts[0])), let last = unsigned(String(parts[1])),
            first <= last, last < UInt64(Int.max / 2)
        else { return nil }
        return ByteRange(first: Int(first), last: Int(last))
    }

    /// A frame rate: `25`, `30000/1001`.
    static func frameRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        guard let numerator = parts.first.flatMap({ Double($0) }), numerator.isFinite, numerator > 0 else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? numerator : nil }
        guard let denominator = Double(parts[1]), denominator > 0 else { return nil }
        return numerator / denominator
    }
}
