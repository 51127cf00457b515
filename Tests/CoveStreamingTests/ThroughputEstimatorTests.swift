import CoveStreaming
import Foundation
import Testing

/// The estimate drives every variant choice: it must wait for a real measurement, ignore downloads too
/// small to time, settle on a steady rate, and trust a drop at once while doubting a rise.
@Suite("Throughput estimator")
struct ThroughputEstimatorTests {
    /// `bitsPerSecond` for `seconds`, as one download.
    static func feed(_ estimator: inout ThroughputEstimator, bitsPerSecond: Double, seconds: Double, times: Int = 1) {
        for _ in 0..<times { estimator.sample(bytes: Int(bitsPerSecond * seconds / 8), seconds: seconds) }
    }

    static func relativeError(_ value: Int, _ expected: Double) -> Double { abs(Double(value) - expected) / expected }

    @Test func noEstimateBeforeAMeasurement() {
        let estimator = ThroughputEstimator(.init(initialEstimate: 750_000))
        #expect(!estimator.hasEstimate)
        #expect(estimator.samples == 0)
        #expect(estimator.estimate == 750_000)
    }

    @Test func smallDownloadsAreIgnored() {
        var estimator = ThroughputEstimator(.init(minimumBytes: 16_000, initialEstimate: 500_000))
        estimator.sample(bytes: 15_999, seconds: 0.0001)
        estimator.sample(bytes: 0, seconds: 1)
        #expect(!estimator.hasEstimate)
        #expect(estimator.estimate == 500_000)
        estimator.sample(bytes: 16_000, seconds: 0.1)
        #expect(estimator.hasEstimate)
        #expect(estimator.samples == 1)
        #expect(Self.relativeError(estimator.estimate, 1_280_000) < 1e-6)
        // Still ignored after the first real sample: a tiny fast download does not inflate the estimate.
        estimator.sample(bytes: 1_000, seconds: 0.000_001)
        #expect(estimator.samples == 1)
        #expect(Self.relativeError(estimator.estimate, 1_280_000) < 1e-6)
    }

    @Test func aNonFiniteDurationIsIgnored() {
        var estimator = ThroughputEstimator()
        estimator.sample(bytes: 100_000, seconds: .infinity)
        estimator.sample(bytes: 100_000, seconds: .nan)
        #expect(!estimator.hasEstimate)
    }

    @Test func aSteadyRateConvergesToIt() {
        var estimator = ThroughputEstimator()
        Self.feed(&estimator, bitsPerSecond: 6_000_000, seconds: 0.5, times: 20)
        #expect(Self.relativeError(estimator.estimate, 6_000_000) < 0.001)
        // The zero start is corrected: even the first sample is its own rate, not a fraction of it.
        var first = ThroughputEstimator()
        Self.feed(&first, bitsPerSecond: 3_000_000, seconds: 1)
        #expect(Self.relativeError(first.estimate, 3_000_000) < 0.001)
    }

    /// Shaka's asymmetry: min(fast, slow). A rise shows at the slow average's pace, a drop at the fast one's.
    @Test func aDropShowsFasterThanARise() {
        var rising = ThroughputEstimator()
        Self.feed(&rising, bitsPerSecond: 2_000_000, seconds: 1, times: 40)
        Self.feed(&rising, bitsPerSecond: 8_000_000, seconds: 1)
        let risen = (Double(rising.estimate) - 2_000_000) / 6_000_000

        var falling = ThroughputEstimator()
        Self.feed(&falling, bitsPerSecond: 8_000_000, seconds: 1, times: 40)
        Self.feed(&falling, bitsPerSecond: 2_000_000, seconds: 1)
        let fallen = (8_000_000 - Double(falling.estimate)) / 6_000_000

        #expect(fallen > risen * 2, "fell \(fallen) of the way, rose \(risen)")
        // After one second the slow average (half-life 5 s) has moved 1 − 0.5^(1/5) ≈ 12.9 % of the
        // way, the fast one (half-life 2 s) 1 − 0.5^(1/2) ≈ 29.3 %.
        #expect(abs(risen - (1 - pow(0.5, 1.0 / 5))) < 0.01)
        #expect(abs(fallen - (1 - pow(0.5, 1.0 / 2))) < 0.01)
    }

    /// A long download says more about the network than a short one.
    @Test func samplesAreWeightedByDuration() {
        var longFirst = ThroughputEstimator()
        Self.feed(&longFirst, bitsPerSecond: 8_000_000, seconds: 4)
        Self.feed(&longFirst, bitsPerSecond: 2_000_000, seconds: 0.25)
        // An unweighted mean of the two rates would be 5 Mb/s.
        #expect(longFirst.estimate > 7_000_000, "\(longFirst.estimate)")

        var longLast = ThroughputEstimator()
        Self.feed(&longLast, bitsPerSecond: 8_000_000, seconds: 0.25)
        Self.feed(&longLast, bitsPerSecond: 2_000_000, seconds: 4)
        #expect(longLast.estimate < 3_000_000, "\(longLast.estimate)")
    }

    @Test func aRestartForgetsTheHistory() {
        var estimator = ThroughputEstimator()
        Self.feed(&estimator, bitsPerSecond: 6_000_000, seconds: 2, times: 5)
        estimator.restart(at: 800_000)
        #expect(estimator.estimate == 800_000)
        #expect(estimator.samples == 1)
        // Nonsense leaves it alone.
        estimator.restart(at: .nan)
        estimator.restart(at: 0)
        #expect(estimator.estimate == 800_000)
    }
}
