import Synchronization

/// Values appended from any thread or task (a callback's arguments), read by the test.
public final class Recorded<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    public init() {}

    public func append(_ value: Value) { values.withLock { $0.append(value) } }
    public var all: [Value] { values.withLock { $0 } }
}
