import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// A pause that lands while a flushing seek is still settling. The pipeline loses its state during
    /// the flush without leaving PLAYING in a message, so such a pause once went unreported: no Pause
    /// event, the controller still thinking it played, and the next play() not reported either.
    @Suite("GStreamer pause as a seek lands")
    struct PauseAfterSeekTests {
        enum When: String, CaseIterable, Sendable {
            /// In the seek's completion handler (as the SSAI plugin's callers do).
            case fromTheCompletion
            /// Right after asking for the seek, before it lands (failed every time before the fix; the
            /// completion case about half the time).
            case rightAfterTheSeek
        }

        @Test(arguments: When.allCases)
        func thePauseIsReportedAndHoldsAndPlayReachesTheEnd(when: When) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor { $0.name == "FirstFrame" }
            let mark = await recorder.cursor()
            switch when {
            case .fromTheCompletion:
                controller.seek(to: .seconds(15)) { _ in controller.pause() }
            case .rightAfterTheSeek:
                controller.seek(to: .seconds(15))
                controller.pause()
            }
            try await recorder.waitFor(.pause, from: mark, timeout: .seconds(5))
            // What is under test is that the engine stays put over wall-clock time; no event marks that.
            try await Task.sleep(for: .milliseconds(700))
            let resumed = await recorder.cursor()
            controller.play()
            try await recorder.waitFor(.play, from: resumed, timeout: .seconds(5))
            let first = try await recorder.waitFor(from: resumed) { if case .progress = $0 { true } else { false } }
            guard case .progress(_, let position) = first else { return }
            #expect(position >= .seconds(14.9) && position < .seconds(15.5), "paused at the target, not 0.7 s later: \(position)")
            try await recorder.waitFor(.end, from: resumed, timeout: .seconds(15))
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            controller.shutdown()
        }
    }
}
