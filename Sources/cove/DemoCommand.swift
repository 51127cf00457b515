import ArgumentParser
import CoveCore
import CoveNetworking
import CovePlaybackService
import CovePlayerControls
import CoveServer
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Serve the sample catalog through the embedded Playback API server, fetch its playlist with the Playback Service and play it (bumper first, then every video)."
    )

    @OptionGroup var player: PlayerOptions

    @OptionGroup var controls: ControlOptions

    func run() async throws {
        Terminal.line("Preparing the sample catalog (media generated with ffmpeg on first run)…")
        let catalog = try await SampleCatalog.prepare()
        let server = try await CatalogServer.start(catalog: catalog)
        Terminal.line("Playback API for account \(server.accountID) at \(server.baseURL.absoluteString)")
        let service = PlaybackService(
            accountID: server.accountID, policyKey: server.policyKey, baseURL: server.baseURL, transport: AsyncHTTPClientTransport.shared)
        let found: PlaybackService.Response<Playlist>
        do throws(PlaybackServiceError) {
            found = try await service.findPlaylist(PlaybackServiceConfiguration(assetID: SampleCatalog.playlistID, bumperID: SampleCatalog.VideoID.bumper))
        } catch {
            Terminal.error("cove demo: \(error)")
            await server.stop()
            throw ExitCode(1)
        }
        let playlist = found.value
        Terminal.line("Playlist “\(playlist.name ?? "")”: \(playlist.allPlayableVideos.count) playable, \(playlist.allFailedVideos.count) unavailable")
        for failed in playlist.allFailedVideos { Terminal.line("  skipping \(failed.id ?? "?"): \(failed.error.map { "\($0)" } ?? "")") }
        if let bumper = playlist.allPlayableVideos.first?.bumper { Terminal.line("Bumper: “\(bumper.name ?? "")” plays first") }
        let (controller, view) = await player.makePlayer(controls: controls)
        defer { view?.close() }
        let mpris = player.startMPRIS(for: controller, window: view != nil)
        defer { mpris?.stop() }
        let windowClose = WindowClose(view: view, controller: controller, mpris: mpris)
        controller.isAutoPlay = true
        let analytics = try player.startAnalytics(for: controller, account: server.accountID)
        let played: PlaybackRunner.Outcome
        if let runner = controls.runner(controller: controller, captionLanguage: nil) {
            played = await runner.play(playlist.allPlayableVideos, autoAdvance: true)
        } else {
            played = try await PlaybackRunner(controller: controller).play(playlist.allPlayableVideos, autoAdvance: true)
        }
        let outcome = windowClose.outcome(played)
        if let analytics {
            controller.shutdown()
            await analytics.finish(within: .seconds(5))
        }
        await server.stop()
        Terminal.line(outcome == .ended ? "Demo finished." : "Demo stopped.")
        if outcome == .failed { throw ExitCode(1) }
    }
}
