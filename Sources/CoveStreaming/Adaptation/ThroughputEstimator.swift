import Foundation

/// The network's bits per second, estimated from segment downloads as Shaka does: two exponentially
/// weighted moving averages (a fast one that reacts in seconds, a slow one that remembers), weighted
/// by how long each download took; the estimate is the lower of the two, so a drop shows at once and a
/// burst does not fool it. Downloads too small to measure (under `minimumBytes`) are ignored.
public struct ThroughputEstimator: Sendable, Hashable {
    public struct Configuration: Sendable, Hashable {
        public var fastHalfLife: Double
        public var slowHalfLife: Double
        public var minimumBytes: Int
        /// What to assume before any measurement.
        public var initialEstimate: Int

        public init(fastHalfLife: Double = 2, slowHalfLife: Double = 5, minimumBytes: Int = 16_000, initialEstimate: Int = 1_000_000) {
            self.fastHalfLife = max(fastHalfLife, 0.1)
            self.slowHalfLife = max(slowHalfLife, 0.1)
            self.minimumBytes = max(minimumBytes, 0)
            self.initialEstimate = max(initialEstimate, 1)
        }
    }

    private struct Average: Sendable, Hashable {
        let alpha: Double
        var estimate = 0.0
        var totalWeight = 0.0

        init(halfLife: Double) { alpha = exp(log(0.5) / halfLife) }

        mutating func add(weight: Double, value: Double) {
            let adjusted = pow(alpha, weight)
            estimate = value * (1 - adjusted) + adjusted * estimate
            totalWeight += weight
        }

        /// Corrected for the zero start (as Shaka's EWMA does).
        var value: Double { estimate / (1 - pow(alpha, totalWeight)) }
    }

    public let configuration: Configuration
    private var fast: Average
    private var slow: Average
    public private(set) var samples = 0

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
        fast = Average(halfLife: configuration.fastHalfLife)
        slow = Average(halfLife: configuration.slowHalfLife)
    }

    /// Adds one download: `bytes` in `seconds` (from request to last byte).
    public mutating func sample(bytes: Int, seconds: Double) {
        guard bytes >= configuration.minimumBytes, seconds.isFinite else { return }
        let duration = max(seconds, 0.001)
        let bitsPerSecond = Double(bytes) * 8 / duration
        fast.add(weight: duration, value: bitsPerSecond)
        slow.add(weight: duration, value: bitsPerSecond)
        samples += 1
    }

    /// Forgets the history: the link is now `bitsPerSecond` (as hls.js resets its estimator when it
    /// abandons a download — the averages would take seconds to follow a drop the download just proved).
    public mutating func restart(at bitsPerSecond: Double) {
        guard bitsPerSecond.isFinite, bitsPerSecond > 0 else { return }
        fast = Average(halfLife: configuration.fastHalfLife)
        slow = Average(halfLife: configuration.slowHalfLife)
        fast.add(weight: 1, value: bitsPerSecond)
        slow.add(weight: 1, value: bitsPerSecond)
        samples = 1
    }

    /// True once a download was big enough to measure.
    public var hasEstimate: Bool { samples > 0 }

    /// Bits per second.
    public var estimate: Int {
        guard samples > 0 else { return configuration.initialEstimate }
        let value = min(fast.value, slow.value)
        return value.isFinite ? Int(min(value, Double(Int.max / 2))) : configuration.initialEstimate
    }
}
