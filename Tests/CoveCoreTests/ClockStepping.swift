import Clocks
import CoveCore
import CoveTesting

extension TestClock<Duration> {
    /// Advances in steps until `predicate` matches an event recorded after `index` (see
    /// `EventRecorder.advance(_:from:until:)`).
    func advance(by step: Duration, until recorder: EventRecorder, from index: Int = 0, _ predicate: @escaping @Sendable (PlaybackEvent) -> Bool) async throws {
        try await recorder.advance({ await self.advance(by: step) }, from: index, until: predicate)
    }
}
