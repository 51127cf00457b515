import CoveCore
import Synchronization

/// A delegate and session consumer that records each lifecycle callback and whether it ran where the
/// app expects (its main thread, its loop's queue): for tests of a controller's `callbackExecutor`.
///
/// ```swift
/// let recorder = CallbackPlaceRecorder { Thread.isMainThread }
/// controller.delegate = recorder
/// controller.addSessionConsumer(recorder)
/// await recorder.waitFor("Play")
/// #expect(recorder.misplaced == 0)
/// ```
public final class CallbackPlaceRecorder: PlaybackControllerDelegate, PlaybackSessionConsumer {
    private let isInPlace: @Sendable () -> Bool
    private let state = Mutex<(names: [String], consumerNames: [String], misplaced: Int)>(([], [], 0))
    private let delivered: AsyncStream<String>
    private let deliveries: AsyncStream<String>.Continuation

    /// - Parameter isInPlace: asked inside every callback: is this the right thread or queue?
    public init(isInPlace: @escaping @Sendable () -> Bool) {
        self.isInPlace = isInPlace
        (delivered, deliveries) = AsyncStream.makeStream(of: String.self)
    }

    /// The delegate's lifecycle callbacks so far, by event name, in the order they ran.
    public var names: [String] { state.withLock { $0.names } }
    /// The consumer's lifecycle callbacks so far.
    public var consumerNames: [String] { state.withLock { $0.consumerNames } }
    /// How many callbacks (delegate or consumer) ran somewhere else.
    public var misplaced: Int { state.withLock { $0.misplaced } }

    /// Returns once the delegate has been called with the lifecycle event `name`. Await one name at a
    /// time (the callbacks are one stream).
    public func waitFor(_ name: String) async {
        for await delivered in delivered where delivered == name { return }
    }

    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        let inPlace = isInPlace()
        state.withLock {
            $0.names.append(lifecycleEvent.name)
            if !inPlace { $0.misplaced += 1 }
        }
        deliveries.yield(lifecycleEvent.name)
    }

    public func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        let inPlace = isInPlace()
        state.withLock {
            $0.consumerNames.append(lifecycleEvent.name)
            if !inPlace { $0.misplaced += 1 }
        }
    }
}
