import CoveCore
import Synchronization

/// The latest progress of one download, written by the transport as bytes arrive and read by whoever
/// judges or accounts for it (the abandonment watch, the loader's record of a cut-off request).
final class ProgressBox: Sendable {
    private let value = Mutex<TransferProgress?>(nil)
    func set(_ progress: TransferProgress) { value.withLock { $0 = progress } }
    func get() -> TransferProgress? { value.withLock { $0 } }
}
