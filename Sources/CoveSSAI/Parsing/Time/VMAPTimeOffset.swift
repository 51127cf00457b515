import CoveXML

/// Where a VMAP ad break sits, as the `timeOffset` attribute says, kept in the form written:
/// turning `end`, `n%` or `#n` into a stream position needs the content length and the other
/// breaks, which is the timeline layer's job, not the parser's.
///
/// Brightcove SSAI offsets are content time (the position in the content without ads).
public enum VMAPTimeOffset: Sendable, Hashable, CustomStringConvertible {
    /// `start`: a pre-roll.
    case start
    /// `end`: a post-roll.
    case end
    /// `HH:MM:SS(.mmm)`: a time in the content.
    case time(AdTime)
    /// `n%`: a fraction of the content's duration, from 0 to 100.
    case percentage(Double)
    /// `#n`: the n-th (1-based) cue point or ad opportunity in the content.
    case position(Int)

    /// Reads a `timeOffset` value. `start` and `end` match in any letter case.
    public static func parse(_ text: some StringProtocol) throws(AdTimeError) -> VMAPTimeOffset {
        let trimmed = XMLTreeElement.trimmed(String(text))
        switch trimmed.lowercased() {
        case "": throw AdTimeError(.empty, value: text)
        case "start": return .start
        case "end": return .end
        default: break
        }
        if trimmed.hasSuffix("%") { return .percentage(try parsePercentage(trimmed)) }
        if trimmed.hasPrefix("#") {
            let digits = trimmed.utf8.dropFirst()
            if digits.first == UInt8(ascii: "-") { throw AdTimeError(.negative, value: trimmed) }
            let value = try AdTime.integer(digits, original: trimmed)
            guard value >= 1 else { throw AdTimeError(.outOfRange, value: trimmed) }
            guard value <= Int64(Int32.max) else { throw AdTimeError(.overflow, value: trimmed) }
            return .position(Int(value))
        }
        return .time(try AdTime.parse(trimmed))
    }

    public var description: String {
        switch self {
        case .start: "start"
        case .end: "end"
        case .time(let time): time.description
        case .percentage(let value): "\(value)%"
        case .position(let index): "#\(index)"
        }
    }
}
