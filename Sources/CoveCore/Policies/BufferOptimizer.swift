/// How much media the engine keeps buffered ahead of the playhead (the seed's buffer optimizer).
///
/// A viewer who leaves after five seconds should not have cost a minute of video. With the default
/// method the forward buffer starts at `minimum` and grows with the time actually watched — half a
/// second of buffer per second viewed — up to `maximum`, so teasers stay cheap while long viewing
/// still rides out network dips. `.none` leaves the engine's own policy (30 s) alone.
///
/// Defaults (2 s → 30 s) come from `make bench` on the 3-variant test ladder with 2 s segments: a
/// 5-second teaser holds 3 s beyond the playhead where Chromium's own HLS holds 7 s, at the same
/// 720p. A small buffer is safe because Cove's streaming engine guards it (see `StreamingSession`):
/// it never holds less than two downloads of the next segment at the measured rate, ABR only picks
/// a variant whose segment arrives before the buffer runs out, and a download that turns slow is
/// abandoned for a lower variant — so the 6 → 0.8 Mbit/s step-down plays without a stall.
/// The seed's 30–90 s defaults were tuned for AVPlayer and waste far more here.
public struct BufferOptimizer: Sendable, Hashable {
    public enum Method: Sendable, Hashable {
        /// The engine decides (the seed's `BCOVBufferOptimizerMethodNone`).
        case none
        /// Start small, grow as the viewer watches (the seed's `BCOVBufferOptimizerMethodDefault`).
        case `default`
    }

    public let method: Method
    /// The forward buffer at the start of every session; at least 1 s.
    public let minimum: Duration
    /// The cap the buffer grows to; at least `minimum`.
    public let maximum: Duration

    /// Values below 1 s become 1 s (the seed's rule) and a maximum below the minimum becomes the minimum.
    public init(method: Method = .default, minimum: Duration = .seconds(2), maximum: Duration = .seconds(30)) {
        self.method = method
        let floor = max(minimum, .seconds(1))
        self.minimum = floor
        self.maximum = max(maximum, floor)
    }

    public static let `default` = BufferOptimizer()
    /// Leaves buffering to the engine.
    public static let none = BufferOptimizer(method: .none)

    /// The seed's option keys, for apps that configure the controller from a dictionary.
    public enum OptionKey {
        public static let method = "BufferOptimizerMethod"
        public static let minimumDuration = "BufferOptimizerMinimumDuration"
        public static let maximumDuration = "BufferOptimizerMaximumDuration"
    }

    /// Reads the seed's keys: `method` is `"none"`/`"default"` (or 0/1), durations are seconds.
    /// Missing keys keep the defaults; a wrong type or value is an `.invalidArgument` error naming the key.
    public init(options: JSONObject) throws(PlaybackError) {
        let defaults = BufferOptimizer()
        var method = defaults.method
        if let raw = options[OptionKey.method] {
            switch raw {
            case .string("none"), .int(0): method = .none
            case .string("default"), .int(1): method = .default
            default: throw PlaybackError(.invalidArgument, "\(OptionKey.method) must be \"none\" or \"default\" (or 0/1), not \(raw.serialized())")
            }
        }
        func seconds(_ key: String, _ fallback: Duration) throws(PlaybackError) -> Duration {
            guard let raw = options[key] else { return fallback }
            guard let value = raw.doubleValue, value.isFinite, value >= 1 else {
                throw PlaybackError(.invalidArgument, "\(key) must be a number of seconds ≥ 1, not \(raw.serialized())")
            }
            return .milliseconds(Int64(value * 1000))
        }
        self.init(
            method: method, minimum: try seconds(OptionKey.minimumDuration, defaults.minimum), maximum: try seconds(OptionKey.maximumDuration, defaults.maximum)
        )
    }

    /// Seconds of forward buffer added per second watched.
    public static let growthPerSecondWatched = 0.5

    /// The forward buffer to ask for after `watched` of viewing; nil for `.none`.
    public func target(afterWatching watched: Duration) -> Duration? {
        guard method == .default else { return nil }
        return min(max(watched * Self.growthPerSecondWatched, minimum), maximum)
    }
}
