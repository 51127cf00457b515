import Clocks
import CoveCore
import CoveTesting

extension TestClock<Duration> {
    /// Advances in steps until `predicate` matches an event recorded after `index`. Timers register
    /// with the test clock asynchronously, so a single big jump could pass a timer that is not armed yet.
    func advance(by step: Duration, until recorder: EventRecorder, from index: Int = 0, _ predicate: @escaping @Sendable (PlaybackEvent) -> Bool) async throws {
        for _ in 0..<40 {
            await advance(by: step)
            if recorder.events.dropFirst(index).contains(where: predicate) { return }
        }
        _ = try await recorder.waitFor(from: index, timeout: .seconds(5), predicate)
    }
}
