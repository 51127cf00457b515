import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

/// Every real-engine suite nests in here so they run one test at a time: several GStreamer pipelines
/// decoding at once on two cores would turn real-time assertions into races.
@Suite("Real engine", .serialized)
enum RealEngineTests {}

/// Real engine, real served media: one media server per test, fixtures generated once per run.
struct Harness {
    let fixtures: FixtureMedia
    let server: MediaServer
    let logs = LogCapture()

    static func start() async throws -> Harness {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        return Harness(fixtures: fixtures, server: server)
    }

    /// A controller on the GStreamer engine. `fast` runs the sinks unsynchronised (about 40× real time).
    func controller(
        fast: Bool = true, output: VideoOutput = .headless, liveDVRMinimumWindow: Duration = .seconds(60), provider: (any PlaybackSessionProvider)? = nil,
        retry: RetryPolicy = .default, startPolicy: EngineStartPolicy = .default
    ) -> PlaybackController {
        let configuration = PlaybackControllerConfiguration(
            progressInterval: .milliseconds(100), videoOutput: output, pacing: fast ? .unsynchronized : .realTime,
            liveDVRMinimumWindow: liveDVRMinimumWindow, retryPolicy: retry, startPolicy: startPolicy, logger: logs.logger(level: .debug)
        )
        return PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug)), sessionProvider: provider, configuration: configuration)
    }

    func video(_ asset: FixtureMedia.Asset, _ properties: JSONObject = [:]) -> Video {
        Video(url: server.url(asset), properties: properties)
    }

    func stop() async {
        await server.stop()
    }
}

extension EventRecorder {
    /// Progress positions reported so far.
    var progress: [MediaTime] {
        events.compactMap { if case .progress(_, let t) = $0 { return t } else { return nil } }
    }

    var passages: [CuePointPassage] {
        events.compactMap { if case .cuePointsPassed(_, let p) = $0 { return p } else { return nil } }
    }

    var errors: [PlaybackError] { events.compactMap { $0.lifecycleEvent?.error } }

    var mediaType: MediaType? { events.lazy.compactMap { if case .mediaTypeDetermined(_, let m) = $0 { m } else { nil } }.first }
    var videoType: VideoType? { events.lazy.compactMap { if case .videoTypeDetermined(_, let v) = $0 { v } else { nil } }.first }
    var codecs: [String]? { events.lazy.compactMap { if case .codecsDetermined(_, let c) = $0 { c } else { nil } }.first }
    /// The first duration reported: `.some(nil)` for live.
    var duration: Duration?? { events.lazy.compactMap { if case .durationChanged(_, let d) = $0 { .some(d) } else { nil } }.first }
}

extension MediaServer {
    /// Segment requests (`.ts`/`.m4s`) so far.
    var segmentRequests: [MediaRequest] { requests.filter { $0.path.hasSuffix(".ts") || $0.path.hasSuffix(".m4s") } }
}
