import CCoveGst
import CGStreamer
import Foundation

/// The baseline: playbin3 driven directly through the C API, the way a bare GStreamer app would —
/// no controller, no event loop, no Swift concurrency. Frames are timed exactly like Cove's headless
/// output (fakesink render handoffs), so the ratio measures what Cove adds.
final class RawPlaybin: @unchecked Sendable {
    private let lock = NSLock()
    private var awaiting = false
    private var flushed = true
    private var renderedAt: Double?
    private let rendered = DispatchSemaphore(value: 0)

    struct Result {
        var firstFrame: Double
        var seekFrame: Double
    }

    /// Plays `url`, times start → first frame, waits `settle`, then times a seek → first frame there.
    /// Runs on the calling thread (blocking), so call it from a dedicated thread.
    func measure(url: String, seekTo: Double, settle: Double) -> Result? {
        var message: UnsafeMutablePointer<CChar>?
        guard cove_gst_init(&message) != 0, let playbin = cove_element_make("playbin3", nil) else { return nil }
        gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        defer {
            _ = gst_element_set_state(playbin, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(playbin))
        }
        // Same decoding work as Cove's headless output: raw video and raw audio into fakesinks.
        guard let video = cove_bin_from_description("capsfilter caps=video/x-raw ! fakesink name=vsink sync=true signal-handoffs=true", &message),
            let audio = cove_bin_from_description("capsfilter caps=audio/x-raw ! fakesink sync=true", &message)
        else { return nil }
        cove_set_string(UnsafeMutableRawPointer(playbin), "uri", url)
        cove_set_object(UnsafeMutableRawPointer(playbin), "video-sink", UnsafeMutableRawPointer(video))
        cove_set_object(UnsafeMutableRawPointer(playbin), "audio-sink", UnsafeMutableRawPointer(audio))
        let context = Unmanaged.passUnretained(self).toOpaque()
        let bin = UnsafeMutableRawPointer(video).assumingMemoryBound(to: GstBin.self)
        guard let sink = gst_bin_get_by_name(bin, "vsink") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(sink)) }
        _ = cove_signal_connect(UnsafeMutableRawPointer(sink), "handoff", unsafeBitCast(rawHandoff, to: GCallback.self), context)
        if let pad = gst_element_get_static_pad(sink, "sink") {
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_FLUSH, rawFlush, context, nil)
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }

        arm(requireFlush: false)
        let start = Date().timeIntervalSince1970
        _ = gst_element_set_state(playbin, GST_STATE_PLAYING)
        guard let first = waitForFrame() else { return nil }
        Thread.sleep(forTimeInterval: settle)
        arm(requireFlush: true)
        let seekStart = Date().timeIntervalSince1970
        guard cove_seek(playbin, 1.0, gint64(seekTo * 1e9), 0) != 0, let seek = waitForFrame() else { return nil }
        return Result(firstFrame: first - start, seekFrame: seek - seekStart)
    }

    private func arm(requireFlush: Bool) {
        lock.lock()
        awaiting = true
        flushed = !requireFlush
        renderedAt = nil
        lock.unlock()
    }

    private func waitForFrame() -> Double? {
        guard rendered.wait(timeout: .now() + 15) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return renderedAt
    }

    fileprivate func handoff() {
        lock.lock()
        let fire = awaiting && flushed
        if fire {
            awaiting = false
            renderedAt = Date().timeIntervalSince1970
        }
        lock.unlock()
        if fire { rendered.signal() }
    }

    fileprivate func flushStopped() {
        lock.lock()
        flushed = true
        lock.unlock()
    }
}

private let rawHandoff: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstBuffer>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void =
    { _, _, _, data in
        guard let data else { return }
        Unmanaged<RawPlaybin>.fromOpaque(data).takeUnretainedValue().handoff()
    }

private let rawFlush: GstPadProbeCallback = { _, info, data in
    guard let info, let data, let raw = info.pointee.data else { return GST_PAD_PROBE_OK }
    if cove_event_type(raw.assumingMemoryBound(to: GstEvent.self)) == GST_EVENT_FLUSH_STOP {
        Unmanaged<RawPlaybin>.fromOpaque(data).takeUnretainedValue().flushStopped()
    }
    return GST_PAD_PROBE_OK
}
