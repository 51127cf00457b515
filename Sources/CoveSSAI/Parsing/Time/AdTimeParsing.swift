import CoveXML

/// Readers for the time forms ad documents use. All work on the UTF-8 bytes with checked
/// arithmetic, so no input can trap, and all refuse signs, exponents, `nan` and `inf`,
/// which a permissive `Double(_:)` would let through.
extension AdTime {
    /// Reads `HH:MM:SS` or `HH:MM:SS.f…` (VAST `Duration`, `skipoffset`, VMAP `timeOffset`).
    ///
    /// Hours take any number of digits; minutes and seconds take two and must be below 60.
    /// A trailing zero time-zone offset (`+00:00`, `-00:00`, `Z`) is accepted and ignored,
    /// because legacy Once UX servers write durations as `00:00:30.0666666+00:00`.
    public static func parse(_ text: some StringProtocol) throws(AdTimeError) -> AdTime {
        let trimmed = XMLTreeElement.trimmed(String(text))
        var bytes = Array(trimmed.utf8)
        guard !bytes.isEmpty else { throw AdTimeError(.empty, value: text) }
        if bytes[0] == UInt8(ascii: "-") { throw AdTimeError(.negative, value: trimmed) }
        try stripZeroZone(&bytes, original: trimmed)
        let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw AdTimeError(.malformed, value: trimmed) }
        let hours = try integer(parts[0], original: trimmed)
        guard parts[1].count == 2 else { throw AdTimeError(.malformed, value: trimmed) }
        let minutes = try integer(parts[1], original: trimmed)
        let secondsPart = parts[2].split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard secondsPart[0].count == 2 else { throw AdTimeError(.malformed, value: trimmed) }
        let seconds = try integer(secondsPart[0], original: trimmed)
        guard minutes < 60, seconds < 60 else { throw AdTimeError(.outOfRange, value: trimmed) }
        let fraction = secondsPart.count == 2 ? try fractionNanoseconds(secondsPart[1], original: trimmed) : 0
        let (hourSeconds, overflow) = hours.multipliedReportingOverflow(by: 3600)
        let (wholeSeconds, overflow2) = hourSeconds.addingReportingOverflow(minutes * 60 + seconds)
        guard !overflow, !overflow2 else { throw AdTimeError(.overflow, value: trimmed) }
        return try combine(wholeSeconds: wholeSeconds, fraction: fraction, original: trimmed)
    }

    /// Reads decimal seconds such as `24.0574` (Brightcove's `contentlength` and `payloadlength`).
    public static func parseSeconds(_ text: some StringProtocol) throws(AdTimeError) -> AdTime {
        let trimmed = XMLTreeElement.trimmed(String(text))
        let bytes = Array(trimmed.utf8)
        guard !bytes.isEmpty else { throw AdTimeError(.empty, value: text) }
        if bytes[0] == UInt8(ascii: "-") { throw AdTimeError(.negative, value: trimmed) }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let whole = try integer(parts[0], original: trimmed)
        let fraction = parts.count == 2 ? try fractionNanoseconds(parts[1], original: trimmed) : 0
        return try combine(wholeSeconds: whole, fraction: fraction, original: trimmed)
    }

    private static func stripZeroZone(_ bytes: inout [UInt8], original: String) throws(AdTimeError) {
        if bytes.last == UInt8(ascii: "Z") {
            bytes.removeLast()
            return
        }
        guard let sign = bytes.lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) else { return }
        let zone = bytes[(sign + 1)...]
        guard zone.elementsEqual("00:00".utf8) || zone.elementsEqual("0000".utf8) || zone.elementsEqual("00".utf8) else {
            throw AdTimeError(.malformed, value: original)
        }
        bytes.removeSubrange(sign...)
    }

    /// One or more ASCII digits, at most 18 (so the value fits in Int64 before scaling).
    static func integer(_ digits: some Collection<UInt8>, original: String) throws(AdTimeError) -> Int64 {
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw AdTimeError(.malformed, value: original)
        }
        let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
        guard significant.count <= 18 else { throw AdTimeError(.overflow, value: original) }
        return significant.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }

    /// One to eighteen fractional digits, as nanoseconds (digits past the ninth are cut).
    private static func fractionNanoseconds(_ digits: some Collection<UInt8>, original: String) throws(AdTimeError) -> Int64 {
        guard !digits.isEmpty, digits.count <= 18,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { throw AdTimeError(.malformed, value: original) }
        var value: Int64 = 0
        for (index, digit) in digits.prefix(9).enumerated() {
            value += Int64(digit - UInt8(ascii: "0")) * pow10(8 - index)
        }
        return value
    }

    private static func pow10(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    private static func combine(wholeSeconds: Int64, fraction: Int64, original: String) throws(AdTimeError) -> AdTime {
        let (scaled, overflow) = wholeSeconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = scaled.addingReportingOverflow(fraction)
        guard !overflow, !overflow2 else { throw AdTimeError(.overflow, value: original) }
        return AdTime(uncheckedNanoseconds: total)
    }
}

/// Reads `n%` or `n.n%` as a percentage from 0 to 100.
func parsePercentage(_ text: String) throws(AdTimeError) -> Double {
    var bytes = Array(text.utf8)
    guard bytes.last == UInt8(ascii: "%") else { throw AdTimeError(.malformed, value: text) }
    bytes.removeLast()
    if bytes.first == UInt8(ascii: "-") { throw AdTimeError(.negative, value: text) }
    let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
    let isDigits: (ArraySlice<UInt8>) -> Bool = { part in
        !part.isEmpty && part.count <= 18 && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
    guard parts.allSatisfy(isDigits), let value = Double(String(decoding: bytes, as: UTF8.self)) else {
        throw AdTimeError(.malformed, value: text)
    }
    guard value <= 100 else { throw AdTimeError(.outOfRange, value: text) }
    return value
}
