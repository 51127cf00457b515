import CoveCore
@_exported import CoveGStreamerEngine
import CoveNetworking
import CoveStreaming
import CoveText
import Foundation
import Logging

/// The real media engine: Cove's own streaming in front of GStreamer 1.22.
///
/// For HLS and DASH (and anything not named as a media file), Cove's streaming (`StreamingEngine`)
/// makes every request — manifests, segments, keys, through the app's `HTTPTransport` and request
/// filters — chooses variants and pushes whole segments into the engine room (`GStreamerMediaEngine`),
/// which only demuxes, decodes and renders. GStreamer reads only progressive media files itself.
///
/// It also makes the thumbnail sources of videos with a thumbnail track (`ThumbnailSourceFactory`:
/// fetched through the same transport, decoded by `GStreamerImageCodec`), so a controller on it
/// scrubs with thumbnails without any set-up, as the seed does.
public struct GStreamerEngine: MediaEngine, ThumbnailSourceFactory {
    public let name = "gstreamer"
    /// What does the work: Cove's streaming feeding GStreamer.
    public let streamingEngine: StreamingEngine
    private let mediaEngine: GStreamerMediaEngine
    private let thumbnails: WebVTTThumbnailSources

    /// - Parameters:
    ///   - logger: where the engine, its pipelines and its streaming log (secrets are redacted before they get there).
    ///   - streaming: how Cove's streaming loads, adapts and buffers (request filters, retries, ABR).
    ///   - transport: the HTTP client for streaming requests (default: the shared AsyncHTTPClient transport).
    public init(
        logger: Logger = Logger(label: "cove.gstreamer"), streaming: StreamingConfiguration = StreamingConfiguration(),
        transport: (any HTTPTransport)? = nil
    ) {
        let transport = transport ?? AsyncHTTPClientTransport.shared
        var streaming = streaming
        let appReadiness = streaming.readiness
        // A first request waits for a warm-up in progress (an app, or `cove`, started it at launch without
        // waiting): everything before the request overlaps the decoders' load, nothing after it pays for it.
        streaming.readiness = {
            await appReadiness()
            await GStreamerMediaEngine.waitWhileWarmingUp()
        }
        mediaEngine = GStreamerMediaEngine(logger: logger)
        streamingEngine = StreamingEngine(feeding: mediaEngine, configuration: streaming, transport: transport, logger: logger)
        thumbnails = WebVTTThumbnailSources(transport: transport, imageCodec: GStreamerImageCodec())
    }

    public func makeThumbnailSource(trackURL: URL) -> any ThumbnailSource {
        thumbnails.makeThumbnailSource(trackURL: trackURL)
    }

    public func makePlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
        try streamingEngine.makePlayer(configuration: configuration)
    }

    /// Loads GStreamer and the plugins a first play needs, so that play does not pay for them (cold,
    /// 0.1–0.5 s, mostly libav). Call it at launch, while the app shows its catalog; players made before
    /// it finishes simply load what they need themselves. Runs on its own thread, never the caller's.
    public func warmUp() async throws(PlaybackError) {
        try await mediaEngine.warmUp()
    }

    /// The factories of every element created inside the engine's pipelines so far in this process
    /// ("appsrc", "tsdemux", …), with counts: proof of what does the work (Cove's streaming creates no
    /// GStreamer network source or adaptive demuxer for HLS).
    public static var elementsCreated: [String: Int] { GStreamerMediaEngine.elementsCreated }

    /// Pipelines built and not yet torn down (see `GStreamerMediaEngine.livePipelineCount`): an app that
    /// closes the X display its videos draw on waits for this to reach zero first.
    public static var livePipelineCount: Int { GStreamerMediaEngine.livePipelineCount }

    /// Forgets `elementsCreated` (tests measure from a clean slate).
    public static func resetElementsCreated() { GStreamerMediaEngine.resetElementsCreated() }

    /// Elements this installation lacks, with the Debian package that provides each (empty when complete).
    public static func missingElements() throws(PlaybackError) -> [(element: String, package: String)] {
        try GStreamerMediaEngine.missingElements()
    }
}
