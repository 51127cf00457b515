import Synchronization

/// Hands values to a handler connected later: a producer made in an owner's init (a session, a loader)
/// reports through it before the owner exists to receive, and nothing arrives before `connect` (the
/// producers report nothing before they are started).
final class Relay<Value: Sendable>: Sendable {
    private let handler = Mutex<(@Sendable (Value) -> Void)?>(nil)

    func connect(_ handler: @escaping @Sendable (Value) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    func deliver(_ value: Value) {
        handler.withLock { $0 }?(value)
    }
}
