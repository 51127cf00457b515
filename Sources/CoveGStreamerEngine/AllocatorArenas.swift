import CCoveGst
import Foundation

/// An app-wide choice about how many heaps glibc's `malloc` keeps.
///
/// glibc gives each thread that allocates its own arena, up to eight per core. A player has many
/// threads (GStreamer's streaming and decoder threads, the HTTP event loops, Swift's cooperative
/// pool), each arena keeps what its threads freed for reuse, and so a player's resident memory holds
/// the high-water mark of a dozen or more arenas. Two per core keeps allocation uncontended on the
/// threads that work at once while bounding that overhead; on the 2-core bench machine it lowered
/// peak RSS of `cove probe` by about 4 MB at no measurable CPU cost (A/B, 4 runs each).
///
/// This is a process-wide setting, so Cove never applies it on its own: an app (the `cove` CLI does)
/// calls ``limit(toPerCore:)`` first thing in `main`, before any thread has allocated. A
/// `MALLOC_ARENA_MAX` in the environment wins: whoever launched the process chose already.
public enum AllocatorArenas {
    /// What ``limit(toPerCore:)`` did.
    public enum Outcome: Sendable, Equatable {
        /// The cap was applied.
        case limited(arenas: Int)
        /// `MALLOC_ARENA_MAX` is set in the environment; glibc follows it and Cove left it alone.
        case chosenByEnvironment
        /// The C library has no arena setting (not glibc) or refused the value.
        case unsupported
    }

    /// Caps the arenas at `perCore` × the active processor count (glibc's own default is 8 × cores).
    @discardableResult
    public static func limit(toPerCore perCore: Int = 2) -> Outcome {
        guard
            let count = arenaCount(
                perCore: perCore,
                processors: ProcessInfo.processInfo.activeProcessorCount,
                environment: ProcessInfo.processInfo.environment
            )
        else { return .chosenByEnvironment }
        return cove_limit_malloc_arenas(Int32(clamping: count)) == 1 ? .limited(arenas: count) : .unsupported
    }

    /// Has glibc map every block of at least `bytes` on its own, so it goes back to the system the moment
    /// it is freed. A player's large blocks are media segments (hundreds of kilobytes to megabytes, one
    /// per download, freed once pushed); glibc's default threshold starts at 128 KiB but rises to the
    /// largest block freed so far, after which every segment is carved from the heap and its pages stay
    /// resident. Fixing the threshold lowered `cove probe`'s peak RSS over 20 s of HLS by about 3 MB.
    /// Process-wide like ``limit(toPerCore:)``: an app opts in; `MALLOC_MMAP_THRESHOLD_` in the
    /// environment wins.
    @discardableResult
    public static func mapLargeBlocks(atLeast bytes: Int = 256 << 10) -> Bool {
        guard let threshold = mmapThreshold(bytes: bytes, environment: ProcessInfo.processInfo.environment) else { return false }
        return cove_set_malloc_mmap_threshold(Int32(clamping: threshold)) == 1
    }

    /// The threshold to set, or `nil` when the environment already names one. At least 64 KiB.
    static func mmapThreshold(bytes: Int, environment: [String: String]) -> Int? {
        if let chosen = environment["MALLOC_MMAP_THRESHOLD_"], !chosen.isEmpty { return nil }
        return max(bytes, 64 << 10)
    }

    /// The cap to apply, or `nil` when the environment already names one. At least one arena per
    /// processor and never fewer than two, whatever `perCore` says.
    static func arenaCount(perCore: Int, processors: Int, environment: [String: String]) -> Int? {
        if let chosen = environment["MALLOC_ARENA_MAX"], !chosen.isEmpty { return nil }
        let cores = max(1, processors)
        return max(2, cores * max(1, perCore))
    }
}
