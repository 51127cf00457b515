import Synchronization

/// A counter shared with escaping closures (a `Mutex` itself cannot be captured).
final class SharedCounter: Sendable {
    private let value = Mutex(0)
    func withLock<R>(_ body: (inout Int) -> R) -> R { value.withLock { body(&$0) } }
}

/// How much of one download the throughput estimate has been given (bytes, seconds since the request),
/// and when its current attempt began (a retry or redirect starts the body over).
final class SampleCursor: Sendable {
    private let value = Mutex<(bytes: Int, seconds: Double, attemptStart: Double)>((0, 0, 0))

    var done: (bytes: Int, seconds: Double) { value.withLock { ($0.bytes, $0.seconds) } }
    var attemptStart: Double { value.withLock { $0.attemptStart } }

    /// The part since the last sample, once it is at least `minimumBytes` (then it counts as sampled).
    func advance(to received: Int, at seconds: Double, minimumBytes: Int) -> (bytes: Int, seconds: Double)? {
        value.withLock { cursor in
            guard received - cursor.bytes >= minimumBytes else { return nil }
            defer { cursor = (received, seconds, cursor.attemptStart) }
            return (received - cursor.bytes, seconds - cursor.seconds)
        }
    }

    /// A new attempt began at `seconds`: its bytes count from zero.
    func restart(at seconds: Double) {
        value.withLock { $0 = (0, seconds, seconds) }
    }
}
