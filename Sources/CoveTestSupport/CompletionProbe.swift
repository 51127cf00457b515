import Synchronization

/// Catches a completion handler's `Bool` (a seek's, say) so a test can await it with a deadline:
/// pass `callback` where the API takes a completion, then `await value(timeout:)`.
public final class CompletionProbe: Sendable {
    private let state = Mutex<(value: Bool?, timedOut: Bool, waiters: [CheckedContinuation<Bool?, Never>])>((nil, false, []))

    public init() {}

    /// The completion to hand to the API under test. Only its first call counts.
    public var callback: @Sendable (Bool) -> Void { { [self] value in finish(value) } }

    /// Whether the completion has run.
    public var hasCompleted: Bool { state.withLock { $0.value != nil } }

    /// The completion's value, or nil when it has not run within `timeout`.
    public func value(timeout: Duration) async -> Bool? {
        let deadline = Task { [self] in
            try? await Task.sleep(for: timeout)
            finish(nil)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            let ready: Bool?? = state.withLock { state in
                if let value = state.value { return .some(value) }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func finish(_ value: Bool?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool?, Never>] in
            if state.value == nil, let value { state.value = value }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value ?? state.withLock { $0.value }) }
    }
}
