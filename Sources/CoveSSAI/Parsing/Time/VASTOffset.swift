import CoveXML

/// A point inside one creative: a `skipoffset` or a progress `Tracking` event's `offset`.
/// VAST allows either a time or a percentage of the creative's duration.
public enum VASTOffset: Sendable, Hashable, CustomStringConvertible {
    /// `HH:MM:SS(.mmm)` from the start of the creative.
    case time(AdTime)
    /// `n%` of the creative's duration, from 0 to 100.
    case percentage(Double)

    /// Reads `HH:MM:SS(.mmm)` or `n%`.
    public static func parse(_ text: some StringProtocol) throws(AdTimeError) -> VASTOffset {
        let trimmed = XMLTreeElement.trimmed(String(text))
        if trimmed.hasSuffix("%") { return .percentage(try parsePercentage(trimmed)) }
        return .time(try AdTime.parse(trimmed))
    }

    /// Also accepts bare seconds (`offset="7"`), which legacy Once UX VMAPs write on quartile
    /// tracking events.
    static func parseTrackingOffset(_ text: String) throws(AdTimeError) -> VASTOffset {
        let trimmed = XMLTreeElement.trimmed(text)
        if !trimmed.isEmpty, !trimmed.contains(":"), !trimmed.hasSuffix("%") {
            return .time(try AdTime.parseSeconds(trimmed))
        }
        return try parse(trimmed)
    }

    public var description: String {
        switch self {
        case .time(let time): time.description
        case .percentage(let value): "\(value)%"
        }
    }
}
