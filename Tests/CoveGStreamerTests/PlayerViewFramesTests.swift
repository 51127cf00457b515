import CoveCore
import CoveGStreamer
import CovePlayerUI
import CovePlayerView
import CoveTesting
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// The player view on the frames handed to the app: with the controls blended in, or the bare
    /// picture, as the app's receiver says; input forwarded by the app.
    @Suite("Player view: frames", .serialized)
    struct PlayerViewFramesTests {
        /// The accent-coloured played part of the progress bar, counted in the bottom rows of a frame.
        static func accentPixels(_ frame: VideoFrame) -> Int {
            var count = 0
            for y in (frame.height * 3 / 4)..<frame.height {
                for x in stride(from: 0, to: frame.width, by: 1) {
                    guard let p = frame.rgbaPixel(x: x, y: y) else { continue }
                    if p.red < 24 && abs(Int(p.green) - 161) < 24 && p.blue > 231 { count += 1 }
                }
            }
            return count
        }

        static func play(includesOverlay: Bool) async throws -> (accent: Int, frames: Int, clicked: Bool) {
            let h = try await Harness.start()
            // A solid picture (OutputFixture's blue): no pixel of it is the controls' accent colour.
            let fixture = try await OutputFixture.prepare()
            let server = try await MediaServer.start(root: fixture.root)
            let best = Mutex((accent: 0, frames: 0))
            let receiver = VideoFrameReceiver(format: .rgba, includesOverlay: includesOverlay) { frame in
                let accent = Self.accentPixels(frame)
                best.withLock { $0 = (max($0.accent, accent), $0.frames + 1) }
            }
            let view = try PlayerView(configuration: PlayerViewConfiguration(placement: .frames(receiver)))
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug)),
                configuration: view.controllerConfiguration(PlaybackControllerConfiguration(progressInterval: .milliseconds(100))))
            view.attach(controller)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([fixture.video(on: server.baseURL)])
            try await h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(2) } else { false } } }
            // The app forwards a click on the pause control it sees in the frames (their size is the picture's).
            await view.settle()
            var clicked = false
            if let pause = view.hitRegions.region(of: .playback) {
                let mark = await recorder.cursor()
                view.handle(.pointerPressed(x: pause.rect.midX, y: pause.rect.midY, button: 1))
                try await recorder.waitFor(.pause, from: mark)
                clicked = true
            }
            controller.shutdown()
            view.close()
            await server.stop()
            await h.stop()
            return (best.withLock { $0.accent }, best.withLock { $0.frames }, clicked)
        }

        @Test func framesCarryTheControlsWhenTheAppAsksAndTheAppForwardsClicks() async throws {
            let with = try await Self.play(includesOverlay: true)
            #expect(with.frames > 20 && with.accent > 20, "frames \(with.frames), accent pixels \(with.accent)")
            #expect(with.clicked, "the forwarded click paused")
            let without = try await Self.play(includesOverlay: false)
            #expect(without.frames > 20 && without.accent == 0, "bare frames: \(without.frames), accent pixels \(without.accent)")
        }
    }
}
