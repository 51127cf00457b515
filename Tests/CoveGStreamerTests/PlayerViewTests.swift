import CoveCore
import CoveGStreamer
import CovePlayerControls
import CovePlayerUI
import CovePlayerView
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// The player view on the real engine under Xvfb: the controls drawn on the picture, pressed with
    /// xdotool as a person would, looked at in screenshots of the window.
    @Suite("Player view", .serialized, .enabled(if: XServer.isAvailable, "Xvfb is not installed"))
    struct PlayerViewTests {
        @Test func smoke() async throws {
            let x = try await XServer.start()
            defer { x.stop() }
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let view = try PlayerView(configuration: PlayerViewConfiguration(placement: .window(title: "Cove test", width: 960, height: 540), display: x.display, imageCodec: GStreamerImageCodec()))
            defer { view.close() }
            let configuration = view.controllerConfiguration(PlaybackControllerConfiguration(progressInterval: .milliseconds(100), logger: h.logs.logger(level: .debug)))
            let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug)), configuration: configuration)
            view.attach(controller)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(2) } else { false } } }
            await view.settle()
            try await x.run("timeout", "20", "import", "-window", String(view.windowID!), "/tmp/cove-view-1.png")
            controller.pause()
            try await recorder.waitFor(.pause)
            try await x.run("xdotool", "mousemove", "--window", String(view.windowID!), "600", "500")
            try await Task.sleep(for: .milliseconds(500))
            await view.settle()
            try await x.run("timeout", "20", "import", "-window", String(view.windowID!), "/tmp/cove-view-2.png")
            print(view.hitRegions.map { "\($0.target) \($0.rect)" })
            controller.shutdown()
        }
    }
}
