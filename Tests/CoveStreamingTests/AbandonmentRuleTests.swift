import CoveStreaming
import Foundation
import Testing

/// A download that turned slow is given up only when finishing it would empty the buffer, and only for
/// a variant whose whole segment arrives in time at the rate just measured.
@Suite("Abandonment rule")
struct AbandonmentRuleTests {
    static let url = URL(string: "https://cdn.example.com/v.m3u8")!
    /// 0.5, 1.4 and 3.4 Mb/s, like the bench ladder; 2 s segments.
    static let ladder = [510_400, 1_390_400, 3_370_400].enumerated().map { VariantTrack(index: $0.offset, bandwidth: $0.element, playlistURL: url) }
    static var top: VariantTrack { ladder[2] }
    /// A 2 s top-variant segment: ~842 kB.
    static let topSegment = 3_370_400 * 2 / 8
    let rule = AbandonmentRule.default

    func replacement(
        elapsed: Double, received: Int, recentRate: Double? = nil, expected: Int? = topSegment, buffer: Double, loading: VariantTrack = top
    ) -> Int? {
        rule.replacement(
            elapsed: elapsed, received: received, recentRate: recentRate, expected: expected, segmentDuration: 2, loading: loading,
            variants: Self.ladder.filter { $0.bandwidth < loading.bandwidth }, bufferAhead: buffer
        )
    }

    @Test func aDownloadThatArrivesInTimeIsKept() {
        // 300 kB in 0.5 s (4.8 Mb/s): the rest (542 kB) in 0.9 s, well inside 4 s of buffer.
        #expect(replacement(elapsed: 0.5, received: 300_000, buffer: 4) == nil)
        // Slow (0.8 Mb/s: 100 kB/s) but nearly done: 42 kB left (0.4 s), and switching is no quicker.
        #expect(replacement(elapsed: 8, received: 800_000, buffer: 2) == nil)
        // Slow, far from done, but the buffer is deep: 742 kB at 100 kB/s = 7.4 s < 20 s.
        #expect(replacement(elapsed: 1, received: 100_000, buffer: 20) == nil)
    }

    @Test func aStarvingDownloadIsGivenUpForTheHighestLowerVariantThatFits() {
        // 0.8 Mb/s after the drop: 742 kB left = 7.4 s > 4.5 s buffered. At 80 % of 100 kB/s the
        // 1.4 Mb/s segment (348 kB) needs 4.3 s (< 4.5 s), the 0.5 Mb/s one 1.6 s: the 1.4 Mb/s one.
        #expect(replacement(elapsed: 1, received: 100_000, buffer: 4.5) == 1)
        // With 3 s buffered only the lowest arrives in time.
        #expect(replacement(elapsed: 1, received: 100_000, buffer: 3) == 0)
    }

    @Test func finishingMustLeaveTimeForOneMoreSegment() {
        // 100 kB/s, 342 kB left: 3.4 s, inside 4 s of buffer — but the lowest variant's next segment
        // (128 kB at 80 kB/s: 1.6 s) would then not arrive in time. The lowest now (1.6 s) instead.
        #expect(replacement(elapsed: 5, received: 500_000, buffer: 4) == 0)
        // With 5.5 s buffered both fit: kept.
        #expect(replacement(elapsed: 5, received: 500_000, buffer: 5.5) == nil)
    }

    @Test func theRateOfTheLastHalfSecondCountsWhenItIsSlower() {
        // 600 kB in the first 2 s at 6 Mb/s, then the link fell to 0.8 Mb/s (100 kB/s): the average
        // (300 kB/s) says 0.8 s left; the last half second says 2.4 s, more than 3 s of buffer allows with
        // one more segment after it: the lowest (1.6 s) instead.
        #expect(replacement(elapsed: 2, received: 600_000, buffer: 3) == nil, "the average alone keeps it")
        #expect(replacement(elapsed: 2, received: 600_000, recentRate: 100_000, buffer: 3) == 0)
        // A faster last half second does not make the download look quicker than its average.
        #expect(replacement(elapsed: 1, received: 100_000, recentRate: 1_000_000, buffer: 4.5) == 1)
    }

    @Test func theLowestIsTakenWhenNothingFitsButItIsStillQuicker() {
        // 20 kB/s: 822 kB left = 41 s; the lowest (128 kB) at 16 kB/s = 8 s, more than the 1 s buffered
        // but far less than finishing.
        #expect(replacement(elapsed: 1, received: 20_000, buffer: 1) == 0)
    }

    @Test func neverBeforeTheMinimumElapsedNorFromTheLowest() {
        #expect(replacement(elapsed: 0.4, received: 1_000, buffer: 0.5) == nil)
        #expect(replacement(elapsed: 5, received: 1_000, buffer: 0.5, loading: Self.ladder[0]) == nil)
    }

    @Test func noByteYetGivesUpOnceHalfTheBufferIsGone() {
        #expect(replacement(elapsed: 1, received: 0, buffer: 4) == nil)
        #expect(replacement(elapsed: 2, received: 0, buffer: 4) == 0)
    }

    @Test func withoutALengthTheSegmentIsSizedFromTheVariantsBandwidth() {
        // Same as the 4.5 s case above, with the size estimated as 3.37 Mb/s × 2 s.
        #expect(replacement(elapsed: 1, received: 100_000, expected: nil, buffer: 4.5) == 1)
        #expect(replacement(elapsed: 0.5, received: 300_000, expected: nil, buffer: 4) == nil)
    }

    @Test func hostileBandwidthAndDurationDoNotTrap() {
        let huge = VariantTrack(index: 9, bandwidth: Int.max, playlistURL: Self.url)
        let result = rule.replacement(
            elapsed: 1, received: 1_000, expected: nil, segmentDuration: 1e300, loading: huge, variants: Self.ladder, bufferAhead: 2
        )
        #expect(result == 0)
        #expect(AbandonmentRule(minimumElapsed: .nan, rateShare: .nan) == AbandonmentRule.default)
    }
}
