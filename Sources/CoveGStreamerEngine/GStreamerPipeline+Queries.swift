import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// Queries: the position, duration and seekable ranges (as the producer said for a fed pipeline, from
/// GStreamer's queries for a media file it reads itself), the status the controller samples, and a snapshot.
///
/// Called on the controller's thread, the bus thread and the producer's tasks (the playhead it fetches
/// ahead of), with no lock held across a GStreamer query. A closed pipeline answers nil (or
/// nothing): its GStreamer objects are still alive then (they are released in `deinit`), but in NULL.
extension GStreamerPipeline {
    func currentPosition() -> MediaTime? {
        guard !isClosed else { return nil }
        var position: gint64 = -1
        guard gst_element_query_position(playbin.pointer, GST_FORMAT_TIME, &position) != 0 else { return nil }
        let offset = Int(decoderOffset * 1_000_000_000)
        return mediaTime(nanoseconds: max(Int(position) - offset, 0))
    }

    func currentDuration() -> MediaTime? {
        guard !isClosed else { return nil }
        if isFed { return state.withLock { $0.feedDuration }.map { MediaTime(seconds: $0) } }
        var duration: gint64 = -1
        guard gst_element_query_duration(playbin.pointer, GST_FORMAT_TIME, &duration) != 0 else { return nil }
        return mediaTime(nanoseconds: Int(duration))
    }

    var status: EngineStatus {
        let (playing, bytes) = state.withLock { ($0.pipelineAtPlaying, $0.bytesRead) }
        var status = EngineStatus(position: currentPosition(), duration: currentDuration(), isPlaying: playing, bytesRead: bytes)
        if let frames = outputs.observeFrames() {
            status.renderedFrames = frames.rendered
            status.droppedFrames = frames.dropped
        }
        return status
    }

    func snapshotPNG() throws(PlaybackError) -> Data {
        guard !isClosed else { throw PlaybackError(.invalidState, "The session's player is closed; there is no frame to capture") }
        var width: gint = 0
        var height: gint = 0
        var message: UnsafeMutablePointer<CChar>?
        guard let buffer = cove_snapshot_png(playbin.pointer, &width, &height, &message) else {
            throw PlaybackError(.invalidState, "No frame to capture: \(takeGString(message) ?? "unknown reason")")
        }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self)) }
        var size: gsize = 0
        guard let bytes = cove_buffer_copy_bytes(buffer, &size) else {
            throw PlaybackError(.engineFailure, "The captured frame could not be read")
        }
        defer { g_free(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }

    func seekableRanges() -> [TimeRange] {
        if isFed {
            // The producer knows its timeline (a live window moves); a fed pipeline knows only the duration.
            guard !isClosed, let duration = state.withLock({ $0.feedDuration }) else { return [] }
            return [TimeRange(start: .zero, end: MediaTime(seconds: duration))]
        }
        guard !isClosed, let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return [] }
        defer { gst_query_unref(query) }
        guard gst_element_query(playbin.pointer, query) != 0 else { return [] }
        var format = GST_FORMAT_TIME
        var seekable: gboolean = 0
        var start: gint64 = -1
        var end: gint64 = -1
        gst_query_parse_seeking(query, &format, &seekable, &start, &end)
        guard seekable != 0, start >= 0 else { return [] }
        let endTime = end >= 0 ? MediaTime(nanoseconds: Int64(end)) : (currentDuration() ?? MediaTime(nanoseconds: Int64(start)))
        return [TimeRange(start: MediaTime(nanoseconds: Int64(start)), end: endTime)]
    }
}
