import CoveStreaming
import Foundation
import Testing

/// Which variant the next segment comes from: the highest that fits a safe share of the estimate,
/// less of it when the buffer is low, never above the app's cap, without flapping between neighbours.
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
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 3_000_000, bufferAhead: 30, cap: nil) == 2)
        // 0.85 × 2.3 Mb/s = 1.955 Mb/s: 2 Mb/s no longer fits.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 2_300_000, bufferAhead: 30, cap: nil) == 1)
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 50_000_000, bufferAhead: 30, cap: nil) == 3)
        // Nothing fits: the lowest still plays.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000, bufferAhead: 30, cap: nil) == 0)
    }

    @Test func aLowBufferTrustsHalfTheEstimate() {
        // Half of 3 Mb/s × 0.85 = 1.275 Mb/s.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 3_000_000, bufferAhead: 0, cap: nil) == 1)
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 3_000_000, bufferAhead: 2, cap: nil) == 1)
        // Between low and comfortable the share grows with the buffer: 10 s of 2…15 → scale ≈ 0.81,
        // × 5 Mb/s × 0.85 ≈ 3.4 Mb/s (2 Mb/s); at 15 s: 4.25 Mb/s (4 Mb/s).
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: 10, cap: nil) == 2)
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: 15, cap: nil) == 3)
        // Never a higher variant for less buffer.
        var previous = 0
        for buffer in stride(from: 0.0, through: 20, by: 0.5) {
            let choice = policy.choose(variants: Self.lowToHigh, current: nil, estimate: 5_000_000, bufferAhead: buffer, cap: nil)
            #expect(Self.lowToHigh[choice].bandwidth >= Self.lowToHigh[previous].bandwidth, "buffer \(buffer)")
            previous = choice
        }
    }

    @Test func theCapWins() {
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000_000, bufferAhead: 30, cap: 1_500_000) == 1)
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000_000, bufferAhead: 30, cap: 2_000_000) == 2, "the cap is inclusive")
        // The current variant above the cap is left, hysteresis or not.
        #expect(policy.choose(variants: Self.lowToHigh, current: 3, estimate: 100_000_000, bufferAhead: 30, cap: 1_500_000) == 1)
        // Nothing under the cap: the lowest plays.
        #expect(policy.choose(variants: Self.lowToHigh, current: nil, estimate: 100_000_000, bufferAhead: 30, cap: 100_000) == 0)
    }

    @Test func hysteresisKeepsTheCurrentVariantWhileItFitsTheDowngradeBudget() {
        // 2.3 Mb/s: 2 Mb/s is over the upgrade share (1.955) but under the downgrade share (2.185).
        #expect(policy.choose(variants: Self.lowToHigh, current: 2, estimate: 2_300_000, bufferAhead: 30, cap: nil) == 2)
        #expect(policy.choose(variants: Self.lowToHigh, current: 1, estimate: 2_300_000, bufferAhead: 30, cap: nil) == 1, "hysteresis never upgrades")
        // 2.0 Mb/s: under both shares (1.9 downgrade): switch down.
        #expect(policy.choose(variants: Self.lowToHigh, current: 2, estimate: 2_000_000, bufferAhead: 30, cap: nil) == 1)
        // Without hysteresis (equal factors) the same wobble switches down.
        let strict = ABRPolicy(upgradeFactor: 0.85, downgradeFactor: 0.85)
        #expect(strict.choose(variants: Self.lowToHigh, current: 2, estimate: 2_300_000, bufferAhead: 30, cap: nil) == 1)
    }

    @Test func listedOrderDoesNotMatter() {
        let highToLow = Self.ladder([4_000_000, 2_000_000, 1_000_000, 500_000])
        #expect(policy.choose(variants: highToLow, current: nil, estimate: 3_000_000, bufferAhead: 30, cap: nil) == 1)
        #expect(policy.choose(variants: highToLow, current: nil, estimate: 100_000, bufferAhead: 30, cap: nil) == 3)
        #expect(policy.choose(variants: highToLow, current: nil, estimate: 100_000_000, bufferAhead: 30, cap: 1_500_000) == 2)
        #expect(policy.choose(variants: highToLow, current: 1, estimate: 2_300_000, bufferAhead: 30, cap: nil) == 1)
        let shuffled = Self.ladder([1_000_000, 4_000_000, 500_000, 2_000_000])
        #expect(policy.choose(variants: shuffled, current: nil, estimate: 3_000_000, bufferAhead: 30, cap: nil) == 3)
        #expect(policy.choose(variants: shuffled, current: nil, estimate: 10, bufferAhead: 30, cap: nil) == 2)
    }

    @Test func anEmptyLadderGivesZero() {
        #expect(policy.choose(variants: [], current: nil, estimate: 1_000_000, bufferAhead: 0, cap: nil) == 0)
    }
}
