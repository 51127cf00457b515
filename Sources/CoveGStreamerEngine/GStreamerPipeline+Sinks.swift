import CCoveGst
import CGStreamer
import CoveCore
import CoveText
import Foundation
import Synchronization

/// The pipeline's ends as GStreamer's streaming threads see them: pad probes on the sinks (buffers,
/// flushes, end of stream, caps), the headless sinks' render and preroll handoffs, the text sink's
/// subtitle buffers, the source's byte count, and the elements playbin3 makes. From them, frame timing:
/// when a first frame arrived, was rendered or was shown at preroll.
///
/// Everything here runs on a streaming thread (or the thread of a signal GStreamer emits synchronously):
/// it only records facts in `state` and posts notes, which the bus thread reports in order. The C
/// callbacks get the pipeline unretained: they are disconnected at teardown, and the pipeline outlives
/// them (the bus thread holds it until then).
extension GStreamerPipeline {
    /// Connects the callbacks GStreamer's streaming threads run (all below, in this file): the playbin's
    /// `deep-element-added` and `source-setup`, the sinks' pad probes, and the headless sinks' (and the
    /// text sink's) handoffs. Called once, from `init`; `close` disconnects them.
    func connectStreamingThreadCallbacks(textSink: UnsafeMutablePointer<GstElement>?) {
        let object = playbin.object
        let context = Unmanaged.passUnretained(self).toOpaque()
        let deepAdded = cove_signal_connect(object, "deep-element-added", unsafeBitCast(onDeepElementAdded, to: GCallback.self), context)
        let sourceSetup = cove_signal_connect(object, "source-setup", unsafeBitCast(onSourceSetup, to: GCallback.self), context)
        state.withLock { $0.signalHandlers = [deepAdded, sourceSetup] }
        installProbe(on: videoSink, kind: .video)
        installProbe(on: audioSink, kind: .audio)
        // Headless sinks say exactly when they render a buffer: time frames from that. Real outputs
        // are timed from buffer arrival and the pipeline reaching PLAYING instead.
        var renderHandlers: [RenderHandler] = []
        for (sink, kind, callback) in [(videoSink, EngineTrack.Kind.video, onVideoRendered), (audioSink, .audio, onAudioRendered)] {
            let name = kind == .video ? "cove-video-sink" : "cove-audio-sink"
            guard let inner = gst_bin_get_by_name(sink.bin, name) else { continue }
            guard cove_has_property(UnsafeMutableRawPointer(inner), "signal-handoffs") != 0 else {
                gst_object_unref(UnsafeMutableRawPointer(inner))
                continue
            }
            let ref = ElementRef(pointer: inner)
            let id = cove_signal_connect(ref.object, "handoff", unsafeBitCast(callback, to: GCallback.self), context)
            let prerollID =
                kind == .video ? cove_signal_connect(ref.object, "preroll-handoff", unsafeBitCast(onVideoPrerolled, to: GCallback.self), context) : nil
            renderHandlers.append(RenderHandler(sink: ref, kind: kind, id: id, prerollID: prerollID))
        }
        if let textSink {
            let ref = ElementRef(pointer: textSink)
            let id = cove_signal_connect(ref.object, "handoff", unsafeBitCast(onTextRendered, to: GCallback.self), context)
            renderHandlers.append(RenderHandler(sink: ref, kind: .text, id: id, prerollID: nil))
        }
        state.withLock { $0.renderHandlers = renderHandlers }
    }

    /// Probes a sink's pad for buffers (arrival, stream end time), flushes, end of stream and caps.
    private func installProbe(on sink: ElementRef, kind: EngineTrack.Kind) {
        guard let pad = gst_element_get_static_pad(sink.pointer, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let mask = GstPadProbeType(
            rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue)
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = gst_pad_add_probe(pad, mask, kind == .video ? onVideoSinkData : onAudioSinkData, context, nil)
    }

    /// A buffer reached a sink (`rendered`: the sink presented it, which only happens while playing).
    fileprivate func sinkSawBuffer(_ kind: EngineTrack.Kind, rendered: Bool) {
        let sighting = state.withLock { s -> FrameSighting? in
            guard s.awaitingBuffer, !s.closed, s.renderTimedKinds.contains(kind) == rendered else { return nil }
            let relevant = kind == .video ? (s.expectsVideo ?? true) : (s.expectsVideo == false)
            guard relevant else { return nil }
            s.awaitingBuffer = false
            return rendered ? .rendered : (kind == .video && isShowingStartFrame(s) ? .shownAtPreroll : .arrived)
        }
        if let sighting { postFirstBuffer(sighting) }
    }

    /// The headless video sink prerolled a frame. A display sink shows its preroll frame at once, before
    /// the clock runs (and Media3's onRenderedFirstFrame and Chromium's frame callbacks count that frame),
    /// so the first frame of a play counts from here rather than from its clock time — which can be up to
    /// a frame interval plus the audio's head start later (83 ms on the benchmark streams).
    fileprivate func sinkPrerolled() {
        let post = state.withLock { s -> Bool in
            guard s.awaitingBuffer, !s.closed, s.expectsVideo ?? true, isShowingStartFrame(s) else { return false }
            s.awaitingBuffer = false
            return true
        }
        if post { postFirstBuffer(.shownAtPreroll) }
    }

    /// A frame at preroll is the start frame of a play when playing was asked for and it is at the start
    /// position: no flush yet and no start seek to come, or the start seek's own flush.
    private func isShowingStartFrame(_ s: State) -> Bool {
        guard s.wantsPlaying, !s.prerolled else { return false }
        if let startSeek = s.startSeekSeqnum { return s.lastFlushSeqnum == startSeek }
        return s.flushGeneration == 0 && !(readsAFile && (configuration.startPosition.map { $0 > .zero && $0.isFinite } ?? false))
    }

    /// Stamped here, on the streaming thread, when it happened (bus messages carry no timestamp).
    private func postFirstBuffer(_ sighting: FrameSighting) {
        post(.firstBuffer(sighting, wallTime: Date().timeIntervalSince1970))
    }

    /// The text sink got a subtitle buffer (Pango markup text with its times).
    fileprivate func textRendered(_ buffer: UnsafeMutablePointer<GstBuffer>, pad: UnsafeMutablePointer<GstPad>) {
        var start: gint64 = 0
        var end: gint64 = 0
        guard cove_pad_buffer_stream_times(pad, buffer, &start, &end) != 0 else { return }
        var size: gsize = 0
        guard let bytes = cove_buffer_copy_bytes(buffer, &size) else { return }
        defer { g_free(bytes) }
        // Subtitle buffers are a line or two; anything larger is not a caption.
        guard size > 0, size <= 64 * 1024 else { return }
        // Pango markup (`<i>`, `<span …>`, XML escapes): the same tags-and-references stripping as a
        // WebVTT cue's plain text.
        let markup = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(size)), as: UTF8.self)
        let text = WebVTTCueText.plainText(markup).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        let cue = TextCue(start: MediaTime(nanoseconds: Int64(start)), end: MediaTime(nanoseconds: Int64(max(end, start))), text: text)
        let post = state.withLock { s -> Bool in
            guard !s.closed, s.pendingCues.count < 1_000 else { return false }
            s.pendingCues.append(cue)
            return s.pendingCues.count == 1
        }
        if post { self.post(.textCuesPending) }
    }

    /// How far (stream time, ns) media reached each sink since the last flush: in unsynchronised playback
    /// the only playhead that follows the media.
    fileprivate func sinkReceived(_ kind: EngineTrack.Kind, upTo end: Int64) {
        state.withLock { s in
            if end > s.sinkEnds[kind] ?? Int64.min { s.sinkEnds[kind] = end }
        }
    }

    fileprivate func sinkFlushed(_ kind: EngineTrack.Kind, seqnum: UInt32) {
        let generation = state.withLock { s -> Int in
            s.sinkEnds = [:]
            s.awaitingBuffer = true
            s.flushGeneration += 1
            s.lastFlushSeqnum = seqnum
            return s.flushGeneration
        }
        logger.debug("sink flushed", metadata: ["sink": "\(kind)", "seqnum": "\(seqnum)", "generation": "\(generation)"])
    }

    fileprivate func sinkReachedEnd(_ kind: EngineTrack.Kind) {
        let (ended, generation, kinds) = state.withLock { s -> (Bool, Int, [String]) in
            s.eosGeneration = s.flushGeneration
            if s.mediaEndedKinds.generation != s.flushGeneration { s.mediaEndedKinds = (s.flushGeneration, []) }
            s.mediaEndedKinds.kinds.insert(kind)
            let expected: Set<EngineTrack.Kind> = s.expectsVideo == false ? [.audio] : (s.expectsVideo == true ? [.video, .audio] : [.video])
            return (expected.isSubset(of: s.mediaEndedKinds.kinds), s.flushGeneration, s.mediaEndedKinds.kinds.map { "\($0)" }.sorted())
        }
        logger.debug("sink reached the end", metadata: ["sink": "\(kind)", "generation": "\(generation)", "ended": "\(kinds)"])
        // The picture and sound have ended: that is the end, even while a text stream that runs longer
        // (a subtitle playlist a segment longer than the media) has not.
        if ended {
            outputs.observeFrames()
            post(.mediaEnded)
        }
    }

    fileprivate func sinkCaps(width: Int, height: Int) {
        post(.videoSize(width: Int(width), height: Int(height)))
    }

    fileprivate func sourceBytes(_ count: Int) {
        state.withLock { $0.bytesRead += count }
    }

    /// GStreamer found an HLS or DASH manifest behind a name that said media file (`.mp4`, `.ts`, …) and
    /// made its own adaptive demuxer for it (on a streaming thread). Cove streams manifests itself, by
    /// their names or by sniffing an unknown one, and never lets GStreamer's adaptive streaming (whose
    /// 1.22 network layer crashes, and which no request filter reaches) fetch anything: the demuxer is
    /// starved of the playlist at once, and the bus thread fails the play, typed, saying how to make it play.
    fileprivate func manifestBehindMediaName(demuxer factory: String, element: UnsafeMutablePointer<GstElement>) {
        if let pad = gst_element_get_static_pad(element, "sink") {
            _ = gst_pad_add_probe(
                pad, GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue), dropEverything, nil, nil)
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
        let first = state.withLock { s -> Bool in
            defer { s.disguisedManifest = s.disguisedManifest ?? factory }
            return s.disguisedManifest == nil
        }
        if first { post(.disguisedManifest) }
    }
}

// MARK: - C callbacks (streaming threads)

/// GStreamer's own adaptive demuxers: never used (Cove streams HLS and DASH itself), so one appearing means
/// a manifest hid behind a media file's name.
private let adaptiveDemuxers: Set<String> = ["hlsdemux2", "dashdemux2", "mssdemux2", "hlsdemux", "dashdemux", "mssdemux"]

private let onDeepElementAdded:
    @convention(c) (UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstElement>?, gpointer?) -> Void = {
        _, _, element, data in
        guard let element, let data else { return }
        let factory = ElementRef(pointer: element).factoryName
        GStreamerRuntime.elementsCreated.withLock { $0[factory, default: 0] += 1 }
        if adaptiveDemuxers.contains(factory) {
            Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue().manifestBehindMediaName(demuxer: factory, element: element)
        }
    }

private let dropEverything: GstPadProbeCallback = { _, _, _ in GST_PAD_PROBE_DROP }

private let onSourceSetup: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstElement>?, gpointer?) -> Void = { _, source, data in
    guard let source, let data else { return }
    if ElementRef(pointer: source).factoryName == "appsrc" {
        Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue().appSourceCreated(source)
        return
    }
    // Count what GStreamer's own source reads: the whole media file.
    guard let pad = gst_element_get_static_pad(source, "src") else { return }
    defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
    _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, onSourceData, data, nil)
}

private let onSourceData: GstPadProbeCallback = { _, info, data in
    guard let info, let data, let buffer = info.pointee.data else { return GST_PAD_PROBE_OK }
    let size = gst_buffer_get_size(buffer.assumingMemoryBound(to: GstBuffer.self))
    Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue().sourceBytes(Int(size))
    return GST_PAD_PROBE_OK
}

private typealias HandoffCallback =
    @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstBuffer>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void

private let onVideoRendered: HandoffCallback = { _, _, _, data in
    guard let data else { return }
    Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue().sinkSawBuffer(.video, rendered: true)
}

private let onTextRendered: HandoffCallback = { _, buffer, pad, data in
    guard let buffer, let pad, let data else { return }
    Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue().textRendered(buffer, pad: pad)
}

private let onVideoPrerolled: HandoffCallback = { _, _, _, data in
    guard let data else { return }
    Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue().sinkPrerolled()
}

private let onAudioRendered: HandoffCallback = { _, _, _, data in
    guard let data else { return }
    Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue().sinkSawBuffer(.audio, rendered: true)
}

private let onVideoSinkData: GstPadProbeCallback = { pad, info, data in
    sinkProbe(pad, info, data, kind: .video)
}

private let onAudioSinkData: GstPadProbeCallback = { pad, info, data in
    sinkProbe(pad, info, data, kind: .audio)
}

private func sinkProbe(
    _ pad: UnsafeMutablePointer<GstPad>?, _ info: UnsafeMutablePointer<GstPadProbeInfo>?, _ data: gpointer?, kind: EngineTrack.Kind
) -> GstPadProbeReturn {
    guard let info, let data else { return GST_PAD_PROBE_OK }
    let pipeline = Unmanaged<GStreamerPipeline>.fromOpaque(data).takeUnretainedValue()
    let type = info.pointee.type.rawValue
    if type & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
        pipeline.sinkSawBuffer(kind, rendered: false)
        if let pad, let buffer = info.pointee.data {
            let end = cove_pad_buffer_stream_end(pad, buffer.assumingMemoryBound(to: GstBuffer.self))
            if end >= 0 { pipeline.sinkReceived(kind, upTo: Int64(end)) }
        }
    } else if let raw = info.pointee.data {
        let event = raw.assumingMemoryBound(to: GstEvent.self)
        let eventType = cove_event_type(event)
        if eventType == GST_EVENT_FLUSH_STOP {
            pipeline.sinkFlushed(kind, seqnum: gst_event_get_seqnum(event))
        } else if eventType == GST_EVENT_EOS {
            pipeline.sinkReachedEnd(kind)
        } else if eventType == GST_EVENT_CAPS, kind == .video {
            var width: gint = 0
            var height: gint = 0
            if cove_event_video_size(event, &width, &height) != 0 { pipeline.sinkCaps(width: Int(width), height: Int(height)) }
        }
    }
    return GST_PAD_PROBE_OK
}
