import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Issue 33's randomised operation test on the real engine: two controllers at once, each driven by a
    /// seeded random sequence of public commands (videos, play, pause, seeks anywhere, rates right after
    /// seeks, track and bitrate choices, volume, resumes, advance, insert, shutdown and a new controller)
    /// over an origin serving faults from the same seed, with the invariants checked at every step
    /// (`ChaosRunner`). Runs for `CHAOS_SECONDS` (60 by default) with `CHAOS_SEED` (a new seed each run,
    /// printed first); `make chaos CHAOS_SECONDS=N [CHAOS_SEED=S]` runs it alone. It runs only when
    /// `CHAOS_SECONDS` is set, so `make test` does not run it.
    @Suite("Chaos: random commands and faults on the real engine")
    struct ChaosTests {
        static let environment = ProcessInfo.processInfo.environment

        @Test(.enabled(if: ProcessInfo.processInfo.environment["CHAOS_SECONDS"] != nil, "runs under `make chaos` (CHAOS_SECONDS set)"))
        func randomCommandsAndFaultsBreakNoPromise() async throws {
            let seconds = Int(Self.environment["CHAOS_SECONDS"] ?? "").map { max(1, $0) } ?? 60
            let seed = Self.environment["CHAOS_SEED"].flatMap(ChaosSeed.parse) ?? UInt64.random(in: 0...UInt64.max)
            let controllers = Int(Self.environment["CHAOS_CONTROLLERS"] ?? "").map { max(1, $0) } ?? 2
            print("chaos: seed \(seed) (replay: make chaos CHAOS_SECONDS=\(seconds) CHAOS_SEED=\(seed))")

            let fixtures = try await FixtureMedia.prepare()
            let dash = try await DASHFixture.prepare()
            let server = try await MediaServer.start(root: fixtures.root)
            let dashServer = try await MediaServer.start(root: dash.root)
            // A live stream with a DVR window (35 segments of 2 s: over the controller's 60 s minimum).
            try server.addLiveStream(path: "/live/chaos.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 35)
            let streams = [
                ChaosStream(name: "hls-ts-ladder", video: Video(url: server.url(.ladder))),
                ChaosStream(name: "hls-fmp4", video: Video(url: server.url(.fmp4))),
                ChaosStream(name: "hls-alt-audio", video: Video(url: server.url(.alternateAudio))),
                ChaosStream(name: "hls-aes128", video: Video(url: server.url(.aes))),
                ChaosStream(name: "hls-subtitles", video: Video(url: server.url(.subtitles))),
                ChaosStream(name: "mp4", video: Video(url: server.url(.mp4))),
                ChaosStream(name: "dash-timeline", video: Video(url: dashServer.url(DASHFixture.Asset.timeline.rawValue))),
                ChaosStream(name: "dash-segmentbase", video: Video(url: dashServer.url(DASHFixture.Asset.base.rawValue))),
                ChaosStream(name: "hls-live-dvr", video: Video(url: server.url("live/chaos.m3u8"))),
            ]
            let configuration = ChaosConfiguration(
                seed: seed, duration: .seconds(seconds), controllers: controllers, streams: streams,
                commandLog: FileManager.default.temporaryDirectory.appendingPathComponent("cove-chaos-\(seed).log"))
            let runner = ChaosRunner(configuration: configuration, servers: [server, dashServer]) { request in
                let configuration = PlaybackControllerConfiguration(
                    progressInterval: .milliseconds(100), videoOutput: .headless, pacing: request.pacing,
                    logger: request.logger(label: "cove.controller.\(request.slot).\(request.number)"))
                return PlayerSDKManager.shared.makePlaybackController(
                    engine: GStreamerEngine(logger: request.logger(label: "cove.gstreamer.\(request.slot).\(request.number)")), configuration: configuration)
            }
            let report = await runner.run()
            await server.stop()
            await dashServer.stop()
            let checks = report.resourceChecks.map { "\($0.threads) threads/\($0.fileDescriptors) fds" }.joined(separator: ", ")
            let faults = report.faultCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("chaos: \(report.controllers) controllers in \(report.elapsed); faults: \(faults.isEmpty ? "none" : faults); resource checks: \(checks)")
            let violations = report.violations.count
            #expect(violations == 0, "each violation is printed above; replay with CHAOS_SEED=\(seed)")
            print(report.summary)
        }
    }
}
