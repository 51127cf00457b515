import CoveCore
import CoveTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// Where callbacks run: the seed calls its delegate on the main thread; a Cove app chooses the
/// executor (the delivery task, the main actor, its own loop), and callbacks keep the events' order
/// on every one of them while the `events` stream is never held up by it.
@Suite("Callback executors")
struct CallbackExecutorTests {
    /// An app loop stand-in: a serial queue that can hold what it is given until released.
    final class AppLoop: Sendable {
        static let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "cove.test.app-loop")
        private let held = Mutex<(holding: Bool, work: [@Sendable () -> Void])>((false, []))
        init(holding: Bool = false) {
            queue.setSpecific(key: Self.key, value: 1)
            held.withLock { $0.holding = holding }
        }
        var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == 1 }
        var executor: CallbackExecutor {
            .enqueuing { [self] work in
                let hold = held.withLock { state -> Bool in
                    if state.holding { state.work.append(work) }
                    return state.holding
                }
                if !hold { queue.async(execute: work) }
            }
        }
        func release() {
            let work = held.withLock { state -> [@Sendable () -> Void] in
                state.holding = false
                defer { state.work.removeAll() }
                return state.work
            }
            for item in work { queue.async(execute: item) }
        }
    }

    func configuration(_ executor: CallbackExecutor) -> PlaybackControllerConfiguration {
        var configuration = PlaybackControllerConfiguration()
        configuration.callbackExecutor = executor
        return configuration
    }

    func play(executor: CallbackExecutor, delegate: CallbackPlaceRecorder) async throws -> (PlaybackController, EventRecorder) {
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine(), configuration: configuration(executor))
        controller.delegate = delegate
        controller.addSessionConsumer(delegate)
        controller.isAutoPlay = true
        let recorder = EventRecorder(controller)
        controller.setVideos([ControllerTests.hls])
        return (controller, recorder)
    }

    @Test func callbacksRunOnTheAppsLoopInTheEventsOrder() async throws {
        let loop = AppLoop()
        let delegate = CallbackPlaceRecorder { loop.isCurrent }
        let (controller, recorder) = try await play(executor: loop.executor, delegate: delegate)
        _ = try await recorder.waitFor { $0.lifecycleEvent?.kind == .play }
        controller.shutdown()
        await delegate.waitFor("Terminate")
        let streamed = recorder.lifecycleNames
        #expect(delegate.names == streamed)
        #expect(delegate.consumerNames == streamed)
        #expect(delegate.misplaced == 0)
    }

    @Test func aHeldLoopHoldsTheCallbacksButNotTheStream() async throws {
        let loop = AppLoop(holding: true)
        let delegate = CallbackPlaceRecorder { loop.isCurrent }
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine(), configuration: configuration(loop.executor))
        controller.delegate = delegate
        controller.isAutoPlay = true
        let stream = controller.events
        controller.setVideos([ControllerTests.hls])
        var streamed: [String] = []
        for await event in stream {
            guard let name = event.lifecycleEvent?.name else { continue }
            streamed.append(name)
            if name == "Play" { break }
        }
        #expect(delegate.names.isEmpty, "nothing ran while the app's loop was held")
        loop.release()
        await delegate.waitFor("Play")
        #expect(delegate.names == streamed, "the held callbacks, in the stream's order")
        #expect(delegate.misplaced == 0)
        controller.shutdown()
    }

    /// The main actor's executor is the main dispatch queue: a mark on that queue is visible to code
    /// running on the main actor whichever thread drains it (a test runner may drain it off the
    /// process's first thread).
    static let mainQueueMark = DispatchSpecificKey<Int>()

    @Test func theMainActorIsTheSeedsMainThread() async throws {
        DispatchQueue.main.setSpecific(key: Self.mainQueueMark, value: 1)
        #expect(await MainActor.run { DispatchQueue.getSpecific(key: Self.mainQueueMark) } == 1)
        let delegate = CallbackPlaceRecorder { DispatchQueue.getSpecific(key: Self.mainQueueMark) == 1 }
        let (controller, recorder) = try await play(executor: .mainActor, delegate: delegate)
        _ = try await recorder.waitFor { $0.lifecycleEvent?.kind == .play }
        await delegate.waitFor("Play")
        #expect(delegate.misplaced == 0)
        controller.shutdown()
    }

    @Test func completionHandlersRunOnTheExecutorToo() async throws {
        let loop = AppLoop()
        let delegate = CallbackPlaceRecorder { loop.isCurrent }
        let (controller, recorder) = try await play(executor: loop.executor, delegate: delegate)
        _ = try await recorder.waitFor { $0.lifecycleEvent?.kind == .ready }
        let ranOnLoop = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            controller.seek(to: .seconds(3)) { _ in done.resume(returning: loop.isCurrent) }
        }
        #expect(ranOnLoop)
        controller.shutdown()
    }
}
