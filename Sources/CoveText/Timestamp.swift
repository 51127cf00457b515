/// A WebVTT time, kept as whole milliseconds because that is the format's precision: equality
/// and ordering are exact, and writing a parsed time back gives the same time.
public struct WebVTTTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let milliseconds: Int64

    /// - Precondition: `milliseconds >= 0` (WebVTT has no negative times).
    public init(milliseconds: Int64) {
        precondition(milliseconds >= 0, "WebVTT timestamps are never negative")
        self.milliseconds = milliseconds
    }

    /// Reads exactly one timestamp, `mm:ss.ttt` or `hh:mm:ss.ttt` (hours may have any number of
    /// digits); nil for anything else, surrounding spaces included.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        var index = 0
        guard case .success(let value) = TimestampSyntax.collect(bytes, at: &index, end: bytes.count),
            index == bytes.count
        else { return nil }
        self = value
    }

    public var seconds: Double { Double(milliseconds) / 1000 }

    /// The time as WebVTT writes it, always with hours (`00:01:02.003`), so that
    /// `WebVTTTimestamp(t.description) == t` for every timestamp.
    public var description: String {
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60
        let millis = milliseconds % 1000
        return Self.padded(hours, 2) + ":" + Self.padded(minutes, 2) + ":" + Self.padded(seconds, 2) + "." + Self.padded(millis, 3)
    }

    public static func < (lhs: WebVTTTimestamp, rhs: WebVTTTimestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
