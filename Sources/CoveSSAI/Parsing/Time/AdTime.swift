/// A non-negative time from an ad document: a `Duration`, a break offset, a `skipoffset`,
/// `contentlength`, `payloadlength`.
///
/// Held as whole nanoseconds (an integer), not as `Double` seconds or milliseconds, because
/// Brightcove writes four fractional digits (`00:00:05.9392`) and its totals must add up
/// exactly: `payloadlength = contentlength + Σ Duration`. Milliseconds would drop digits and
/// doubles would not sum exactly; nanoseconds are also what CoveCore's `MediaTime` holds, so the
/// timeline layer converts without loss. Fractions finer than a nanosecond are cut, not rounded.
public struct AdTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let nanoseconds: Int64

    public static let zero = AdTime(uncheckedNanoseconds: 0)

    /// Nil for negative values: ad times are never negative.
    public init?(nanoseconds: Int64) {
        guard nanoseconds >= 0 else { return nil }
        self.nanoseconds = nanoseconds
    }

    init(uncheckedNanoseconds: Int64) {
        self.nanoseconds = uncheckedNanoseconds
    }

    /// Nil for negative values or values too large to hold.
    public init?(milliseconds: Int64) {
        let (value, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        self.init(nanoseconds: value)
    }

    /// Seconds as a `Double`, for display and for APIs that take seconds.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// Whole milliseconds, rounded half up.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 >= 500_000 ? 1 : 0) }

    public static func < (lhs: AdTime, rhs: AdTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The sum, or nil if it would overflow.
    public func adding(_ other: AdTime) -> AdTime? {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(other.nanoseconds)
        return overflow ? nil : AdTime(uncheckedNanoseconds: sum)
    }

    /// `HH:MM:SS` with as many fractional digits as needed, for example `00:00:05.9392`.
    public var description: String {
        let totalSeconds = nanoseconds / 1_000_000_000
        let fraction = nanoseconds % 1_000_000_000
        let hours = totalSeconds / 3600
        let minutes = (totalSeconds / 60) % 60
        let seconds = totalSeconds % 60
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(two(hours)):\(two(minutes)):\(two(seconds))"
        if fraction > 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 9 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += ".\(digits)"
        }
        return text
    }
}
