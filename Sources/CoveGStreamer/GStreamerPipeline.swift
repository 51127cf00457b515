import CCoveGst
import CGStreamer
import CoveCore
import CoveStreaming
import CoveText
import Foundation
import Logging
import Synchronization

/// One playbin3 pipeline and the thread that reads its bus.
///
/// Threading: GStreamer calls back on its streaming threads (pad probes, element signals) and posts
/// messages on the bus. Every `EngineEvent` is emitted by the single bus thread, in bus order; streaming
/// threads only record facts and post application messages, so events never race each other.
/// The state lock is never held while calling into GStreamer, because GStreamer may call back
/// synchronously on the calling thread.
final class GStreamerPipeline: @unchecked Sendable {
    let events: AsyncStream<EngineEvent>
    private let continuation: AsyncStream<EngineEvent>.Continuation
    private let playbin: ElementRef
    /// The sinks for the app's outputs, and what serves them (window, frames, samples, captions).
    private let outputs: PipelineOutputs
    private var videoSink: ElementRef { outputs.videoSink }
    private var audioSink: ElementRef { outputs.audioSink }
    private let configuration: EnginePlayerConfiguration
    private let logger: Logger
    private let state: Mutex<State>
    /// Typed notes to the bus thread, in order with GStreamer's own messages.
    private let notes = PipelineNotes()
    private let busThreadDone = DispatchSemaphore(value: 0)
    /// Serialises "is it closed?" with state changes, so nothing can set PLAYING after teardown set NULL.
    private let transitions = Mutex(())
    private let urlText: String
    /// Cove's own streaming for HLS and DASH: the session fetches, the feed pushes into playbin3's appsrc.
    /// nil for progressive media (uridecodebin3 reads it).
    private let feed: AppSourceFeed?
    /// What Cove's streaming was set up with.
    private let streaming: StreamingSetup

    struct RenderHandler: Sendable {
        let sink: ElementRef
        let kind: EngineTrack.Kind
        let id: gulong
        /// The video sink's `preroll-handoff`: the frame a display sink would show before the clock runs.
        let prerollID: gulong?
    }

    /// What streaming threads and the bus thread share.
    private struct State {
        var closed = false
        var wantsPlaying = false
        var prerolled = false
        /// The internal seek to `startPosition` (and initial rate) has been issued and not completed.
        var pipelineAtPlaying = false
        /// nil until the stream collection says whether there is video.
        var expectsVideo: Bool?
        /// Set after a load or a flush: the next relevant buffer at a sink is a "first frame".
        var awaitingBuffer = true
        /// Wall time of a first frame that arrived before the pipeline was playing.
        var frameWaitingForPlaying: Double?
        /// Wall time the first frame at the start position was shown at preroll (see `sinkPrerolled`),
        /// until the load finishes and it can be reported after `prerolled`.
        var shownAtPreroll: Double?
        /// The app's seek the engine is executing; completed by the ASYNC_DONE carrying its seqnum.
        var pendingSeek: (id: Int, target: MediaTime, seqnum: UInt32)?
        /// The internal start seek's seqnum, while it is in flight.
        var startSeekSeqnum: UInt32?
        /// Flushes seen at the sinks, and the seqnum of the latest (a seek's seqnum travels with its flush).
        var flushGeneration = 0
        var lastFlushSeqnum: UInt32?
        /// `flushGeneration` when end-of-stream last reached a sink: an EOS message is stale once a flush followed it.
        var eosGeneration = 0
        /// The rate of the latest seek (the pipeline plays at 1.0 until one sets another).
        var appliedRate = 1.0
        /// `appliedRate` before the latest seek: what the pipeline still plays at if that seek is refused.
        var rateBeforeSeek = 1.0
        var rate: Double
        var failed = false
        var lastBufferingSent = -1
        /// Which of the picture and sound reached end-of-stream since the flush `generation`.
        var mediaEndedKinds: (generation: Int, kinds: Set<EngineTrack.Kind>) = (0, [])
        /// The flush generation whose end of stream was reported (-1: none yet).
        var endReportedGeneration = -1
        var httpStatusByURI: [String: Int] = [:]
        var lastHTTPError: Int?
        var videoSize: (width: Int, height: Int)?
        var tracks: [EngineTrack] = []
        var selectedTrackIDs: [String] = []
        /// Signal handlers connected on the playbin.
        var signalHandlers: [gulong] = []
        /// Handoff handlers on headless sinks (each holds a reference to its sink).
        var renderHandlers: [RenderHandler] = []
        /// Kinds whose frames are timed by sink render handoffs rather than buffer arrival.
        var renderTimedKinds: Set<EngineTrack.Kind> { Set(renderHandlers.map(\.kind).filter { $0 != .text }) }
        /// Subtitle cues handed to the text sink, waiting for the bus thread to report them.
        var pendingCues: [TextCue] = []
        var bytesRead = 0
        /// GStreamer made this adaptive demuxer for a manifest behind a media file's name (see `manifestBehindMediaName`).
        var disguisedManifest: String?
        /// How this pipeline gets its media.
        var route: Route
        /// Cove's streaming: where the first generation starts (presentation time), once the playlists
        /// said; the pipeline leaves NULL only then.
        var streamStart: Double?
        /// Cove's streaming: the stream ran dry while playing (0 % reported), waiting for media.
        var streamStarved = false
        /// Since when (wall seconds) one of two streams has had nothing ahead of the playhead (see `checkStreamingBuffer`).
        var streamDrySince: Double?
        /// Cove's streaming: the presentation's subtitle renditions as tracks (ids `cove-text-N`), beside
        /// the streams GStreamer finds in the media.
        var coveTextTracks: [(track: EngineTrack, rendition: AlternateRendition)] = []
        /// The subtitle rendition playing, and its loader.
        var coveTextSelected: String?
        var textLoader: TextRenditionLoader?
        /// Cove's streaming: the alternate audio renditions, streamed into playbin3's `suburi`.
        var audio: AudioRenditionFeed?
        /// Where the subtitle loader last heard the playhead was.
        var textPlayhead: Double?
        /// The streaming playhead last seen by the buffer check, and since when it has not moved.
        var streamPlayhead: (position: Double, since: Double)?
        /// Stream time (ns) up to which media reached each sink since the last flush.
        var sinkEnds: [EngineTrack.Kind: Int64] = [:]
    }

    /// Who fetches the media.
    enum Route: Equatable {
        /// Cove's streaming engine pushes into `appsrc://`.
        case cove
        /// GStreamer reads the URL itself: progressive media files.
        case gstreamer
    }

    init(configuration: EnginePlayerConfiguration, logger: Logger, streaming: StreamingSetup) throws(PlaybackError) {
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
        let route: Route = Self.isStreamedByCove(configuration.url) ? .cove : .gstreamer
        state = Mutex(State(rate: configuration.rate > 0 ? configuration.rate : 1, route: route))
        let feed: AppSourceFeed? = route == .cove ? AppSourceFeed() : nil
        self.feed = feed
        self.streaming = streaming

        let object = self.playbin.object
        cove_set_string(object, "uri", route == .cove ? "appsrc://" : urlText)
        // Only what a player needs: no software colour balance or deinterlacer in the chain.
        cove_set_from_string(object, "flags", "video+audio+text+soft-volume+buffering")
        // GStreamer's HTTP stack only where GStreamer reads the URL itself (a media file): Cove's
        // streaming never loads libsoup.
        if route == .gstreamer { GStreamerRuntime.shareSession(with: playbin) }
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
        if let scaletempo = cove_element_make("scaletempo", nil) {
            // Keeps pitch when the rate changes; passes audio through untouched at rate 1.
            cove_set_object(object, "audio-filter", UnsafeMutableRawPointer(scaletempo))
        }

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

        if let feed {
            let session = StreamingSession(
                url: configuration.url, transport: streaming.transport, configuration: streaming.settings(for: configuration), output: feed, logger: logger
            ) { [weak self] event in
                self?.handleStreaming(event)
            }
            session.setMaxBitrate(configuration.maxBitrate)
            session.setForwardBuffer(forwardBufferTarget(configuration.forwardBufferDuration))
            feed.attach(session: session, playhead: { [weak self] in self?.streamingPlayhead() })
        }

        outputs.start(decoderOffset: { [weak self] in self?.decoderOffset ?? 0 })
        GStreamerRuntime.livePipelines.withLock { $0 += 1 }
        let thread = Thread { [self] in self.readBus() }
        thread.name = "cove-gst-bus"
        thread.start()
    }

    /// Unsynchronised sinks play as fast as they decode, and their position follows the clock rather than
    /// the media: a forward buffer measured from it means nothing. Cove's streaming then fetches without
    /// waiting for the playhead (the decoders drain what it pushes at decode speed).
    private func forwardBufferTarget(_ duration: Duration?) -> Duration? {
        configuration.pacing == .unsynchronized ? .seconds(3_600) : duration
    }

    /// What Cove's streaming needs from the engine.
    struct StreamingSetup: Sendable {
        let transport: any HTTPTransport
        let configuration: StreamingConfiguration

        /// The engine's streaming settings with this player's start policy, and its Playback Rights token
        /// on the requests the controller chose (`bcov_auth`, after the app's own filters).
        func settings(for player: EnginePlayerConfiguration) -> StreamingConfiguration {
            var settings = configuration
            settings.startsOnLowestVariant = player.startPolicy.startsOnLowestVariant
            if let token = player.playbackRights {
                let kinds: Set<StreamingRequestKind>
                switch player.rightsTokenRequests {
                case .none: kinds = []
                case .keys: kinds = [.key]
                case .all: kinds = [.manifest, .segment, .initSegment, .key, .text]
                }
                if !kinds.isEmpty { settings.requestFilters.append(.queryItem("bcov_auth", token.compact, kinds: kinds)) }
            }
            return settings
        }
    }

    /// Whether Cove's streaming takes the URL: every HTTP(S) URL but those whose name says media file; an
    /// unknown name is probed by the session (an HLS playlist or a DASH manifest plays, a media file goes
    /// to GStreamer, an HTML page or junk is a typed error at once).
    /// A scheme registered in `LocalResources` (downloaded media, `cove-offline:`) is Cove's too: only its
    /// streaming can read it; so is a presentation on disk (`file:`), read by the streaming loader.
    static func isStreamedByCove(_ url: URL) -> Bool {
        if LocalResources.handles(url) || url.isFileURL { return !progressiveExtensions.contains(url.pathExtension.lowercased()) }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !progressiveExtensions.contains(url.pathExtension.lowercased())
    }

    /// Names GStreamer reads itself: progressive files.
    private static let progressiveExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "mov", "mkv", "webm", "mp3", "aac", "wav", "ogg", "oga", "opus", "flac", "ts", "jpg", "png",
    ]

    private var route: Route { state.withLock { $0.route } }

    /// Cove's streaming fetches this stream (not GStreamer's own HLS or progressive reading).
    var isStreamedByCove: Bool { route == .cove }

    /// Decoder time minus presentation time: Cove's streaming places media `decoderTimeOffset` later
    /// (see `StreamingConfiguration.decoderTimeOffset`); GStreamer's own reading places it as it is.
    private var decoderOffset: Double {
        route == .cove ? (feed?.session?.decoderTimeOffset ?? 0) : 0
    }

    /// A start at a position needs a seek once prerolled, unless Cove's streaming starts the source there.
    private var needsStartSeek: Bool {
        route == .gstreamer && (configuration.startPosition.map { $0 > .zero && $0.isFinite } ?? false)
    }

    deinit {
        // The bus thread keeps the pipeline alive until close() has torn it down, so only references
        // are left to release. They are released here, never in close(): a query racing with close()
        // must still find live objects (it sees the NULL state and gets no answer).
        gst_object_unref(playbin.object)
        MemoryReturn.afterPipelineReleased()
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: Commands

    func load(playWhenReady: Bool) {
        state.withLock {
            $0.wantsPlaying = playWhenReady
            $0.awaitingBuffer = true
        }
        if route == .cove, let session = feed?.session {
            // The pipeline leaves NULL once the playlists say where the stream starts (`.starting`):
            // its source must begin there.
            session.start(at: configuration.startPosition.flatMap { $0.isFinite && $0 > .zero ? $0.seconds : nil })
            return
        }
        startPipeline()
    }

    /// PAUSED to preroll, or straight to PLAYING when playing was asked for and no start seek must come first.
    private func startPipeline() {
        let wantsPlaying = state.withLock { $0.wantsPlaying }
        setState((wantsPlaying && !needsStartSeek) ? GST_STATE_PLAYING : GST_STATE_PAUSED)
    }

    func play() {
        let go = state.withLock { s -> Bool in
            s.wantsPlaying = true
            return s.startSeekSeqnum == nil && !s.closed
        }
        if go { setState(GST_STATE_PLAYING) }
    }

    func pause() {
        let go = state.withLock { s -> Bool in
            s.wantsPlaying = false
            return !s.closed
        }
        if go { setState(GST_STATE_PAUSED) }
    }

    func seek(to target: MediaTime, tolerance: SeekTolerance, id: Int) {
        guard !isClosed else { return }
        if let loader = state.withLock({ $0.textLoader }), let seconds = target.isFinite ? target.seconds : nil { loader.seek(to: seconds) }
        sendSeek(
            to: target, keyUnit: tolerance.allowsKeyframeSnap,
            register: { s, seqnum in
                s.pendingSeek = (id, target, seqnum)
            }, failed: .seekFailed(id: id))
    }

    /// Records a flushing seek's seqnum (with `register`) before sending it — its ASYNC_DONE may arrive on
    /// the bus thread before `send_event` returns — and sends it. When the engine refuses it, the `failed`
    /// application message (carrying `failedValue`) is posted, so the bus thread reports it in order.
    /// The seek carries the rate the app wants at the moment it is registered (read under the same lock
    /// that records it as applied), so a `setRate` racing with it is either carried by it or sees it
    /// applied and sends its own.
    /// `onlyIf` is checked under that same lock: a seek whose reason is gone by then (a rate already
    /// applied, an app seek already finished) is not sent.
    private func sendSeek(
        to target: MediaTime, keyUnit: Bool, onlyIf stillWanted: (State) -> Bool = { _ in true }, register: (inout State, UInt32) -> Void = { _, _ in },
        failed: PipelineNote? = nil
    ) {
        let seqnum = gst_util_seqnum_next()
        let rate = state.withLock { s -> Double? in
            guard stillWanted(s) else { return nil }
            s.rateBeforeSeek = s.appliedRate
            s.appliedRate = s.rate
            register(&s, seqnum)
            return s.rate
        }
        guard let rate, !isClosed else { return }
        let position = gint64(max(target.nanoseconds ?? 0, 0)) + gint64(decoderOffset * 1_000_000_000)
        var sent = false
        if let event = cove_make_seek(rate, position, keyUnit ? 1 : 0) {
            gst_event_set_seqnum(event, seqnum)
            // The flush resets the sink's frame counts: fold them in first.
            outputs.observeFrames()
            sent = gst_element_send_event(playbin.pointer, event) != 0
        }
        // playbin3 seeks only its main source: the audio rendition's source gets the same seek.
        if sent, let audio = state.withLock({ $0.audio }), let event = cove_make_seek(rate, position, keyUnit ? 1 : 0) {
            gst_event_set_seqnum(event, seqnum)
            audio.forward(seek: event)
        }
        if !sent, let failed { post(failed) }
    }

    /// Sets playbin3's volume and mute (the soft-volume element before the audio sink), then reports
    /// what it applied from the bus thread, in order with the other events.
    func setVolume(_ volume: AudioVolume) {
        guard !isClosed else { return }
        cove_set_double(playbin.object, "volume", volume.level)
        cove_set_bool(playbin.object, "mute", volume.isMuted ? 1 : 0)
        post(.volumeApplied)
    }

    func showCaptions(_ cues: [TextCue]) {
        guard !isClosed else { return }
        outputs.showCaptions(cues)
    }

    func setRate(_ rate: Double) {
        let rate = rate > 0 ? rate : 1
        state.withLock { $0.rate = rate }
        applyRateIfNeeded()
    }

    /// Brings the playing rate to the one asked for with a flushing seek at the playhead — once the
    /// pipeline has prerolled and no start seek is in flight (those carry the rate themselves). While
    /// another seek flushes, the playhead cannot be queried: the rate then waits for that seek's
    /// ASYNC_DONE, which calls this again (dropping it there played whole SSAI ads at the app's rate).
    private func applyRateIfNeeded() {
        let (apply, pending) = state.withLock { s -> (Bool, (id: Int, target: MediaTime, seqnum: UInt32)?) in
            (s.appliedRate != s.rate && s.prerolled && s.startSeekSeqnum == nil && !s.closed, s.pendingSeek)
        }
        guard apply else { return }
        if let pending {
            // The rate seek replaces the app's seek in flight: it carries on its target and completion.
            sendSeek(to: pending.target, keyUnit: false, onlyIf: { s in s.appliedRate != s.rate && s.pendingSeek?.seqnum == pending.seqnum }) { s, seqnum in
                s.pendingSeek = (pending.id, pending.target, seqnum)
            }
        } else if let at = currentPosition() {
            sendSeek(to: at, keyUnit: false, onlyIf: { s in s.appliedRate != s.rate && s.pendingSeek == nil })
        }
    }

    func setMaxBitrate(_ bitsPerSecond: Int?) {
        feed?.session?.setMaxBitrate(bitsPerSecond)
    }

    func setForwardBufferDuration(_ duration: Duration?) {
        feed?.session?.setForwardBuffer(forwardBufferTarget(duration))
        state.withLock { $0.audio }?.session?.setForwardBuffer(forwardBufferTarget(duration))
    }

    func selectTracks(audio requested: String?, text: String?) {
        guard !isClosed else { return }
        let renditions = state.withLock { $0.audio }
        if let renditions, let id = requested,
            renditions.select(id, at: currentPosition()?.seconds, decoderOffset: decoderOffset, rate: state.withLock { $0.rate })
        {
            // GStreamer keeps decoding its one audio stream; which rendition feeds it is Cove's choice.
            emit(.tracksSelected(state.withLock { publicSelection($0) }))
        }
        let coveText = selectCoveText(text)
        // With Cove's audio renditions GStreamer's audio is the rendition's stream; with Cove's subtitles
        // GStreamer plays no text stream.
        // With Cove's audio renditions and subtitles GStreamer keeps its own selection (every stream it
        // has): a selection naming a stale stream id after the audio source restarted would deselect it,
        // and an unlinked appsrc stops the pipeline.
        if renditions != nil && (coveText || text == nil) { return }
        _ = sendSelection(audio: renditions == nil ? requested : state.withLock { s in s.tracks.first { $0.kind == .audio }?.id }, text: coveText ? nil : text)
    }

    /// Sends `select-streams` for the current video plus the wanted audio and text; false when nothing
    /// was sent.
    private func sendSelection(audio: String?, text: String?) -> Bool {
        guard !isClosed else { return false }
        let ids = state.withLock { s -> [String] in
            var ids = s.tracks.filter { $0.kind == .video && s.selectedTrackIDs.contains($0.id) }.map(\.id)
            if ids.isEmpty, let firstVideo = s.tracks.first(where: { $0.kind == .video }) { ids.append(firstVideo.id) }
            if let audio, s.tracks.contains(where: { $0.id == audio && $0.kind == .audio }) { ids.append(audio) }
            if let text, s.tracks.contains(where: { $0.id == text && $0.kind == .text }) { ids.append(text) }
            return ids
        }
        guard !ids.isEmpty else { return false }
        var cStrings = ids.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { base in
                cove_select_streams(playbin.pointer, base, gint(buffer.count)) != 0
            }
        }
    }

    func currentPosition() -> MediaTime? {
        guard !isClosed else { return nil }
        var position: gint64 = -1
        guard gst_element_query_position(playbin.pointer, GST_FORMAT_TIME, &position) != 0 else { return nil }
        let offset = Int(decoderOffset * 1_000_000_000)
        return mediaTime(nanoseconds: max(Int(position) - offset, 0))
    }

    func currentDuration() -> MediaTime? {
        guard !isClosed else { return nil }
        if route == .cove { return feed?.session?.duration.map { MediaTime(seconds: $0) } }
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
        if route == .cove, let session = feed?.session {
            status.bufferedAhead = session.bufferedAhead.map { .milliseconds(Int64($0 * 1000)) }
            status.bandwidthEstimate = session.bandwidthEstimate
            status.bytesRead = session.bytesLoaded + (state.withLock { $0.audio }?.session?.bytesLoaded ?? 0)
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

    /// Stops the pipeline without blocking the caller: the state flips to closed at once (queries
    /// answer nil, commands are ignored) and the teardown to NULL runs on its own thread; `events`
    /// finishes when it is done.
    func close() {
        guard let handlers = beginClose() else { return }
        outputs.close()
        feed?.close()
        state.withLock { $0.audio }?.close()
        state.withLock { s -> TextRenditionLoader? in
            defer { s.textLoader = nil }
            return s.textLoader
        }?.stop()
        Thread.detachNewThread { [self] in tearDown(handlers) }
    }

    private struct Handlers: @unchecked Sendable {
        let signals: [gulong]
        let renders: [RenderHandler]
    }

    /// Marks the pipeline closed; nil when it already was.
    private func beginClose() -> Handlers? {
        state.withLock { s -> Handlers? in
            guard !s.closed else { return nil }
            s.closed = true
            defer {
                s.signalHandlers = []
                s.renderHandlers = []
            }
            return Handlers(signals: s.signalHandlers, renders: s.renderHandlers)
        }
    }

    private func tearDown(_ handlers: Handlers) {
        post(.stop)
        for handler in handlers.signals { cove_signal_disconnect(playbin.object, handler) }
        for handler in handlers.renders {
            cove_signal_disconnect(handler.sink.object, handler.id)
            if let prerollID = handler.prerollID { cove_signal_disconnect(handler.sink.object, prerollID) }
            gst_object_unref(handler.sink.object)
        }
        transitions.withLock { _ in _ = gst_element_set_state(playbin.pointer, GST_STATE_NULL) }
        // A window sink given its window while still in NULL opened its display then, and closes it only
        // on leaving READY — which a sink never linked (a pipeline that did not start, media without
        // video) never does: it is made to now, not at some later release when the display may be gone.
        outputs.releaseDisplay()
        GStreamerRuntime.livePipelines.withLock { $0 -= 1 }
        _ = busThreadDone.wait(timeout: .now() + .seconds(5))
        continuation.finish()
    }

    private func setState(_ target: GstState) {
        // Cove's streaming: the pipeline stays in NULL until the playlists said where the stream starts
        // (its sources are made then, and must begin there); play/pause meanwhile only set `wantsPlaying`.
        if state.withLock({ $0.route == .cove && $0.streamStart == nil }) { return }
        let failed = transitions.withLock { _ -> Bool in
            guard !isClosed else { return false }
            return gst_element_set_state(playbin.pointer, target) == GST_STATE_CHANGE_FAILURE
        }
        if failed {
            // The ERROR message that explains the failure (if any) is already on the bus ahead of this one.
            post(.stateChangeFailed)
        }
    }

    // MARK: Cove's streaming

    /// What the streaming session reports (on its own tasks). Engine events go out at once: they are
    /// thread-safe to yield, and the ladder and the start come before anything is pushed.
    private func handleStreaming(_ event: StreamingEvent) {
        guard !isClosed else { return }
        switch event {
        case .presentationReady(let presentation, _):
            if presentation.variants.count > 1 || presentation.variants.contains(where: { $0.bandwidth > 0 }) {
                emit(.variantsDiscovered(presentation.ladder))
            }
            announceAudioRenditions(presentation)
            announceTextRenditions(presentation)
        case .starting(let at, _):
            let (first, audio) = state.withLock { s -> (Bool, AudioRenditionFeed?) in
                guard s.streamStart == nil else { return (false, nil) }
                s.streamStart = at
                return (true, s.audio)
            }
            guard first else { return }
            audio?.start(at: at)
            startPipeline()
        case .variantSelected(let variant):
            emit(.variantChanged(bandwidth: variant.bandwidth, url: Redaction.redact(url: variant.playlistURL)))
        case .request(let record):
            let kind = MediaTransfer.Kind(rawValue: record.kind.rawValue) ?? .other
            // An audio rendition's variant indexes are its own session's, not the ladder's.
            let bandwidth =
                record.stream == .audio
                ? nil : record.variantIndex.flatMap { index in feed?.session?.presentation?.variants.first { $0.index == index }?.bandwidth }
            emit(
                .transferCompleted(
                    MediaTransfer(
                        kind: kind, url: record.url, status: record.status, bytes: record.bytes, startedAt: record.startedAt, duration: record.duration,
                        variantBandwidth: bandwidth, attempt: record.attempt, span: record.span)))
        case .timelineUpdated:
            break
        case .downloadFailed(let error) where error.isPermanent:
            // No retry brings an expired licence or a deleted file back: the session fails with the typed error.
            let report = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            if report { emit(.failed(error.playbackError)) }
        case .downloadFailed(let error):
            emit(.downloadFailed(error.downloadFailure))
        case .failed(let error):
            let fallBack = state.withLock { s -> Bool in
                guard s.streamStart == nil, s.route == .cove, error.code == .notStreamable else { return false }
                s.route = .gstreamer
                return true
            }
            if fallBack {
                // A media file behind a name that did not say so: GStreamer reads it itself.
                logger.notice("GStreamer reads this URL itself", metadata: ["reason": "\(error.message)"])
                feed?.close()
                GStreamerRuntime.shareSession(with: playbin.pointer)
                cove_set_string(playbin.object, "uri", urlText)
                startPipeline()
                return
            }
            let report = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            if report { emit(.failed(error.playbackError)) }
        }
    }

    /// The presentation's subtitle renditions become text tracks; the default one (or the first that may
    /// be chosen automatically) plays, as GStreamer's own HLS selected it.
    private func announceTextRenditions(_ presentation: Presentation) {
        guard !presentation.textRenditions.isEmpty else { return }
        let tracks = presentation.textRenditions.enumerated().compactMap { index, rendition -> (EngineTrack, AlternateRendition)? in
            guard rendition.playlistURL != nil else { return nil }
            return (EngineTrack(id: "cove-text-\(index)", kind: .text, language: rendition.language, title: rendition.name, codec: "wvtt"), rendition)
        }
        guard !tracks.isEmpty else { return }
        let merged = state.withLock { s -> [EngineTrack] in
            s.coveTextTracks = tracks.map { (track: $0.0, rendition: $0.1) }
            return publicTracks(s)
        }
        emit(.tracksChanged(merged))
        let preferred = tracks.first { $0.1.isDefault } ?? tracks.first { $0.1.isAutoselect && $0.1.isForced }
        if let preferred { _ = selectCoveText(preferred.0.id) }
    }

    /// Switches Cove's subtitle loader to `id` (a `cove-text-N` track) or off. False when the presentation
    /// has no Cove subtitles, or `id` is one of GStreamer's streams (then Cove's subtitles stop).
    private func selectCoveText(_ id: String?) -> Bool {
        let (rendition, old, known) = state.withLock { s -> (AlternateRendition?, TextRenditionLoader?, Bool) in
            guard !s.coveTextTracks.isEmpty else { return (nil, nil, false) }
            let rendition = id.flatMap { id in s.coveTextTracks.first { $0.track.id == id }?.rendition }
            guard rendition != nil || id == nil || s.coveTextSelected != nil else { return (nil, nil, false) }
            let old = s.textLoader
            s.textLoader = nil
            s.coveTextSelected = rendition == nil ? nil : id
            return (rendition, old, true)
        }
        old?.stop()
        guard known else { return false }
        if let rendition, let session = feed?.session {
            do {
                let loader = try session.makeTextRenditionLoader(
                    for: rendition,
                    onCues: { [weak self] cues in
                        for cue in cues { self?.emit(.textCue(cue)) }
                    },
                    onError: { [weak self] error in
                        self?.emit(.warning("Subtitles '\(rendition.name)' failed: \(error.message)"))
                    })
                // Another selection may have come while this loader was made: then it is not wanted.
                let (wanted, at) = state.withLock { s -> (Bool, Double?) in
                    guard s.coveTextSelected == id, s.textLoader == nil, !s.closed else { return (false, nil) }
                    s.textLoader = loader
                    return (true, s.textPlayhead ?? s.streamStart)
                }
                guard wanted else { return true }
                if let at { loader.seek(to: at) }
                loader.start()
            } catch {
                emit(.warning("Subtitles '\(rendition.name)' cannot load: \(error.message)"))
            }
        }
        if id == nil || rendition != nil {
            emit(.tracksSelected(state.withLock { publicSelection($0) }))
        }
        return rendition != nil || id == nil
    }

    /// Tells the subtitle loader where the playhead is (it fetches ahead of it).
    private func updateTextPlayhead(_ playhead: Double?) {
        guard let playhead else { return }
        let loader = state.withLock { s -> TextRenditionLoader? in
            guard let loader = s.textLoader, abs((s.textPlayhead ?? -10) - playhead) >= 0.5 else { return nil }
            s.textPlayhead = playhead
            return loader
        }
        loader?.update(playhead: playhead)
    }

    /// playbin3 made the `appsrc://` source: the feed takes it over, starting where the session starts.
    fileprivate func appSourceCreated(_ element: UnsafeMutablePointer<GstElement>) {
        guard let feed, route == .cove else { return }
        let (start, audio) = state.withLock { ($0.streamStart, $0.audio) }
        if let audio, takeGString(cove_element_uri(element)) == AudioRenditionFeed.uri {
            audio.attach(appsrc: element, start: start)
            return
        }
        feed.attach(appsrc: element, start: start)
        feed.setDuration(feed.session?.duration)
    }

    /// The variant's audio renditions with playlists of their own play from a second appsrc (playbin3's
    /// `suburi`), streamed by Cove like the video. Called before the pipeline leaves NULL.
    private func announceAudioRenditions(_ presentation: Presentation) {
        guard state.withLock({ $0.audio == nil }) else { return }
        guard
            let audio = AudioRenditionFeed(
                presentation: presentation, transport: streaming.transport, configuration: streaming.settings(for: configuration), logger: logger,
                playhead: { [weak self] in self?.streamingPlayhead() },
                onEvent: { [weak self] event in self?.handleAudioStreaming(event) }
            )
        else { return }
        audio.session?.setForwardBuffer(forwardBufferTarget(configuration.forwardBufferDuration))
        state.withLock { $0.audio = audio }
        cove_set_string(playbin.object, "suburi", AudioRenditionFeed.uri)
    }

    /// The audio rendition's session reports: its requests count, its failures are the stream's.
    private func handleAudioStreaming(_ event: StreamingEvent) {
        switch event {
        case .request, .downloadFailed:
            handleStreaming(event)
        case .failed(let error):
            handleStreaming(.downloadFailed(error))
        case .presentationReady, .starting, .timelineUpdated, .variantSelected:
            break
        }
    }

    /// GStreamer's streams as apps see them: with Cove's audio renditions, the one audio stream GStreamer
    /// decodes stands for whichever rendition is selected, so the renditions are listed instead.
    private func publicTracks(_ s: State) -> [EngineTrack] {
        var tracks = s.tracks
        if let audio = s.audio {
            tracks.removeAll { $0.kind == .audio }
            tracks += audio.tracks.map(\.track)
        }
        return tracks + s.coveTextTracks.map(\.track)
    }

    /// The selected streams as apps see them (see `publicTracks`).
    private func publicSelection(_ s: State) -> [String] {
        var ids = s.selectedTrackIDs
        if let audio = s.audio {
            ids.removeAll { id in s.tracks.contains { $0.id == id && $0.kind == .audio } }
            if let selected = audio.selected { ids.append(selected) }
        }
        if !s.coveTextTracks.isEmpty {
            ids.removeAll { id in s.tracks.contains { $0.id == id && $0.kind == .text } }
            if let text = s.coveTextSelected { ids.append(text) }
        }
        return ids
    }

    /// Cove's streaming reports its own buffering from what it pushed: 0 % when the playhead has reached
    /// the end of the pushed media and stopped there (a real stall: the demuxer holds a segment's last
    /// frame until more data comes, so "reached" is within `streamStarvation`), 100 % once a second of
    /// media (or the end) is there again.
    private func checkStreamingBuffer() {
        guard route == .cove, let session = feed?.session else { return }
        let (prerolled, starved) = state.withLock { ($0.prerolled && !$0.closed, $0.streamStarved) }
        let audio = state.withLock { $0.audio }?.session
        guard prerolled, let videoAhead = session.bufferedAhead else { return }
        let ahead = min(videoAhead, audio?.bufferedAhead ?? videoAhead)
        let ended = session.hasPushedEnd && (audio?.hasPushedEnd ?? true)
        let now = Date().timeIntervalSince1970
        let playhead = streamingPlayhead()
        updateTextPlayhead(playhead)
        let frozen = state.withLock { s -> Bool in
            guard let playhead, let last = s.streamPlayhead, abs(last.position - playhead) < 0.001 else {
                s.streamPlayhead = playhead.map { ($0, now) }
                return false
            }
            return now - last.since >= Self.streamFrozen
        }
        // Starved: the playhead stands at the end of what was pushed — or, with a separate audio source (a
        // DASH audio set, an HLS rendition), one stream has had nothing ahead of the playhead for
        // `streamOverrun` while the other's clock went on: the picture froze while the sound played (or the
        // reverse). Either way playback waits until both refill.
        let overrun = state.withLock { s -> Bool in
            guard audio != nil, ahead <= 0 else {
                s.streamDrySince = nil
                return false
            }
            if s.streamDrySince == nil { s.streamDrySince = now }
            return now - (s.streamDrySince ?? now) >= Self.streamOverrun
        }
        if !starved && !ended && ((ahead < Self.streamStarvation && frozen) || overrun) && state.withLock({ $0.pipelineAtPlaying }) {
            state.withLock { s in
                s.streamStarved = true
                s.lastBufferingSent = 0
            }
            emit(.buffering(percent: 0))
        } else if starved && (ended || ahead >= Self.streamRefilled) {
            state.withLock { s in
                s.streamStarved = false
                s.lastBufferingSent = 100
            }
            emit(.buffering(percent: 100))
        }
    }

    /// Media left at the playhead when it stops: at most the frames the demuxer still holds.
    private static let streamStarvation = 0.3
    /// How long one stream may have nothing ahead of a moving playhead (a segment's media can outlast its
    /// nominal duration by a frame or two) before the other stream's clock is known to run without it.
    private static let streamOverrun = 0.25
    /// How long the playhead must stand still near the end of the pushed media to count as stalled.
    private static let streamFrozen = 0.2
    /// Media buffered again before a stalled stream plays on.
    private static let streamRefilled = 1.0

    // MARK: Streaming-thread callbacks

    /// How a first-frame report came about (the `a` value of the `cove-first-buffer` message).
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
        return s.flushGeneration == 0 && !(s.route == .gstreamer && (configuration.startPosition.map { $0 > .zero && $0.isFinite } ?? false))
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

    /// Unsynchronised sinks render as fast as they decode and their position follows the clock, not the
    /// media: what reached the sinks is where playback is.
    private func renderedPosition() -> Double? {
        let (ends, video) = state.withLock { ($0.sinkEnds, $0.expectsVideo ?? true) }
        let kinds: [EngineTrack.Kind] = video ? [.video, .audio] : [.audio]
        guard let end = kinds.compactMap({ ends[$0] }).min() else { return nil }
        return max(Double(end) / 1_000_000_000 - decoderOffset, 0)
    }

    /// The playhead Cove's streaming measures its buffer from (presentation seconds).
    private func streamingPlayhead() -> Double? {
        configuration.pacing == .realTime ? currentPosition()?.seconds : renderedPosition()
    }

    fileprivate func sinkFlushed(seqnum: UInt32) {
        state.withLock { s in
            s.sinkEnds = [:]
            s.awaitingBuffer = true
            s.flushGeneration += 1
            s.lastFlushSeqnum = seqnum
        }
    }

    fileprivate func sinkReachedEnd(_ kind: EngineTrack.Kind) {
        let ended = state.withLock { s -> Bool in
            s.eosGeneration = s.flushGeneration
            if s.mediaEndedKinds.generation != s.flushGeneration { s.mediaEndedKinds = (s.flushGeneration, []) }
            s.mediaEndedKinds.kinds.insert(kind)
            let expected: Set<EngineTrack.Kind> = s.expectsVideo == false ? [.audio] : (s.expectsVideo == true ? [.video, .audio] : [.video])
            return expected.isSubset(of: s.mediaEndedKinds.kinds)
        }
        // The picture and sound have ended: that is the end, even while a text stream that runs longer
        // (a subtitle playlist a segment longer than the media) has not.
        if ended {
            outputs.observeFrames()
            post(.mediaEnded)
        }
    }

    /// Reports the end of stream once per flush generation (the media's own end or the pipeline's EOS).
    private func reportEndOfStream() {
        let report = state.withLock { s -> Bool in
            guard s.eosGeneration == s.flushGeneration, s.endReportedGeneration != s.flushGeneration else { return false }
            s.endReportedGeneration = s.flushGeneration
            return true
        }
        if report { emit(.endOfStream) }
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

    /// Reports `manifestBehindMediaName` from the bus thread, in order with the other events.
    private func reportDisguisedManifest() {
        let (factory, report) = state.withLock { s -> (String, Bool) in
            defer { s.failed = true }
            return (s.disguisedManifest ?? "", !s.failed)
        }
        logger.notice("a manifest behind a media file's name", metadata: ["demuxer": "\(factory)"])
        guard report else { return }
        let name = configuration.url.pathExtension
        emit(
            .failed(
                PlaybackError(
                    .unsupportedFormat,
                    "\(Redaction.redact(urlString: urlText)) holds an HLS or DASH manifest under a media file's name (.\(name)); Cove streams manifests itself: give the URL its .m3u8 or .mpd name, or a name without an extension, so Cove reads it as one",
                    url: urlText
                )))
    }

    private func installProbe(on sink: ElementRef, kind: EngineTrack.Kind) {
        guard let pad = gst_element_get_static_pad(sink.pointer, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let mask = GstPadProbeType(
            rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue)
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = gst_pad_add_probe(pad, mask, kind == .video ? onVideoSinkData : onAudioSinkData, context, nil)
    }

    // MARK: Bus thread

    private func readBus() {
        guard let bus = gst_element_get_bus(playbin.pointer) else {
            busThreadDone.signal()
            return
        }
        defer {
            gst_object_unref(UnsafeMutableRawPointer(bus))
            busThreadDone.signal()
        }
        while true {
            // A finite wait so a flushed bus (pipeline set to NULL) cannot strand the thread.
            let streaming = state.withLock { $0.route == .cove && $0.prerolled }
            let timeout: GstClockTime = streaming ? 50_000_000 : 250_000_000
            guard let message = gst_bus_timed_pop(bus, timeout) else {
                if state.withLock({ $0.closed }) { return }
                checkStreamingBuffer()
                continue
            }
            defer { gst_message_unref(message) }
            if handle(message) == false { return }
            // Also after messages, so a steady stream of them (QoS on a loaded machine) cannot starve it.
            if streaming { checkStreamingBuffer() }
        }
    }

    /// Maps one bus message to events. Returns false when the thread should stop.
    private func handle(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        let type = message.pointee.type
        let fromPipeline = cove_message_source(message) == UnsafeMutableRawPointer(playbin.pointer).assumingMemoryBound(to: GstObject.self)
        switch type {
        case GST_MESSAGE_APPLICATION:
            return handleApplication(message)
        case GST_MESSAGE_STATE_CHANGED where fromPipeline:
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            var pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            logger.trace(
                "pipeline state changed",
                metadata: [
                    "old": "\(old.rawValue)", "new": "\(new.rawValue)", "pending": "\(pending.rawValue)",
                    "wantsPlaying": "\(state.withLock { $0.wantsPlaying })",
                ])
            if new == GST_STATE_PLAYING {
                let (wasPlaying, frameTime) = state.withLock { s -> (Bool, Double?) in
                    let was = s.pipelineAtPlaying
                    s.pipelineAtPlaying = true
                    defer { s.frameWaitingForPlaying = nil }
                    return (was, s.frameWaitingForPlaying)
                }
                if !wasPlaying { emit(.playing) }
                // The frame was waiting in the sink; it is presented now that the pipeline plays.
                if frameTime != nil { emit(.firstFrame(wallTime: Date().timeIntervalSince1970)) }
            } else if old == GST_STATE_PLAYING || (new == GST_STATE_PAUSED && pending == GST_STATE_VOID_PENDING) {
                // Left PLAYING, or settled at PAUSED. The second matters after a flushing seek: the pipeline
                // loses its state (PAUSED→PAUSED, pending PAUSED) without a message from PLAYING, so a
                // pause that lands while it recovers settles at PAUSED and is otherwise never reported.
                // (The transient lost state itself, still pending, is not a pause.)
                let wasPlaying = state.withLock { s -> Bool in
                    defer { s.pipelineAtPlaying = false }
                    return s.pipelineAtPlaying
                }
                if wasPlaying { emit(.paused) }
            }
        case GST_MESSAGE_ASYNC_DONE where fromPipeline:
            handleAsyncDone()
        case GST_MESSAGE_BUFFERING:
            // GStreamer's own buffering (a media file over HTTP); Cove's streaming reports its own.
            let percent = Int(cove_message_buffering_percent(message))
            let send = state.withLock { s -> Bool in
                let last = s.lastBufferingSent
                guard percent != last, percent == 0 || percent == 100 || last < 0 || abs(percent - last) >= 10 else { return false }
                s.lastBufferingSent = percent
                return true
            }
            if send { emit(.buffering(percent: percent)) }
        case GST_MESSAGE_DURATION_CHANGED:
            if state.withLock({ $0.prerolled }) { emit(.durationChanged(currentDuration())) }
        case GST_MESSAGE_STREAM_COLLECTION:
            handleCollection(message)
        case GST_MESSAGE_STREAMS_SELECTED:
            handleStreamsSelected(message)
        case GST_MESSAGE_ELEMENT:
            handleElement(message)
        case GST_MESSAGE_EOS:
            // Every frame is in the sink's counts now, before anything can reset them.
            outputs.observeFrames()
            // An end-of-stream that a seek flushed away is stale: playback has moved on.
            let current = state.withLock { $0.eosGeneration == $0.flushGeneration }
            if current { reportEndOfStream() } else { logger.debug("dropping an end-of-stream that a seek superseded") }
        case GST_MESSAGE_ERROR:
            handleError(message)
        case GST_MESSAGE_WARNING:
            var domain: UnsafeMutablePointer<CChar>?
            var text: UnsafeMutablePointer<CChar>?
            var debug: UnsafeMutablePointer<CChar>?
            var code: gint = 0
            cove_message_error(message, 1, &domain, &code, &text, &debug)
            _ = takeGString(domain)
            _ = takeGString(debug)
            emit(.warning(Redaction.redactSecrets(in: takeGString(text) ?? "warning")))
        default:
            break
        }
        return true
    }

    /// Posts a note to the bus thread, behind every message already on the bus.
    private func post(_ note: PipelineNote) {
        notes.post(note, on: playbin.pointer)
    }

    /// An application message: one of the pipeline's own notes (anything else on the bus is ignored).
    /// Returns false when the bus thread should stop.
    private func handleApplication(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard let note = notes.take(message) else { return true }
        switch note {
        case .stop:
            return false
        case .volumeApplied:
            emit(.volumeChanged(AudioVolume(level: cove_get_double(playbin.object, "volume"), isMuted: cove_get_bool(playbin.object, "mute") != 0)))
        case .mediaEnded:
            reportEndOfStream()
        case .disguisedManifest:
            reportDisguisedManifest()
        case .textCuesPending:
            let cues = state.withLock { s -> [TextCue] in
                defer { s.pendingCues = [] }
                return s.pendingCues
            }
            for cue in cues { emit(.textCue(cue)) }
        case .firstBuffer(let sighting, let time):
            if sighting == .shownAtPreroll {
                // Reported once the load has finished (after `prerolled`), in `finishLoad`. A frame that
                // arrived before the start seek is superseded by this one.
                let finished = state.withLock { s -> Bool in
                    s.frameWaitingForPlaying = nil
                    if !s.prerolled { s.shownAtPreroll = time }
                    return s.prerolled
                }
                if finished { reportStartFrame(shownAt: time) }
                return true
            }
            let rendered = sighting == .rendered
            let (playingNow, becamePlaying) = state.withLock { s -> (Bool, Bool) in
                if rendered && !s.pipelineAtPlaying {
                    // A sink rendered it: the pipeline is playing, even if its state message is still queued.
                    s.pipelineAtPlaying = true
                    return (true, true)
                }
                if !s.pipelineAtPlaying { s.frameWaitingForPlaying = time }
                return (s.pipelineAtPlaying, false)
            }
            if becamePlaying { emit(.playing) }
            if playingNow { emit(.firstFrame(wallTime: time)) }
        case .videoSize(let width, let height):
            let changed = state.withLock { s -> Bool in
                if let current = s.videoSize, current.width == width, current.height == height { return false }
                s.videoSize = (width, height)
                return true
            }
            if changed { emit(.videoSizeChanged(width: width, height: height)) }
        case .startSeekFailed:
            // Could not seek: start from where we are (at the rate the pipeline was built with) rather than stall.
            let wantsPlaying = state.withLock { s -> Bool in
                s.startSeekSeqnum = nil
                s.appliedRate = 1
                return s.wantsPlaying
            }
            finishLoad(wantsPlaying: wantsPlaying)
            applyRateIfNeeded()
        case .seekFailed(let id):
            state.withLock { s in
                if s.pendingSeek?.id == id { s.pendingSeek = nil }
                // The refused seek carried a rate it never applied.
                s.appliedRate = s.rateBeforeSeek
            }
            emit(.seekCompleted(id: id, succeeded: false))
        case .stateChangeFailed:
            let report = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            if report {
                emit(.failed(PlaybackError(.engineFailure, "The engine could not start playing \(Redaction.redact(urlString: urlText))", url: urlText)))
            }
        }
        return true
    }

    /// ASYNC_DONE: the first one finishes the load (or triggers the start seek); later ones finish a
    /// seek once its flush has reached the sinks. (The pipeline's ASYNC_DONE carries a seqnum of its own;
    /// the seek's seqnum is the one its flush carries.) Others — a pause's, a superseded seek's — are ignored.
    private func handleAsyncDone() {
        enum Step { case none, startSeek(MediaTime), prerolled(Bool), seekDone(Int) }
        let step = state.withLock { s -> Step in
            if !s.prerolled {
                if let startSeek = s.startSeekSeqnum {
                    guard s.lastFlushSeqnum == startSeek else { return .none }
                } else if s.route == .gstreamer, let start = configuration.startPosition, start > .zero, start.isFinite {
                    return .startSeek(start)
                }
                s.prerolled = true
                s.startSeekSeqnum = nil
                return .prerolled(s.wantsPlaying)
            }
            if let pending = s.pendingSeek, pending.seqnum == s.lastFlushSeqnum {
                s.pendingSeek = nil
                return .seekDone(pending.id)
            }
            return .none
        }
        switch step {
        case .none:
            applyRateIfNeeded()
        case .startSeek(let start):
            sendSeek(to: start, keyUnit: false, register: { s, seqnum in s.startSeekSeqnum = seqnum }, failed: .startSeekFailed)
        case .prerolled(let wantsPlaying):
            applyRateIfNeeded()
            finishLoad(wantsPlaying: wantsPlaying, alreadyMarked: true)
        case .seekDone(let id):
            emit(.seekCompleted(id: id, succeeded: true))
            applyRateIfNeeded()
        }
    }

    private func finishLoad(wantsPlaying: Bool, alreadyMarked: Bool = false) {
        if !alreadyMarked { state.withLock { $0.prerolled = true } }
        let duration = currentDuration()
        emit(.prerolled(EngineMediaInfo(duration: duration, seekableRanges: seekableRanges(), isLive: duration == nil)))
        if let shown = state.withLock({ s -> Double? in
            defer { s.shownAtPreroll = nil }
            return s.shownAtPreroll
        }) {
            reportStartFrame(shownAt: shown)
        }
        if wantsPlaying { setState(GST_STATE_PLAYING) }
    }

    /// The start frame shown at preroll: reported now if playing is still wanted, else when the pipeline
    /// first plays (the viewer has seen it, but a paused player has not started).
    private func reportStartFrame(shownAt time: Double) {
        let now = state.withLock { s -> Bool in
            if !s.wantsPlaying && !s.pipelineAtPlaying { s.frameWaitingForPlaying = time }
            return s.wantsPlaying || s.pipelineAtPlaying
        }
        if now { emit(.firstFrame(wallTime: time)) }
    }

    func seekableRanges() -> [TimeRange] {
        if route == .cove {
            guard !isClosed, let range = feed?.session?.seekableRange else { return [] }
            return [TimeRange(start: MediaTime(seconds: range.lowerBound), end: MediaTime(seconds: range.upperBound))]
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

    private func handleCollection(_ message: UnsafeMutablePointer<GstMessage>) {
        guard let collection = cove_message_stream_collection(message) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(collection)) }
        var tracks: [EngineTrack] = []
        let count = gst_stream_collection_get_size(collection)
        for index in 0..<count {
            guard let stream = gst_stream_collection_get_stream(collection, index) else { continue }
            if let track = Self.track(from: stream) { tracks.append(track) }
        }
        tracks = tracks.map(declaredCodec)
        let merged = state.withLock { s -> [EngineTrack]? in
            guard s.tracks != tracks else { return nil }
            s.tracks = tracks
            if s.expectsVideo == nil { s.expectsVideo = tracks.contains { $0.kind == .video } }
            return publicTracks(s)
        }
        if let merged { emit(.tracksChanged(merged)) }
    }

    private func handleStreamsSelected(_ message: UnsafeMutablePointer<GstMessage>) {
        var ids: [String] = []
        var kinds: [EngineTrack.Kind] = []
        let count = cove_message_streams_selected_count(message)
        for index in 0..<count {
            guard let stream = cove_message_streams_selected_stream(message, index) else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(stream)) }
            if let id = gst_stream_get_stream_id(stream) { ids.append(String(cString: id)) }
            if let track = Self.track(from: stream) { kinds.append(track.kind) }
        }
        let reported = state.withLock { s -> [String] in
            s.selectedTrackIDs = ids
            s.expectsVideo = kinds.contains(.video)
            return publicSelection(s)
        }
        emit(.tracksSelected(reported))
        state.withLock { $0.audio }?.releaseInput()
    }

    /// A stream's codec as its variant declares it (HLS `CODECS`, `avc1.42c015`), when GStreamer's caps
    /// carry less (raw TS demuxing knows `avc1` before the parser has read the profile).
    private func declaredCodec(_ track: EngineTrack) -> EngineTrack {
        guard route == .cove, let declared = feed?.session?.playingVariant?.codecs ?? feed?.session?.presentation?.variants.first?.codecs else { return track }
        let family: [String]
        switch track.kind {
        case .video: family = ["avc1", "avc3", "hvc1", "hev1", "vp09", "av01"]
        case .audio: family = ["mp4a", "ac-3", "ec-3", "opus", "flac"]
        case .text: return track
        }
        guard let codec = declared.first(where: { code in family.contains { code.hasPrefix($0) } }) else { return track }
        let current = track.codec ?? ""
        // Keep GStreamer's when it already says as much (or names another codec family).
        guard current.isEmpty || (codec.hasPrefix(current) && codec.count > current.count) else { return track }
        var enriched = track
        enriched.codec = codec
        return enriched
    }

    private static func track(from stream: UnsafeMutablePointer<GstStream>) -> EngineTrack? {
        guard let rawID = gst_stream_get_stream_id(stream) else { return nil }
        let type = gst_stream_get_stream_type(stream).rawValue
        let kind: EngineTrack.Kind
        if type & GST_STREAM_TYPE_VIDEO.rawValue != 0 {
            kind = .video
        } else if type & GST_STREAM_TYPE_AUDIO.rawValue != 0 {
            kind = .audio
        } else if type & GST_STREAM_TYPE_TEXT.rawValue != 0 {
            kind = .text
        } else {
            return nil
        }
        let caps = takeGString(cove_stream_caps_string(stream))
        let fields = caps.map(CodecNames.parse)
        return EngineTrack(
            id: String(cString: rawID),
            kind: kind,
            language: takeGString(cove_stream_language(stream)),
            title: takeGString(cove_stream_title(stream)),
            codec: caps.flatMap(CodecNames.rfc6381(fromCaps:)),
            width: fields?["width"].flatMap(Int.init),
            height: fields?["height"].flatMap(Int.init)
        )
    }

    private func handleElement(_ message: UnsafeMutablePointer<GstMessage>) {
        let name = String(cString: cove_message_structure_name(message))
        switch name {
        case "http-headers":
            var status: guint = 0
            guard cove_message_get_uint(message, "http-status-code", &status) != 0 else { return }
            let uri = takeGString(cove_message_get_string(message, "uri")) ?? ""
            state.withLock { s in
                s.httpStatusByURI[uri] = Int(status)
                if status >= 400 || status == 0 { s.lastHTTPError = Int(status) }
            }
        default:
            break
        }
    }

    private func handleError(_ message: UnsafeMutablePointer<GstMessage>) {
        var domain: UnsafeMutablePointer<CChar>?
        var text: UnsafeMutablePointer<CChar>?
        var debug: UnsafeMutablePointer<CChar>?
        var code: gint = 0
        cove_message_error(message, 0, &domain, &code, &text, &debug)
        let source = cove_object_name(UnsafeMutableRawPointer(cove_message_source(message))).map { String(cString: $0) } ?? ""
        let (prerolled, alreadyFailed, status) = state.withLock { s -> (Bool, Bool, Int?) in
            (s.prerolled, s.failed, s.httpStatusByURI[urlText] ?? s.lastHTTPError)
        }
        let report = EngineErrorClassifier.Report(
            domain: takeGString(domain) ?? "", code: code, text: takeGString(text) ?? "", debug: takeGString(debug) ?? "",
            sourceElement: source, httpStatus: status
        )
        logger.debug(
            "engine error",
            metadata: ["domain": "\(report.domain)", "code": "\(report.code)", "source": "\(source)", "text": "\(Redaction.redactSecrets(in: report.text))"])
        guard !alreadyFailed else { return }
        // A new audio rendition can come with a new transport-stream program: the demuxer re-exposes its
        // output while data already flows, and the audio source stops "not-linked". That source alone is
        // restarted where the playhead is; the video never stopped.
        if report.debug.contains("not-linked"), let audio = state.withLock({ $0.audio }), audio.owns(sourceElement: source) {
            let outcome = audio.restart(
                at: { [weak self] in self?.currentPosition()?.seconds }, fallbackPosition: currentPosition()?.seconds, decoderOffset: decoderOffset,
                rate: { [weak self] in self?.state.withLock { $0.rate } ?? 1 }, isClosed: { [weak self] in self?.isClosed ?? true }
            )
            if outcome != .exhausted {
                logger.notice("audio rendition source restarted after its demuxer relinked", metadata: ["source": "\(source)", "when": "\(outcome)"])
                return
            }
        }
        if prerolled && EngineErrorClassifier.isDownloadFailure(report) {
            emit(.downloadFailed(EngineErrorClassifier.downloadFailure(report, url: urlText)))
            return
        }
        state.withLock { $0.failed = true }
        emit(.failed(EngineErrorClassifier.classify(report, url: urlText)))
    }

    private func emit(_ event: EngineEvent) {
        continuation.yield(event)
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
            pipeline.sinkFlushed(seqnum: gst_event_get_seqnum(event))
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
