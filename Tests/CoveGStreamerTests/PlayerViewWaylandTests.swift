import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlayerView
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// The view under a Wayland compositor (weston's headless backend): the engine's Wayland sink shows
    /// the picture in a window of its own and the controls are drawn on it.
    @Suite("Player view: Wayland", .serialized, .enabled(if: WestonServer.isAvailable, "weston is not installed"))
    struct PlayerViewWaylandTests {
        @Test func aWaylandWindowShowsThePictureWithTheControls() async throws {
            let weston = try await WestonServer.start()
            defer { weston.stop() }
            let h = try await Harness.start()
            let view = try PlayerView(configuration: PlayerViewConfiguration(placement: .waylandWindow, display: weston.socketPath))
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug)),
                configuration: view.controllerConfiguration(
                    PlaybackControllerConfiguration(progressInterval: .milliseconds(100), logger: h.logs.logger(level: .debug))))
            view.attach(controller)
            let recorder = EventRecorder(controller)
            // The smallest variant: its 426×240 window fits the compositor's output whole.
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(1) } else { false } } }
            #expect(view.overlay.frameSize == OverlayImage.Size(width: 426, height: 240), "\(String(describing: view.overlay.frameSize))")
            // The picture's green stripe and the played part of the progress bar, somewhere on the output.
            let deadline = ContinuousClock.now + .seconds(15)
            var seen = (picture: 0, bar: 0)
            while ContinuousClock.now < deadline {
                let png = try await weston.screenshot()
                if let keep = ProcessInfo.processInfo.environment["COVE_KEEP_SHOTS"] {
                    try? png.write(to: URL(fileURLWithPath: keep).appendingPathComponent("wayland.png"))
                }
                let shot = try GStreamerImageCodec().decode(png, header: try ImageLimits().check(png))
                seen = (
                    shot.count(x: 0, y: 0, width: shot.width, height: shot.height, near: (0, 210, 0), tolerance: 60),
                    shot.count(x: 0, y: 0, width: shot.width, height: shot.height, near: (0, 161, 255), tolerance: 24)
                )
                if seen.picture > 2_000 && seen.bar > 20 { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(seen.picture > 2_000 && seen.bar > 20, "picture pixels \(seen.picture), progress-bar pixels \(seen.bar)")
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            controller.shutdown()
            let closing = ContinuousClock.now + .seconds(10)
            while GStreamerEngine.livePipelineCount > 0 && ContinuousClock.now < closing { try await Task.sleep(for: .milliseconds(20)) }
            view.close()
            await h.stop()
        }
    }
}
