import CCoveGst
import CGStreamer
import CoveCore

/// The audio filter playbin3 runs the decoded audio through, which decides how a rate other than 1
/// sounds (the configuration's `pitchAlgorithm`).
///
/// - `.timeStretch`: `scaletempo` alone. It consumes the segment's rate by stretching time (WSOLA), so the
///   pitch is kept; at rate 1 it passes audio through.
/// - `.varispeed`: the same `scaletempo`, then SoundTouch's `pitch` raising the pitch by the rate without
///   changing the tempo again — together what a faster tape does (pitch and speed both follow the rate).
///   Doing it after the stretch keeps one element in charge of the segment's timing, so A/V sync and
///   seeks behave exactly as with time stretch. Built only when asked for: SoundTouch costs CPU even
///   at 1×.
struct AudioRateFilter: @unchecked Sendable {
    // @unchecked: GObject references; their property writes are thread-safe.
    /// What playbin3's `audio-filter` is set to (playbin3 holds its own reference).
    let element: ElementRef
    /// The pitch shifter of a varispeed filter.
    private let pitch: ElementRef?

    /// The filter for `algorithm` (nil when its elements are missing: playback then has no rate filter,
    /// as GStreamer would play without one).
    static func make(_ algorithm: AudioPitchAlgorithm, rate: Double) -> AudioRateFilter? {
        switch algorithm {
        case .timeStretch:
            return cove_element_make("scaletempo", nil).map { AudioRateFilter(element: ElementRef(pointer: $0), pitch: nil) }
        case .varispeed:
            var message: UnsafeMutablePointer<CChar>?
            let description = "scaletempo ! audioconvert ! pitch name=cove-pitch ! audioconvert"
            guard let bin = cove_bin_from_description(description, &message) else {
                _ = takeGString(message)
                return nil
            }
            let shifter = gst_bin_get_by_name(UnsafeMutableRawPointer(bin).assumingMemoryBound(to: GstBin.self), "cove-pitch").map { ElementRef(pointer: $0) }
            let filter = AudioRateFilter(element: ElementRef(pointer: bin), pitch: shifter)
            filter.rateChanged(to: rate)
            return filter
        }
    }

    /// The segment's rate is about to change (a flushing seek carries it): the pitch follows it.
    func rateChanged(to rate: Double) {
        guard let pitch, rate > 0, rate.isFinite else { return }
        cove_set_double(pitch.object, "pitch", rate)
    }

    /// Drops the reference to the pitch shifter (the filter itself belongs to playbin3).
    func release() {
        if let pitch { gst_object_unref(pitch.object) }
    }
}
