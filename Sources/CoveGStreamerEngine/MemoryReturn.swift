import CCoveGst
import Foundation
import Synchronization

/// Gives the memory a finished pipeline freed back to the system.
///
/// A pipeline's decoders, queues and segment buffers are freed on many threads, and glibc keeps freed
/// memory inside each thread's arena for reuse: a process that plays one video after another (a
/// set-top box, a kiosk, a probe) would keep the high-water mark of every arena resident long after
/// playback ended. `malloc_trim` returns the free pages of every arena. It walks all heaps, so it
/// runs once a pipeline is gone, off the caller's thread, and at most one at a time.
enum MemoryReturn {
    private static let pending = Mutex(false)

    static func afterPipelineReleased() {
        let schedule = pending.withLock { busy -> Bool in
            defer { busy = true }
            return !busy
        }
        guard schedule else { return }
        // A moment later: pipelines that close together (a playlist advance, a shutdown) free their
        // memory first, and one trim returns it all.
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.5) {
            cove_return_free_memory()
            pending.withLock { $0 = false }
        }
    }
}
