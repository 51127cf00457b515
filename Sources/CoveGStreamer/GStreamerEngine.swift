import CoveCore
import CoveNetworking
import CoveStreaming
import Foundation
import Logging

/// The real media engine: GStreamer 1.22 `playbin3` demuxes, decodes and renders; for HLS and DASH,
/// Cove's own streaming engine (`CoveStreaming`) makes every request and pushes the segments in.
/// GStreamer reads only progressive media files itself.
public struct GStreamerEngine: MediaEngine {
    public let name = "gstreamer"
    private let logger: Logger
    private let streaming: GStreamerPipeline.StreamingSetup

    /// - Parameters:
    ///   - streaming: how Cove's streaming loads, adapts and buffers (request filters, retries, ABR).
    ///   - transport: the HTTP client for streaming requests (default: the shared AsyncHTTPClient transport).
    ///   - logger: where the engine and its pipelines log (secrets are redacted before they get there).
    public init(
        logger: Logger = Logger(label: "cove.gstreamer"), streaming: StreamingConfiguration = StreamingConfiguration(),
        transport: (any HTTPTransport)? = nil
    ) {
        self.logger = logger
        self.streaming = GStreamerPipeline.StreamingSetup(transport: transport ?? AsyncHTTPClientTransport.shared, configuration: streaming)
    }

    public func makePlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
        try GStreamerRuntime.ensureInitialized()
        return GStreamerPlayer(pipeline: try GStreamerPipeline(configuration: configuration, logger: logger, streaming: streaming))
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

/// The `EnginePlayer` handed to the controller. A thin owner of the pipeline: dropping it closes the pipeline.
final class GStreamerPlayer: EnginePlayer {
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
    func setMaxBitrate(_ bitsPerSecond: Int?) { pipeline.setMaxBitrate(bitsPerSecond) }
    func setForwardBufferDuration(_ duration: Duration?) { pipeline.setForwardBufferDuration(duration) }
    func selectTracks(audio: String?, text: String?) { pipeline.selectTracks(audio: audio, text: text) }
    func setVolume(_ volume: AudioVolume) { pipeline.setVolume(volume) }
    func showCaptions(_ cues: [TextCue]) { pipeline.showCaptions(cues) }
    var position: MediaTime? { pipeline.currentPosition() }
    var seekableRanges: [TimeRange] { pipeline.seekableRanges() }
    var status: EngineStatus { pipeline.status }
    func snapshotPNG() throws(PlaybackError) -> Data { try pipeline.snapshotPNG() }
    func close() { pipeline.close() }
    var choosesSeekVariant: Bool { pipeline.isStreamedByCove }
}
