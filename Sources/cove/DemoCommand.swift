import ArgumentParser
import CoveCore
import CoveTesting
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Generate the sample media, serve it on loopback and play it: adaptive HLS, then a progressive MP4."
    )

    @OptionGroup var player: PlayerOptions

    func run() async throws {
        Terminal.line("Preparing sample media (generated with ffmpeg on first run)…")
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        Terminal.line("Serving \(fixtures.root.path) at \(server.baseURL.absoluteString)")
        let videos = [
            Video(url: server.url(.ladder), properties: ["name": "Adaptive HLS (240p–720p)"]),
            Video(url: server.url(.mp4), properties: ["name": "Progressive MP4"]),
        ]
        let controller = player.makeController()
        controller.isAutoPlay = true
        let outcome = try await PlaybackRunner(controller: controller).play(videos, autoAdvance: true)
        await server.stop()
        Terminal.line(outcome == .ended ? "Demo finished." : "Demo stopped.")
        if outcome == .failed { throw ExitCode(1) }
    }
}
