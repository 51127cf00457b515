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
        return PlayerSDKManager.shared.makePlaybackController(
            engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug)), sessionProvider: provider, configuration: configuration)
    }

    func video(_ asset: FixtureMedia.Asset, _ properties: JSONObject = [:]) -> Video {
        Video(url: server.url(asset), properties: properties)
    }

    func stop() async {
        await server.stop()
    }

    /// Runs `body`; when it throws (a wait that timed out), records the engine's last log lines and the
    /// server's last requests beside the failure, so a rare failure explains itself from the CI log.
    @discardableResult
    func diagnosingFailure<T>(server: MediaServer? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            let lines = logs.text.split(separator: "\n").suffix(120).joined(separator: "\n")
            let requests = (server ?? self.server).requests.suffix(40).map { "\($0.path) \($0.range ?? "-") \($0.status) \($0.bytesSent)" }.joined(
                separator: "\n")
            Issue.record("last log lines:\n\(lines)\n--- last requests:\n\(requests)")
            throw error
        }
    }
}

extension MediaServer {
    /// Segment requests (`.ts`/`.m4s`) so far.
    var segmentRequests: [MediaRequest] { requests.filter { $0.path.hasSuffix(".ts") || $0.path.hasSuffix(".m4s") } }
}
