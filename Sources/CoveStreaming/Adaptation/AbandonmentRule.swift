import Foundation

/// When to give up a segment download that turned slow and fetch the same segment from a lower
/// variant instead (hls.js's abandon rules, Shaka's `abandonLoad`): the link dropped after the
/// variant was chosen, and finishing the download would empty the buffer.
///
/// Judged from the download's own progress, not the estimator's history: the download is kept while
/// what is left of it arrives early enough that one more segment (of the lowest variant) still fits
/// before the media buffered ahead runs out; otherwise the highest lower variant whose whole segment
/// would arrive in time at the rate just measured is taken, or — when none would — the lowest, if even
/// that is quicker than finishing. The rate is the slower of the download's average and its last
/// half second: after a sudden drop the average still carries the fast start, and every half second
/// of waiting is half a second of buffer the replacement will not have.
public struct AbandonmentRule: Sendable, Hashable {
    /// A download is not judged earlier (its first bytes say little about its rate).
    public var minimumElapsed: Double
    /// The share of the measured rate a lower variant's segment is planned with.
    public var rateShare: Double

    public init(minimumElapsed: Double = 0.5, rateShare: Double = 0.8) {
        self.minimumElapsed = minimumElapsed.isFinite ? max(minimumElapsed, 0) : 0.5
        self.rateShare = rateShare.isFinite ? min(max(rateShare, 0.1), 1) : 0.8
    }

    public static let `default` = AbandonmentRule()

    /// The variant index to fetch the segment from instead, or nil to keep downloading.
    /// - Parameters:
    ///   - elapsed: seconds since the request was sent.
    ///   - received: body bytes received so far.
    ///   - recentRate: bytes per second over the last half second of the download, when it is that old.
    ///   - expected: the body's announced length (nil: estimated from the variant's bandwidth).
    ///   - segmentDuration: seconds of media in the segment.
    ///   - loading: the variant being downloaded.
    ///   - variants: the ladder the replacement may come from (already within the app's caps).
    ///   - bufferAhead: seconds of media buffered ahead of the playhead now.
    public func replacement(
        elapsed: Double, received: Int, recentRate: Double? = nil, expected: Int?, segmentDuration: Double, loading: VariantTrack, variants: [VariantTrack],
        bufferAhead: Double
    ) -> Int? {
        guard elapsed >= minimumElapsed, elapsed > 0 else { return nil }
        let lower = variants.filter { $0.bandwidth < loading.bandwidth }.sorted { ($0.bandwidth, $0.index) > ($1.bandwidth, $1.index) }
        guard let lowest = lower.last else { return nil }
        // In Double throughout: a hostile BANDWIDTH × EXTINF must not overflow an Int.
        let total = expected.map(Double.init) ?? Double(loading.bandwidth) * max(segmentDuration, 0) / 8
        let rate = min(Double(received) / elapsed, recentRate.map { max($0, 0) } ?? .infinity)
        guard rate > 0 else {
            // Not a byte lately: give up once half of the buffer went waiting.
            return elapsed * 2 >= bufferAhead ? lowest.index : nil
        }
        func seconds(_ variant: VariantTrack) -> Double { Double(variant.bandwidth) * segmentDuration / 8 / (rate * rateShare) }
        let remaining = max(total - Double(received), 0) / rate
        if remaining + seconds(lowest) < bufferAhead { return nil }
        if let fitting = lower.first(where: { seconds($0) < bufferAhead && seconds($0) < remaining }) { return fitting.index }
        return seconds(lowest) < remaining ? lowest.index : nil
    }
}
