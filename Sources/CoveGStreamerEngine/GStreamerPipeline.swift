import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Logging
import Synchronization

/// One playbin3 pipeline and the thread that reads its bus.
///
/// Threading: GStreamer calls back on its streaming threads (pad probes, element signals) and posts
/// messages on the bus. Every `EngineEvent` that GStreamer gives rise to is emitted by the single bus
/// thread, in bus order; streaming threads only record facts and post application messages (notes), so
/// those events never race each other. The state lock is never held while calling into GStreamer,
/// because GStreamer may call back synchronously on the calling thread.
///
/// A pipeline either reads its URL itself (`Route.reading`: a progressive file, through uridecodebin3)
/// or is fed (`Route.fed`): a producer above the engine (Cove's streaming) pushes chunks into playbin3's
/// `appsrc://` source and, for a separate audio stream, its `suburi` source; the pipeline only demuxes,
/// decodes and renders them.
///
/// The class is split by concern, one file each (every one says which threads run its code):
/// - here: the stored parts, construction (playbin3, its sinks and signals) and release, and how events
///   leave (`emit`, `post`);
/// - `GStreamerPipeline+State.swift`: `State`, what the threads share;
/// - `GStreamerPipeline+Route.swift`: who fetches the media (`Route`) and the decoder-time offset;
/// - `GStreamerPipeline+Commands.swift`: load, play, pause, seek, rate, volume, close and teardown;
/// - `GStreamerPipeline+Queries.swift`: position, duration, seekable ranges, status, snapshot;
/// - `GStreamerPipeline+Feed.swift`: the fed inputs (appsrc sources, the feed's start and playhead);
/// - `GStreamerPipeline+Tracks.swift`: stream collections and selection (over `TrackCollections`);
/// - `GStreamerPipeline+Sinks.swift`: pad probes, handoffs and frame timing (the C callbacks);
/// - `GStreamerPipeline+BusMessages.swift`: GStreamer's bus messages (read by a `BusReader`) and errors;
/// - `GStreamerPipeline+Notes.swift`: the pipeline's own notes to its bus thread.
///
/// Locks (each documented where it is declared): `state` guards `State`; `transitions` serialises state
/// changes with teardown. Beside them, `notes` (`PipelineNotes`), `outputs`, `feed` and the audio input
/// keep locks of their own; none is taken while another is held.
///
/// `Sendable` without `@unchecked`: every stored property is an immutable, `Sendable` value; what
/// changes lives in the two `Mutex`es.
final class GStreamerPipeline: Sendable {
    let events: AsyncStream<EngineEvent>
    let continuation: AsyncStream<EngineEvent>.Continuation
    /// The pipeline (owned: released in `deinit`).
    let playbin: ElementRef
    /// The sinks for the app's outputs, and what serves them (window, frames, samples, captions).
    let outputs: PipelineOutputs
    var videoSink: ElementRef { outputs.videoSink }
    var audioSink: ElementRef { outputs.audioSink }
    let configuration: EnginePlayerConfiguration
    let logger: Logger
    /// Guards `State`: everything streaming threads, the bus thread, callers and the producer's
    /// tasks share. Held only for short reads and writes, never while calling into GStreamer (which may
    /// call back synchronously into a probe or signal that takes it) or while emitting.
    let state: Mutex<State>
    /// Typed notes to the bus thread, in order with GStreamer's own messages.
    let notes = PipelineNotes()
    /// The thread that reads the bus; teardown waits for it to let go.
    let busReader = BusReader()
    /// Serialises "is it closed?" with state changes, so nothing can set PLAYING after teardown set NULL.
    /// Unlike `state`, held across `gst_element_set_state`: the callbacks a state change runs take only
    /// `state`, never this.
    let transitions = Mutex(())
    let urlText: String
    /// Who fetches the media: a producer pushing into `feed`, or GStreamer reading the URL.
    let route: Route
    /// The main input of a fed pipeline: what a producer pushes goes into playbin3's appsrc. nil when the
    /// pipeline reads its URL itself (uridecodebin3).
    let feed: AppSourceFeed?
    /// The input of a pipeline whose media file's bytes a producer pushes (`Route.bytes`).
    let byteFeed: ByteSourceFeed?
    /// The rate's audio filter (`scaletempo`, and for varispeed a pitch shifter after it).
    let audioFilter: AudioRateFilter?

    init(configuration: EnginePlayerConfiguration, logger: Logger, route: Route) throws(PlaybackError) {
        self.configuration = configuration
        self.logger = logger
        self.urlText = configuration.url.absoluteString
        (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self, bufferingPolicy: .unbounded)

        guard let playbin = cove_element_make("playbin3", nil) else {
            let missing = GStreamerRuntime.missingElements()
            let detail =
                missing.isEmpty
                ? "playbin3 could not be created" : "missing elements: " + missing.map { "\($0.element) (\($0.package))" }.joined(separator: ", ")
            throw PlaybackError(.engineFailure, "GStreamer cannot build a player: \(detail); run `make deps`")
        }
        // Take ownership of the floating reference.
        gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        self.playbin = ElementRef(pointer: playbin)

        let sync = configuration.pacing == .realTime
        do {
            self.outputs = try PipelineOutputs(configuration: configuration, logger: logger)
        } catch {
            gst_object_unref(UnsafeMutableRawPointer(playbin))
            throw error
        }
        self.route = route
        state = Mutex(State(rate: configuration.rate > 0 ? configuration.rate : 1))
        self.feed = route == .fed ? AppSourceFeed() : nil
        self.byteFeed = route == .bytes ? ByteSourceFeed() : nil
        self.audioFilter = AudioRateFilter.make(configuration.pitchAlgorithm, rate: configuration.rate > 0 ? configuration.rate : 1)

        let object = self.playbin.object
        cove_set_string(object, "uri", route == .reading ? urlText : "appsrc://")
        // Only what a player needs: no software colour balance or deinterlacer in the chain (the shutter's
        // videobalance in the video sink bin passes frames through while it is open).
        cove_set_from_string(object, "flags", "video+audio+text+soft-volume+buffering")
        cove_set_object(object, "video-sink", videoSink.object)
        cove_set_object(object, "audio-sink", audioSink.object)
        cove_set_double(object, "volume", configuration.volume.level)
        cove_set_bool(object, "mute", configuration.volume.isMuted ? 1 : 0)
        // The stream's subtitles come to a sink of ours instead of being burnt into the picture: the
        // controller delivers their cues like a sidecar track's. Not async, so a sparse text stream
        // never holds the preroll.
        // Unsynchronised (fast) playback keeps GStreamer's own text handling: a text sink of ours there
        // holds the pipeline to real time (the sparse text stream's gaps pace it).
        let textSink = sync ? cove_element_make("fakesink", "cove-text-sink") : nil
        if let textSink {
            gst_object_ref_sink(UnsafeMutableRawPointer(textSink))
            cove_set_bool(UnsafeMutableRawPointer(textSink), "sync", sync ? 1 : 0)
            cove_set_bool(UnsafeMutableRawPointer(textSink), "async", 0)
            cove_set_bool(UnsafeMutableRawPointer(textSink), "signal-handoffs", 1)
            cove_set_object(object, "text-sink", UnsafeMutableRawPointer(textSink))
        }
        if let audioFilter {
            // How a rate other than 1 sounds (pitch kept, or following the rate); untouched audio at 1×.
            cove_set_object(object, "audio-filter", audioFilter.element.object)
        }

        connectStreamingThreadCallbacks(textSink: textSink)

        outputs.start(decoderOffset: { [weak self] in self?.decoderOffset ?? 0 })
        GStreamerRuntime.livePipelines.withLock { $0 += 1 }
        busReader.start(reading: self.playbin, for: self)
    }

    deinit {
        // The bus thread keeps the pipeline alive until close() has torn it down, so only references
        // are left to release. They are released here, never in close(): a query racing with close()
        // must still find live objects (it sees the NULL state and gets no answer).
        audioFilter?.release()
        gst_object_unref(playbin.object)
        MemoryReturn.afterPipelineReleased()
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Emits an event to the controller (the continuation is thread-safe; see the threading model above).
    func emit(_ event: EngineEvent) {
        continuation.yield(event)
    }

    /// Posts a note to the bus thread, behind every message already on the bus.
    func post(_ note: PipelineNote) {
        notes.post(note, on: playbin.pointer)
    }
}
