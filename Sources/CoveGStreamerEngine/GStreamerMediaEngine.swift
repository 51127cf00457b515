import CoveCore
import Foundation
import Logging

/// GStreamer 1.22 as a media engine that only demuxes, decodes and renders: `playbin3` behind the
/// `ByteFeedableMediaEngine` seam.
///
/// Fed players (`makeFedPlayer`) take what a producer above the engine pushes in: Cove's streaming
/// (`StreamingEngine` in `CoveStreaming`) fetches HLS and DASH itself and feeds whole segments into
/// playbin3's `appsrc`. Byte-fed players (`makeByteFedPlayer`) take a media file's bytes, fetched by
/// Cove's progressive loader at the offsets the demuxer asks for. Players made by `makePlayer` read a
/// local file themselves. GStreamer's HTTP stack is never used. Apps use `GStreamerEngine` (`CoveGStreamer`): this engine with
/// Cove's streaming in front, choosing between the two per URL.
public struct GStreamerMediaEngine: ByteFeedableMediaEngine {
    public let name = "gstreamer"
    private let logger: Logger

    /// - Parameter logger: where the engine and its pipelines log (secrets are redacted before they get there).
    public init(logger: Logger = Logger(label: "cove.gstreamer")) {
        self.logger = logger
    }

    /// A player that reads a local media file itself. Network URLs are not read here: every HTTP request
    /// goes through Cove's `HTTPTransport` (streams through a fed player, media files through a byte-fed
    /// one), so GStreamer's own HTTP stack is never loaded.
    public func makePlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
        if let scheme = configuration.url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            throw PlaybackError(
                .invalidArgument,
                "The GStreamer engine room reads only local files; \(Redaction.redact(url: configuration.url)) is fetched by Cove's streaming: play it through GStreamerEngine (CoveGStreamer), which puts StreamingEngine in front"
            )
        }
        try GStreamerRuntime.ensureInitialized()
        return GStreamerPlayer(pipeline: try GStreamerPipeline(configuration: configuration, logger: logger, route: .reading))
    }

    /// A player fed by a producer. The plugins it decodes with load in the background from here on
    /// (see `GStreamerRuntime.warmUpInBackground`), while the producer's first requests are out.
    public func makeFedPlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any FedEnginePlayer {
        try GStreamerRuntime.ensureInitialized()
        let player = GStreamerPlayer(pipeline: try GStreamerPipeline(configuration: configuration, logger: logger, route: .fed))
        GStreamerRuntime.warmUpInBackground()
        return player
    }

    public func makeByteFedPlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any ByteFedEnginePlayer {
        try GStreamerRuntime.ensureInitialized()
        let player = GStreamerPlayer(pipeline: try GStreamerPipeline(configuration: configuration, logger: logger, route: .bytes))
        GStreamerRuntime.warmUpInBackground()
        return player
    }

    /// Returns when a `warmUp()` in progress has finished (at once when none runs): what Cove's streaming
    /// waits for before a session's first request (see `GStreamerEngine`).
    public static func waitWhileWarmingUp() async {
        await GStreamerRuntime.waitWhileWarmingUp()
    }

    /// Loads GStreamer and the plugins a first play needs, so that play does not pay for them (cold,
    /// 0.1–0.5 s, mostly libav). Call it at launch, while the app shows its catalog; players made before
    /// it finishes simply load what they need themselves. Runs on its own thread, never the caller's.
    public func warmUp() async throws(PlaybackError) {
        let result: Result<Void, PlaybackError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(PlaybackError) {
                    try GStreamerRuntime.loadPlaybackPlugins()
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "cove-gst-warm-up"
            thread.start()
        }
        try result.get()
    }

    /// The factories of every element created inside the engine's pipelines so far in this process
    /// ("appsrc", "tsdemux", …), with counts: proof of what does the work (Cove's streaming creates no
    /// GStreamer network source or adaptive demuxer for HLS).
    public static var elementsCreated: [String: Int] { GStreamerRuntime.elementsCreated.withLock { $0 } }

    /// Pipelines built and not yet torn down. A player's `close()` returns at once and the teardown runs
    /// on its own thread; an app that closes the X display (or its window) its videos draw on waits for
    /// this to reach zero first, since a sink still connected to a display that goes away ends the process
    /// (Xlib's rule).
    public static var livePipelineCount: Int { GStreamerRuntime.livePipelines.withLock { $0 } }

    /// Forgets `elementsCreated` (tests measure from a clean slate).
    public static func resetElementsCreated() { GStreamerRuntime.elementsCreated.withLock { $0 = [:] } }

    /// Elements this installation lacks, with the Debian package that provides each (empty when complete).
    public static func missingElements() throws(PlaybackError) -> [(element: String, package: String)] {
        try GStreamerRuntime.ensureInitialized()
        return GStreamerRuntime.missingElements()
    }
}

/// The player handed to the controller (or to the producer that feeds it). A thin owner of the pipeline:
/// dropping it closes the pipeline.
final class GStreamerPlayer: FedEnginePlayer, ByteFedEnginePlayer {
    private let pipeline: GStreamerPipeline

    init(pipeline: GStreamerPipeline) {
        self.pipeline = pipeline
    }

    deinit { pipeline.close() }

    var events: AsyncStream<EngineEvent> { pipeline.events }
    func load(playWhenReady: Bool) { pipeline.load(playWhenReady: playWhenReady) }
    func play() { pipeline.play() }
    func pause() { pipeline.pause() }
    func seek(to position: MediaTime, tolerance: SeekTolerance, id: Int) { pipeline.seek(to: position, tolerance: tolerance, id: id) }
    func setRate(_ rate: Double) { pipeline.setRate(rate) }
    /// GStreamer reading a media file has no variants to cap.
    func setMaxBitrate(_ bitsPerSecond: Int?) {}
    /// GStreamer's reading buffers as its elements do; a fed pipeline holds what its producer pushed.
    func setForwardBufferDuration(_ duration: Duration?) {}
    func selectTracks(audio: String?, text: String?) { pipeline.selectTracks(audio: audio, text: text) }
    func setVolume(_ volume: AudioVolume) { pipeline.setVolume(volume) }
    func showCaptions(_ cues: [TextCue]) { pipeline.showCaptions(cues) }
    func setShutter(opacity: Double) { pipeline.setShutter(opacity: opacity) }
    var position: MediaTime? { pipeline.currentPosition() }
    var seekableRanges: [TimeRange] { pipeline.seekableRanges() }
    var status: EngineStatus { pipeline.status }
    func snapshotPNG() throws(PlaybackError) -> Data { try pipeline.snapshotPNG() }
    func close() { pipeline.close() }

    // MARK: FedEnginePlayer

    func input(_ input: FeedInput) -> (any MediaFeedInput)? { pipeline.input(input) }
    func openInput(_ input: FeedInput) -> any MediaFeedInput { pipeline.openInput(input) }
    func attach(_ producer: any MediaFeedProducer, to input: FeedInput) { pipeline.attach(producer, to: input) }
    func startFeed(at position: Double) { pipeline.startFeed(at: position) }
    func setFeedDuration(_ seconds: Double?) { pipeline.setFeedDuration(seconds) }

    // MARK: ByteFedEnginePlayer

    var byteInput: any ByteFeedInput { pipeline.byteInput }
    func attach(_ producer: any ByteFeedProducer) { pipeline.byteFeed?.attach(producer: producer) }
    func startReading() { pipeline.startReading() }
    func setFileSize(_ size: Int64?) { pipeline.byteFeed?.setSize(size) }
}
