import CoveStreaming
import Foundation
import Testing

/// Which variant the next segment comes from: the highest that fits a safe share of the estimate and
/// arrives before the buffer runs out, never above the app's cap, without flapping between neighbours.
@Suite("ABR policy")
struct ABRPolicyTests {
    static let url = URL(string: "https://cdn.example.com/v.m3u8")!

    /// Variants listed in the given bandwidth order (index = listed position).
    static func ladder(_ bandwidths: [Int]) -> [VariantTrack] {
        bandwidths.enumerated().map { VariantTrack(index: $0.offset, bandwidth: $0.element, playlistURL: url) }
    }

    static let lowToHigh = ladder([500_000, 1_000_000, 2_000_000, 4_000_000])
    let policy = ABRPolicy.default

    @Test func highestVariantUnderTheUpgradeShareWithAComfortableBuffer() {
        // 0.85 × 3 Mb/s = 2.55 Mb/s: the 2 Mb/s variant fits, 4 Mb/s does not.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 3_000_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 2)
        // 0.85 × 2.3 Mb/s = 1.955 Mb/s: 2 Mb/s no longer fits.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 2_300_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 1)
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 50_000_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 3)
        // Nothing fits: the lowest still plays.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 0)
    }

    @Test func aVariantMustArriveBeforeTheBufferRunsOut() {
        // 5 Mb/s: 0.85 × 5 = 4.25 Mb/s fits the 4 Mb/s variant, whose 2 s segment takes 1.6 s to load.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: 10, segmentDuration: 2, cap: nil) == 3)
        // 1.6 s > 0.8 × 1.5 s (and > the 1 s allowed with an empty buffer): the 2 Mb/s variant (0.8 s) instead.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: 1.5, segmentDuration: 2, cap: nil) == 2)
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: 0, segmentDuration: 2, cap: nil) == 2)
        // 2.0 s of buffer: 1.6 s ≤ 0.8 × 2.0.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: 2.0, segmentDuration: 2, cap: nil) == 3)
        // On a fast link a small buffer does not hold quality back: the top segment takes 8 ms.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 1_000_000_000, bufferAhead: 0.5, segmentDuration: 2, cap: nil) == 3)
        // Long segments take longer: 6 s at 4 Mb/s over 5 Mb/s is 4.8 s, more than 0.8 × 5 s.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: 5, segmentDuration: 6, cap: nil) == 2)
        // The current variant is left when its segment would not arrive in time, hysteresis or not.
        #expect(policy.choose(variants: Self.lowToHigh, current: 3, estimate: 5_000_000, bufferAhead: 0.2, segmentDuration: 2, cap: nil) == 2)
        // Never a higher variant for less buffer.
        var previous = 0
        for buffer in stride(from: 0.0, through: 20, by: 0.25) {
            let choice = policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: buffer, segmentDuration: 2, cap: nil)
            #expect(Self.lowToHigh[choice].bandwidth >= Self.lowToHigh[previous].bandwidth, "buffer \(buffer)")
            previous = choice
        }
    }

    @Test func theCapWins() {
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000_000, bufferAhead: 30, segmentDuration: 2, cap: 1_500_000) == 1)
        #expect(
            policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000_000, bufferAhead: 30, segmentDuration: 2, cap: 2_000_000) == 2,
            "the cap is inclusive")
        // The current variant above the cap is left, hysteresis or not.
        #expect(policy.choose(variants: Self.lowToHigh, current: 3, estimate: 100_000_000, bufferAhead: 30, segmentDuration: 2, cap: 1_500_000) == 1)
        // Nothing under the cap: the lowest plays.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000_000, bufferAhead: 30, segmentDuration: 2, cap: 100_000) == 0)
    }

    @Test func hysteresisKeepsTheCurrentVariantWhileItFitsTheDowngradeBudget() {
        // 2.3 Mb/s: 2 Mb/s is over the upgrade share (1.955) but under the downgrade share (2.185).
        #expect(policy.choose(variants: Self.lowToHigh, current: 2, estimate: 2_300_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 2)
        #expect(
            policy.choose(variants: Self.lowToHigh, current: 1, estimate: 2_300_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 1,
            "hysteresis never upgrades")
        // 2.0 Mb/s: under both shares (1.9 downgrade): switch down.
        #expect(policy.choose(variants: Self.lowToHigh, current: 2, estimate: 2_000_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 1)
        // Without hysteresis (equal factors) the same wobble switches down.
        let strict = ABRPolicy(upgradeFactor: 0.85, downgradeFactor: 0.85)
        #expect(strict.choose(variants: Self.lowToHigh, current: 2, estimate: 2_300_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 1)
    }

    @Test func listedOrderDoesNotMatter() {
        let highToLow = Self.ladder([4_000_000, 2_000_000, 1_000_000, 500_000])
        #expect(policy.choose(variants: highToLow, current: nil, estimate: 3_000_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 1)
        #expect(policy.choose(variants: highToLow, current: nil, estimate: 100_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 3)
        #expect(policy.choose(variants: highToLow, current: nil, estimate: 100_000_000, bufferAhead: 30, segmentDuration: 2, cap: 1_500_000) == 2)
        #expect(policy.choose(variants: highToLow, current: 1, estimate: 2_300_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 1)
        let shuffled = Self.ladder([1_000_000, 4_000_000, 500_000, 2_000_000])
        #expect(policy.choose(variants: shuffled, current: nil, estimate: 3_000_000, bufferAhead: 30, segmentDuration: 2, cap: nil) == 3)
        #expect(policy.choose(variants: shuffled, current: nil, estimate: 10, bufferAhead: 30, segmentDuration: 2, cap: nil) == 2)
    }

    @Test func theBufferToAffordTheBestVariantTheEstimateAllows() {
        // 5 Mb/s affords 4 Mb/s (0.85 × 5 = 4.25): its 6 s segment takes 4.8 s, so 6 s must be held
        // (4.8 / 0.8) for it to pass the arrival check.
        #expect(abs(policy.bufferToAfford(variants: Self.lowToHigh, estimate: 5_000_000, segmentDuration: 6, cap: nil) - 6) < 1e-9)
        // The cap bounds it: 2 Mb/s at most, 2.4 s → 3 s.
        #expect(abs(policy.bufferToAfford(variants: Self.lowToHigh, estimate: 5_000_000, segmentDuration: 6, cap: 2_000_000) - 3) < 1e-9)
        // A fast link needs next to nothing; nothing affordable needs nothing.
        #expect(policy.bufferToAfford(variants: Self.lowToHigh, estimate: 1_000_000_000, segmentDuration: 2, cap: nil) < 0.02)
        #expect(policy.bufferToAfford(variants: Self.lowToHigh, estimate: 100_000, segmentDuration: 2, cap: nil) == 0)
        #expect(policy.bufferToAfford(variants: [], estimate: 5_000_000, segmentDuration: 2, cap: nil) == 0)
    }

    @Test func nonsenseFactorsFallBackToTheDefaults() {
        #expect(ABRPolicy(upgradeFactor: .nan, downgradeFactor: .infinity, bufferShare: .nan, emptyBufferFetchTime: .nan) == ABRPolicy.default)
    }

    @Test func anEmptyLadderGivesZero() {
        #expect(policy.choose(variants: [], current: nil, estimate: 1_000_000, bufferAhead: 0, segmentDuration: 2, cap: nil) == 0)
    }
}
