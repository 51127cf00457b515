import CoveCore
import CoveGStreamer
import CoveMPRIS
import CoveTesting
import Foundation
import Testing

/// Every bus suite nests in here so they run one at a time: real-time playback on two cores next to
/// another test's pipelines would make the position checks races.
@Suite("MPRIS on a private bus", .serialized)
enum MPRISBusTests {}

/// A private bus, real served media (40 s clips, so a seek to 30 s lands inside), and controllers on
/// the GStreamer engine playing in real time into headless outputs.
struct MPRISHarness {
    let bus: PrivateBus
    let fixtures: FixtureMedia
    let server: MediaServer
    let logs = LogCapture()

    static func start() async throws -> MPRISHarness {
        let fixtures = try await FixtureMedia.prepare(FixtureMedia.Spec(duration: 40, segmentDuration: 2))
        let server = try await MediaServer.start(root: fixtures.root)
        let bus = try await PrivateBus.start()
        return MPRISHarness(bus: bus, fixtures: fixtures, server: server)
    }

    func controller() -> PlaybackController {
        let configuration = PlaybackControllerConfiguration(
            progressInterval: .milliseconds(100), videoOutput: .headless, audioOutput: .discard, pacing: .realTime, logger: logs.logger(level: .debug))
        return PlayerSDKManager.shared.makePlaybackController(
            engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .info)), configuration: configuration)
    }

    func service(_ controller: PlaybackController) throws -> MediaPlayer2Service {
        try MediaPlayer2Service(controller: controller, busAddress: bus.address, logger: logs.logger(label: "cove.mpris", level: .debug))
    }

    func video(_ asset: FixtureMedia.Asset, id: String, name: String) -> Video {
        Video(url: server.url(asset), properties: ["id": .string(id), "name": .string(name), "poster": .string("https://example.com/\(id).jpg")])
    }

    func stop() async {
        await bus.stop()
        await server.stop()
    }

    /// Runs `body`; when it throws, records the last log lines beside the failure.
    func diagnosingFailure(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            Issue.record("last log lines:\n\(logs.text.split(separator: "\n").suffix(80).joined(separator: "\n"))")
            throw error
        }
    }
}
