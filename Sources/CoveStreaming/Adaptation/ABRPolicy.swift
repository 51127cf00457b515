import Foundation

/// How the next segment's variant is chosen: throughput-based with Shaka's safety factors, made
/// buffer-aware as BOLA is — with little media buffered only a variant well inside the estimate is
/// allowed, with a full buffer more of it may be used — and always within the app's caps (preferred
/// peak bitrate, resolution cap turned into a bitrate).
public struct ABRPolicy: Sendable, Hashable {
    /// Share of the estimate a variant may use to be switched up to.
    public var upgradeFactor: Double
    /// Share of the estimate the current variant may use before switching down.
    public var downgradeFactor: Double
    /// Below this much media ahead, only half the estimate is trusted (a stall is near).
    public var lowBuffer: Double
    /// Above this much media ahead, the whole estimate may be used (there is time to recover).
    public var comfortableBuffer: Double

    public init(upgradeFactor: Double = 0.85, downgradeFactor: Double = 0.95, lowBuffer: Double = 2, comfortableBuffer: Double = 15) {
        self.upgradeFactor = min(max(upgradeFactor, 0.1), 1)
        self.downgradeFactor = min(max(downgradeFactor, upgradeFactor), 1)
        self.lowBuffer = max(lowBuffer, 0)
        self.comfortableBuffer = max(comfortableBuffer, self.lowBuffer + 0.001)
    }

    public static let `default` = ABRPolicy()

    /// The variant index to fetch next.
    /// - Parameters:
    ///   - variants: the ladder (any order).
    ///   - current: the variant the last segment came from (nil at the start or after a seek).
    ///   - estimate: bits per second from `ThroughputEstimator`.
    ///   - bufferAhead: seconds of media pushed ahead of the playhead.
    ///   - cap: the app's bitrate cap (nil: none). When no variant fits, the lowest plays.
    public func choose(variants: [VariantTrack], current: Int?, estimate: Int, bufferAhead: Double, cap: Int?) -> Int {
        let ordered = variants.sorted { ($0.bandwidth, $0.index) < ($1.bandwidth, $1.index) }
        guard let lowest = ordered.first else { return 0 }
        let allowed = ordered.filter { variant in cap.map { variant.bandwidth <= $0 } ?? true }
        guard !allowed.isEmpty else { return lowest.index }
        let scale: Double
        if bufferAhead <= lowBuffer {
            scale = 0.5
        } else if bufferAhead >= comfortableBuffer {
            scale = 1
        } else {
            scale = 0.5 + 0.5 * (bufferAhead - lowBuffer) / (comfortableBuffer - lowBuffer)
        }
        let budget = Double(estimate) * scale
        var choice = allowed[0]
        for variant in allowed where Double(variant.bandwidth) <= budget * upgradeFactor {
            choice = variant
        }
        // Hysteresis: stay on the current variant while it still fits the looser downgrade budget, so a
        // small wobble of the estimate does not flip between neighbours.
        if let current, let playing = allowed.first(where: { $0.index == current }), playing.bandwidth > choice.bandwidth,
            Double(playing.bandwidth) <= budget * downgradeFactor
        {
            return playing.index
        }
        return choice.index
    }
}
