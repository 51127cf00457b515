/// The WebVTT timestamp grammar ("collect a WebVTT timestamp" in the spec), over bytes so the
/// timing line of every cue is read without building strings.
enum TimestampSyntax {
    /// Why a timestamp could not be read, phrased for a warning.
    enum Failure: Error, Hashable {
        case missing
        case notADigit
        case twoDigitsNeeded
        case expectedColon
        case expectedFraction
        case threeDigitsNeeded
        case above59
        case tooLarge

        var explanation: String {
            switch self {
            case .missing: "the time is missing"
            case .notADigit: "a time must start with a digit (times are never negative)"
            case .twoDigitsNeeded: "minutes and seconds need exactly two digits"
            case .expectedColon: "expected ':' between hours, minutes and seconds"
            case .expectedFraction: "expected '.' and three digits of milliseconds"
            case .threeDigitsNeeded: "milliseconds need exactly three digits"
            case .above59: "minutes and seconds must be 00 to 59"
            case .tooLarge: "the hours are too large to represent"
            }
        }
    }

    /// Reads one timestamp starting at `index` (not past `end`) and leaves `index` after it.
    static func collect(_ bytes: [UInt8], at index: inout Int, end: Int) -> Result<WebVTTTimestamp, Failure> {
        guard index < end else { return .failure(.missing) }
        guard isDigit(bytes[index]) else { return .failure(.notADigit) }
        // The first field is hours unless it is exactly two digits of at most 59.
        let firstStart = index
        guard let first = digits(bytes, at: &index, end: end) else { return .failure(.tooLarge) }
        let firstIsHours = index - firstStart != 2 || first > 59
        guard index < end, bytes[index] == UInt8(ascii: ":") else { return .failure(.expectedColon) }
        index += 1
        guard let second = twoDigits(bytes, at: &index, end: end) else { return .failure(.twoDigitsNeeded) }
        var hours: Int64 = 0
        var minutes = first
        var seconds = second
        if firstIsHours || (index < end && bytes[index] == UInt8(ascii: ":")) {
            guard index < end, bytes[index] == UInt8(ascii: ":") else { return .failure(.expectedColon) }
            index += 1
            guard let third = twoDigits(bytes, at: &index, end: end) else { return .failure(.twoDigitsNeeded) }
            hours = first
            minutes = second
            seconds = third
        }
        guard index < end, bytes[index] == UInt8(ascii: ".") else { return .failure(.expectedFraction) }
        index += 1
        let fractionStart = index
        guard let millis = digits(bytes, at: &index, end: end), index - fractionStart == 3 else {
            return .failure(.threeDigitsNeeded)
        }
        guard minutes <= 59, seconds <= 59 else { return .failure(.above59) }
        let (hourMillis, overflow) = hours.multipliedReportingOverflow(by: 3_600_000)
        let rest = minutes * 60_000 + seconds * 1000 + millis
        guard !overflow, hourMillis <= Int64.max - rest else { return .failure(.tooLarge) }
        return .success(WebVTTTimestamp(milliseconds: hourMillis + rest))
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// A run of ASCII digits as a number, or nil when it does not fit (the run is still consumed).
    static func digits(_ bytes: [UInt8], at index: inout Int, end: Int) -> Int64? {
        var value: Int64 = 0
        var fits = true
        while index < end, isDigit(bytes[index]) {
            if fits {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int64(bytes[index] &- UInt8(ascii: "0")))
                if o1 || o2 { fits = false } else { value = sum }
            }
            index += 1
        }
        return fits ? value : nil
    }

    private static func twoDigits(_ bytes: [UInt8], at index: inout Int, end: Int) -> Int64? {
        let start = index
        guard let value = digits(bytes, at: &index, end: end), index - start == 2 else { return nil }
        return value
    }
}
