import CCoveGst
import CGStreamer
import CoveCore

/// A GStreamer element pointer that may cross threads. GStreamer objects are thread-safe and
/// reference counted; the owner of this value is responsible for the reference it holds.
struct ElementRef: @unchecked Sendable, Equatable {
    let pointer: UnsafeMutablePointer<GstElement>

    var object: gpointer { UnsafeMutableRawPointer(pointer) }
    var bin: UnsafeMutablePointer<GstBin> { UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstBin.self) }
    var factoryName: String { String(cString: cove_factory_name(pointer)) }
}

/// Takes ownership of a C string allocated with g_malloc and returns it as a Swift string.
func takeGString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

extension Duration {
    /// Whole nanoseconds, negative durations as zero: what GStreamer's unsigned clock times and the
    /// engine's monotonic deadlines take.
    var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}

/// A GstClockTime read as a signed query result → MediaTime; negative (GST_CLOCK_TIME_NONE) becomes nil.
func mediaTime(nanoseconds: Int) -> MediaTime? {
    nanoseconds < 0 ? nil : MediaTime(nanoseconds: Int64(nanoseconds))
}
