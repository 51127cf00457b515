#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A date as a playlist writes it (`EXT-X-PROGRAM-DATE-TIME`, DATERANGE `START-DATE`).
///
/// The text is kept because it is what round-trips and what an app may want to show; `date` is
/// filled when the text is ISO 8601 with a time zone, and nil otherwise rather than guessed —
/// encoders get this wrong often enough that refusing the whole playlist would be worse.
public struct HLSDateTime: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    public let date: Date?

    public init(text: String) {
        self.text = text
        self.date = ISO8601.parse(text)
    }

    /// Formats `date` as `YYYY-MM-DDThh:mm:ss.sssZ`, the shape most packagers use.
    public init(date: Date) {
        self.init(text: ISO8601.format(date))
    }

    public var description: String { text }
}

/// A small ISO 8601 reader and writer: Foundation's formatters are classes with locale state,
/// and this is the only shape HLS needs.
enum ISO8601 {
    /// Accepts `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm|±hhmm|±hh)`.
    static func parse(_ text: String) -> Date? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.digits(4), reader.skip("-"),
            let month = reader.digits(2), reader.skip("-"),
            let day = reader.digits(2),
            reader.skip("T") || reader.skip("t") || reader.skip(" "),
            let hour = reader.digits(2), reader.skip(":"),
            let minute = reader.digits(2), reader.skip(":"),
            let second = reader.digits(2)
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") || reader.skip(",") {
            var scale = 0.1
            var count = 0
            while let digit = reader.digit() {
                if count < 9 { fraction += Double(digit) * scale; scale /= 10 }
                count += 1
            }
            guard count > 0 else { return nil }
        }
        var offsetSeconds = 0
        if reader.skip("Z") || reader.skip("z") {
            // UTC
        } else if let sign = reader.sign() {
            guard let hours = reader.digits(2), hours <= 23 else { return nil }
            var minutes = 0
            if reader.skip(":") {
                guard let value = reader.digits(2) else { return nil }
                minutes = value
            } else if let value = reader.digits(2) {
                minutes = value
            }
            guard minutes <= 59 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd,
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 253_402_300_800 else { return "1970-01-01T00:00:00.000Z" }
        var milliseconds = Int((interval * 1000).rounded(.down))
        let millisecondPart = ((milliseconds % 1000) + 1000) % 1000
        milliseconds -= millisecondPart
        let totalSeconds = milliseconds / 1000
        var days = totalSeconds / 86_400
        var secondsOfDay = totalSeconds % 86_400
        if secondsOfDay < 0 { secondsOfDay += 86_400; days -= 1 }
        let (year, month, day) = civilFromDays(days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(secondsOfDay / 3600, 2) + ":" + pad(secondsOfDay / 60 % 60, 2) + ":" + pad(secondsOfDay % 60, 2)
            + "." + pad(millisecondPart, 3) + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

/// Reads fixed-width digit fields without indexing a String by offsets.
private struct DigitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    mutating func digit() -> Int? {
        guard position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 else { return nil }
        defer { position += 1 }
        return Int(bytes[position] - 0x30)
    }

    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
