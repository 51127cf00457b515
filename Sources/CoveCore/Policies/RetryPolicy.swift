import Foundation

/// What the controller does when media stops downloading: how often it rebuilds the engine pipeline
/// and tries again before giving up with `FailedToPlayToEndTime` (or `Fail` while loading).
///
/// Beyond the seed, which gives up as soon as AVPlayer does. Every attempt is reported as a
/// `PlaybackEvent.retry` so the app can show it. Client errors (4xx other than 408 and 429) and media
/// errors are never retried: asking again cannot fix them.
public struct RetryPolicy: Sendable, Hashable {
    /// Rebuild attempts after a failure; 0 disables retrying.
    public let maximumAttempts: Int
    /// Delay before the first attempt; each later one waits `multiplier` times longer, up to `maximumDelay`.
    public let initialDelay: Duration
    public let multiplier: Double
    public let maximumDelay: Duration
    /// Each delay is randomised by ± this fraction (0…1), so many players do not retry in lockstep.
    public let jitter: Double
    /// After giving up, keep probing and resume by itself when the network is back (off by default,
    /// as in the seed, where the app calls `resumeVideo(at:autoPlay:)`).
    public let automaticResume: AutomaticResume?

    public struct AutomaticResume: Sendable, Hashable {
        /// Time between resume attempts.
        public let interval: Duration
        /// Give up probing after this many attempts (nil: until the session ends).
        public let maximumAttempts: Int?

        public init(interval: Duration = .seconds(5), maximumAttempts: Int? = nil) {
            self.interval = max(interval, .milliseconds(100))
            self.maximumAttempts = maximumAttempts.map { max($0, 1) }
        }
    }

    public init(
        maximumAttempts: Int = 4, initialDelay: Duration = .milliseconds(500), multiplier: Double = 2, maximumDelay: Duration = .seconds(8),
        jitter: Double = 0.2, automaticResume: AutomaticResume? = nil
    ) {
        self.maximumAttempts = max(maximumAttempts, 0)
        self.initialDelay = max(initialDelay, .zero)
        self.multiplier = multiplier.isFinite && multiplier >= 1 ? multiplier : 1
        self.maximumDelay = max(maximumDelay, self.initialDelay)
        self.jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        self.automaticResume = automaticResume
    }

    /// Four attempts over about 7.5 s (0.5, 1, 2, 4 s): rides out a server restart or a short outage.
    public static let `default` = RetryPolicy()
    /// Never retry: fail as soon as the engine does (the seed's behaviour).
    public static let none = RetryPolicy(maximumAttempts: 0)

    /// The wait before attempt `attempt` (1-based); `random` is uniform in 0..<1.
    public func delay(beforeAttempt attempt: Int, random: Double) -> Duration {
        let exponent = Double(max(attempt - 1, 0))
        let base = min(MediaTime(initialDelay).seconds * pow(multiplier, exponent), MediaTime(maximumDelay).seconds)
        let spread = base * jitter * (min(max(random, 0), 1) * 2 - 1)
        return .milliseconds(Int64(max(base + spread, 0) * 1000))
    }

    /// Whether asking again can help: the network or the server failed, not the request or the media.
    public func isRetryable(_ error: PlaybackError) -> Bool {
        if let status = error.httpStatus {
            return status >= 500 || status == 408 || status == 429
        }
        return [.networkUnreachable, .downloadFailed, .loadFailed].contains(error.code)
    }
}
