import Foundation

/// How the next segment's variant is chosen: throughput-based with Shaka's safety factors, made
/// buffer-aware as hls.js is — a variant is allowed only when its next segment is expected to arrive
/// well before the media buffered ahead runs out — and always within the app's caps (preferred peak
/// bitrate, resolution cap turned into a bitrate).
///
/// The buffer check replaces a blanket discount of the estimate: with a small buffer on a fast link
/// the top variant still fits (its segment takes milliseconds), while on a link barely above a
/// variant's bitrate that variant waits until enough media is buffered to ride out one slow segment.
/// A download that turns slow after it started is `AbandonmentRule`'s job.
public struct ABRPolicy: Sendable, Hashable {
    /// Share of the estimate a variant may use to be switched up to.
    public var upgradeFactor: Double
    /// Share of the estimate the current variant may use before switching down.
    public var downgradeFactor: Double
    /// Share of the media buffered ahead that one segment's download may take.
    public var bufferShare: Double
    /// How long one segment may take with (almost) nothing buffered: at a start, after a seek, in a stall.
    public var emptyBufferFetchTime: Double

    public init(upgradeFactor: Double = 0.85, downgradeFactor: Double = 0.95, bufferShare: Double = 0.8, emptyBufferFetchTime: Double = 1) {
        self.upgradeFactor = upgradeFactor.isFinite ? min(max(upgradeFactor, 0.1), 1) : 0.85
        self.downgradeFactor = downgradeFactor.isFinite ? min(max(downgradeFactor, self.upgradeFactor), 1) : max(0.95, self.upgradeFactor)
        self.bufferShare = bufferShare.isFinite ? min(max(bufferShare, 0.1), 1) : 0.8
        self.emptyBufferFetchTime = emptyBufferFetchTime.isFinite ? max(emptyBufferFetchTime, 0) : 1
    }

    public static let `default` = ABRPolicy()

    /// The variant index to fetch next.
    /// - Parameters:
    ///   - variants: the ladder (any order).
    ///   - current: the variant the last segment came from (nil at the start or after a seek).
    ///   - estimate: bits per second from `ThroughputEstimator`.
    ///   - bufferAhead: seconds of media pushed ahead of the playhead.
    ///   - segmentDuration: seconds of media in the next segment.
    ///   - cap: the app's bitrate cap (nil: none). When no variant fits, the lowest plays.
    public func choose(variants: [VariantTrack], current: Int?, estimate: Int, bufferAhead: Double, segmentDuration: Double, cap: Int?) -> Int {
        let ordered = variants.sorted { ($0.bandwidth, $0.index) < ($1.bandwidth, $1.index) }
        guard let lowest = ordered.first else { return 0 }
        let allowed = ordered.filter { Self.withinCap($0, cap) }
        guard !allowed.isEmpty else { return lowest.index }
        let fetchBudget = max(bufferAhead * bufferShare, emptyBufferFetchTime)
        func fits(_ variant: VariantTrack, share: Double) -> Bool {
            Self.affords(variant, estimate: estimate, share: share)
                && Self.fetchSeconds(bandwidth: variant.bandwidth, segmentDuration: segmentDuration, estimate: estimate) <= fetchBudget
        }
        var choice = allowed[0]
        for variant in allowed where fits(variant, share: upgradeFactor) {
            choice = variant
        }
        // Hysteresis: stay on the current variant while it still fits the looser downgrade share, so a
        // small wobble of the estimate does not flip between neighbours.
        if let current, let playing = allowed.first(where: { $0.index == current }), playing.bandwidth > choice.bandwidth, fits(playing, share: downgradeFactor)
        {
            return playing.index
        }
        return choice.index
    }

    /// The media to hold ahead so that the best variant the estimate affords (within the cap) passes the
    /// arrival check: with long segments or a link only a few times faster than a variant, a small
    /// forward buffer would otherwise keep that variant out until the buffer optimizer's target grows.
    public func bufferToAfford(variants: [VariantTrack], estimate: Int, segmentDuration: Double, cap: Int?) -> Double {
        let affordable = variants.filter { Self.withinCap($0, cap) && Self.affords($0, estimate: estimate, share: upgradeFactor) }
        guard let best = affordable.max(by: { $0.bandwidth < $1.bandwidth }) else { return 0 }
        return Self.fetchSeconds(bandwidth: best.bandwidth, segmentDuration: segmentDuration, estimate: estimate) / bufferShare
    }

    private static func withinCap(_ variant: VariantTrack, _ cap: Int?) -> Bool { cap.map { variant.bandwidth <= $0 } ?? true }

    /// The variant's bitrate fits `share` of the estimate.
    private static func affords(_ variant: VariantTrack, estimate: Int, share: Double) -> Bool {
        Double(variant.bandwidth) <= Double(estimate) * share
    }

    /// Expected seconds to download one segment of a variant at `estimate` bits per second.
    public static func fetchSeconds(bandwidth: Int, segmentDuration: Double, estimate: Int) -> Double {
        guard estimate > 0 else { return .infinity }
        return Double(bandwidth) * max(segmentDuration, 0) / Double(estimate)
    }
}
