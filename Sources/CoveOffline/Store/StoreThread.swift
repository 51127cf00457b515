import Dispatch

/// A serial thread of its own for the store's blocking work — `fsync`, `rename`, the index's commit —
/// so that it never holds one of the few threads of Swift's cooperative pool (as many as there are
/// cores). On a 2-core machine a download's flushes would otherwise take half the pool for as long
/// as they wait on the disk, and the connections' body processing would queue behind them.
final class StoreThread: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    /// Queues `work` without waiting for it (in submission order with `run`).
    func submit(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` on the thread, in submission order, and returns its result to the caller.
    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Swift.Result { try work() })
            }
        }
    }
}
