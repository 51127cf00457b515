import Clocks
import CoveTesting
import Foundation
import Testing

@testable import CoveCore

/// The test kit's recorder waits on typed lifecycle kinds, and a failure cuts a wait short.
@Suite("Event recorder")
struct EventRecorderTests {
    let engine = ScriptedEngine()
    let clock = TestClock<Duration>()

    @Test func aWaitReturnsTheEventOfItsKind() async throws {
        let controller = PlaybackController(engine: engine, configuration: PlaybackControllerConfiguration(clock: clock))
        let recorder = EventRecorder(controller)
        controller.setVideos([ControllerTests.hls])
        let ready = try await recorder.waitFor(.ready)
        #expect(ready.lifecycleEvent?.kind == .ready && ready.lifecycleEvent?.name == "Ready")
        #expect(recorder.lifecycleKinds.contains(.ready) && recorder.lifecycleKinds.count == recorder.lifecycleNames.count)
        controller.shutdown()
    }

    @Test func aFailureEndsAWaitForSomethingElseAtOnce() async throws {
        engine.behavior.loadFailure = PlaybackError(.notFound, "master.m3u8 answered 404")
        let controller = PlaybackController(engine: engine, configuration: PlaybackControllerConfiguration(clock: clock))
        let recorder = EventRecorder(controller)
        controller.setVideos([ControllerTests.hls])
        do {
            try await recorder.waitFor(.end)
            Issue.record("the wait for End outlived the session's failure")
        } catch let error as RecorderError {
            #expect(error.description.contains("Fail"), "\(error)")
        }
        // Awaited, or waited through, the failure is an ordinary event.
        let failed = try await recorder.waitFor(.fail)
        #expect(failed.lifecycleEvent?.error?.code == .notFound)
        controller.shutdown()
    }

    @Test func customKindsMatchByName() {
        let event = LifecycleEvent.custom(name: "SSAIVMAPResponseReceived", properties: [:])
        #expect(event.kind == .custom("SSAIVMAPResponseReceived"))
        #expect(event.kind != .custom("Other"))
        #expect(LifecycleEvent.failedToPlayToEndTime(PlaybackError(.downloadFailed, "x")).kind == .failedToPlayToEndTime)
    }
}
