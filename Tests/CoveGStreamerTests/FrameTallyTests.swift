import Testing

@testable import CoveGStreamerEngine

/// The sink's counts restart at every flush; the tally keeps the pipeline's totals.
@Suite("Frame tally")
struct FrameTallyTests {
    typealias Counts = FrameTally.Counts

    @Test func countsSurviveFlushes() {
        var tally = FrameTally()
        #expect(tally.observe(Counts(rendered: 48, dropped: 1)) == Counts(rendered: 48, dropped: 1))
        #expect(tally.observe(Counts(rendered: 96, dropped: 1)) == Counts(rendered: 96, dropped: 1))
        // A seek flushed: the sink counts from zero again.
        #expect(tally.observe(Counts(rendered: 10, dropped: 0)) == Counts(rendered: 106, dropped: 1))
        #expect(tally.observe(Counts(rendered: 10, dropped: 0)) == Counts(rendered: 106, dropped: 1), "the same reading twice counts once")
        // Read before the next flush, then after it: nothing counted twice, nothing lost.
        #expect(tally.observe(Counts(rendered: 30, dropped: 2)) == Counts(rendered: 126, dropped: 3))
        #expect(tally.observe(Counts(rendered: 0, dropped: 0)) == Counts(rendered: 126, dropped: 3))
        #expect(tally.total == Counts(rendered: 126, dropped: 3))
    }
}
