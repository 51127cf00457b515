import Foundation

/// What times transfers for the throughput estimate and the abandonment watch: a monotonic reading,
/// injected so a test measures a simulated link instead of how busy its machine happens to be
/// (Media3's `BandwidthMeter` takes a `Clock` for the same reason). Retry waits, timeouts and live
/// playlist refreshes stay on real time: they are about the server, not about what was measured.
public struct TransferClock: Sendable {
    /// Time since an arbitrary origin; never goes back.
    public let now: @Sendable () -> Duration

    public init(now: @escaping @Sendable () -> Duration) {
        self.now = now
    }

    /// The process's monotonic clock (what apps use).
    public static let continuous: TransferClock = {
        let origin = ContinuousClock.now
        return TransferClock { ContinuousClock.now - origin }
    }()
}
