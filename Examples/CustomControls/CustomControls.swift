// Custom controls on the PlayerUI layout model, the seed's control-layout customization: the app
// builds its own `ControlLayout` (standard and compact bars, an elastic slider, its own logo view
// with `ControlTag.custom`), lets the model fit it to the width it has, draws the built-in controls
// with the terminal renderer and its logo itself, and maps presses on the controls to the controller.
// The same layout is drawn on the picture by the player view (its logo from the app's image): painted
// once into PNGs at a wide and a narrow size, and — when a display is there — shown in a window over the
// playing video.
//
//   swift run CustomControls
//
// A scripted viewer drags the slider to 80 %, presses play, presses "jump back" once playback passes
// 17 s and then drags the slider to 90 % to finish. It plays in real time whatever the arguments
// (about five seconds): controls are about what a viewer sees as it happens.
import CoveCore
import CoveGStreamer
import CovePlaybackService
import CovePlayerControls
import CovePlayerUI
import CovePlayerView
import ExampleSupport
import Foundation
import Synchronization

/// The app's layout: its logo at the right of the standard bar; two rows when narrow, logo on the second.
let logo = ControlTag.custom("custom-logo")
let layout = ControlLayout(
    standard: [
        [
            LayoutView(.playback), LayoutView(.jumpBack), LayoutView(.currentTime), LayoutView(.timeSeparator), LayoutView(.duration),
            LayoutView(.progress, elasticity: 1), LayoutView(logo, width: 6),
        ]
    ],
    compact: [
        [LayoutView(.currentTime), LayoutView(.progress, elasticity: 1), LayoutView(.duration)],
        [LayoutView(.playback), LayoutView(.jumpBack), LayoutView(.empty, elasticity: 1), LayoutView(logo, width: 6)],
    ],
    compactLayoutMaximumWidth: 60
)

/// Draws the bars for `width`: the renderer draws the built-in controls; the app paints its logo into the
/// frame the layout gave it.
func draw(_ state: ControlBarState, width: Int) -> [String] {
    let renderer = TerminalBarRenderer(colours: false, jumpBackSeconds: 10)
    let lines = renderer.lines(layout: layout, state: state, width: width)
    return zip(lines, layout.fit(width: width)).map { line, bar in
        guard let frame = bar.frame(of: logo) else { return line }
        var characters = Array(line.padding(toLength: max(line.count, frame.x + frame.width), withPad: " ", startingAt: 0))
        for (offset, character) in "[COVE]".prefix(frame.width).enumerated() { characters[frame.x + offset] = character }
        return String(characters)
    }
}

/// The app's logo for its own view: a teal badge (an app would decode its PNG with an ImageCodec).
let logoImage: RGBAImage = {
    let width = 48
    let height = 24
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            let border = x < 2 || y < 2 || x >= width - 2 || y >= height - 2
            pixels += border ? [255, 255, 255, 255] : [0, 150, 160, 255]
        }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)!
}()

/// The layout drawn in pixels, as the player view draws it over the video: at 1280×720 the standard bar,
/// at 360×640 (a portrait picture: 36 cells wide) the compact bars. Writes each as a PNG and says where the logo went.
func paintOnThePicture(_ bar: ControlBarState) {
    var controls = PlayerControlsState()
    controls.bar = bar
    for (width, height) in [(1280, 720), (360, 640)] {
        let scene = ViewScene(
            size: OverlayImage.Size(width: width, height: height), controls: controls, layout: layout, customImages: ["custom-logo": logoImage])
        guard let painted = try? ScenePainter().paint(scene), let logoRegion = painted.regions.region(of: logo) else {
            say("The \(width)×\(height) bar could not be painted")
            continue
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("custom-controls-\(width)x\(height).png")
        if let png = try? GStreamerImageCodec().encodePNG(painted.image.rgba(over: (20, 20, 30))) { try? png.write(to: file) }
        say(
            "On a \(width)×\(height) picture: \(painted.regions.count) controls, the logo at \(Int(logoRegion.rect.x)),\(Int(logoRegion.rect.y)) (\(file.path))"
        )
    }
}

extension OverlayImage {
    /// The layer over a plain background, as straight RGBA (to write as a PNG).
    func rgba(over background: (UInt8, UInt8, UInt8)) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: canvas.width * canvas.height * 4)
        for i in 0..<(canvas.width * canvas.height) {
            pixels[i * 4] = background.0
            pixels[i * 4 + 1] = background.1
            pixels[i * 4 + 2] = background.2
        }
        if let layer {
            for row in 0..<layer.height {
                for column in 0..<layer.width {
                    let source = row * layer.bytesPerRow + column * 4
                    let target = ((layer.y + row) * canvas.width + layer.x + column) * 4
                    let alpha = Int(layer.pixels[source + 3])
                    // Premultiplied BGRA over the background.
                    pixels[target] = UInt8(min(255, Int(layer.pixels[source + 2]) + Int(pixels[target]) * (255 - alpha) / 255))
                    pixels[target + 1] = UInt8(min(255, Int(layer.pixels[source + 1]) + Int(pixels[target + 1]) * (255 - alpha) / 255))
                    pixels[target + 2] = UInt8(min(255, Int(layer.pixels[source]) + Int(pixels[target + 2]) * (255 - alpha) / 255))
                }
            }
        }
        return RGBAImage(width: canvas.width, height: canvas.height, pixels: pixels)!
    }
}

/// The viewer's presses, turned into controller calls (what a real UI's button handlers do).
enum Press {
    case playPause, jumpBack, slider(fraction: Double)
}

final class ControlsDelegate: PlaybackControllerDelegate {
    let finished = Completion<Bool>()
    private struct Screen {
        var bar = ControlBarState()
        var step = 0
    }
    private let screen = Mutex(Screen())

    func press(_ press: Press, on controller: PlaybackController) {
        let state = screen.withLock { $0.bar }
        switch press {
        case .playPause:
            say("Viewer presses \(state.isPlaying ? "pause" : "play")")
            if state.isPlaying { controller.pause() } else { controller.play() }
        case .jumpBack:
            let target = max(.zero, state.position - .seconds(10))
            say("Viewer presses jump back: \(TimeText.clock(state.position)) → \(TimeText.clock(target))")
            controller.seek(to: MediaTime(target))
        case .slider(let fraction):
            guard let duration = state.duration else { return }
            let target = duration * fraction
            say("Viewer drags the slider to \(Int(fraction * 100)) %: \(TimeText.clock(target))")
            controller.seek(to: MediaTime(target))
        }
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeDuration duration: Duration?) {
        screen.withLock { $0.bar.duration = duration }
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        switch lifecycleEvent {
        case .ready:
            let bar = screen.withLock { $0.bar }
            say("Ready. The bars at 80 and at 48 columns:")
            for line in draw(bar, width: 80) + draw(bar, width: 48) { say("  |" + line + "|") }
            paintOnThePicture(bar)
            press(.slider(fraction: 0.8), on: controller)
            press(.playPause, on: controller)
        case .play:
            screen.withLock { $0.bar.isPlaying = true }
        case .pause:
            screen.withLock { $0.bar.isPlaying = false }
        case .end:
            let bar = screen.withLock {
                $0.bar.isPlaying = false; return $0.bar
            }
            for line in draw(bar, width: 80) { say("  |" + line + "|") }
            finished.fire(true)
        case .fail(let error):
            say("Playback failed: \(error)")
            finished.fire(false)
        default: break
        }
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didProgressTo progress: MediaTime) {
        let (bar, step) = screen.withLock { screen -> (ControlBarState, Int) in
            screen.bar.position = progress.duration ?? .zero
            return (screen.bar, screen.step)
        }
        if step == 0, progress.seconds > 17 {
            screen.withLock { $0.step = 1 }
            for line in draw(bar, width: 80) { say("  |" + line + "|") }
            press(.jumpBack, on: controller)
        } else if step == 1, progress.seconds < 10 {
            screen.withLock { $0.step = 2 }
            for line in draw(bar, width: 80) { say("  |" + line + "|") }
            press(.slider(fraction: 0.9), on: controller)
        }
    }
}

@main
struct CustomControls {
    static func main() async {
        let backend: SampleBackend
        do { backend = try await SampleBackend.start() } catch { fail("The sample back end did not start: \(error)") }
        let video: Video
        do {
            video = try await backend.playbackService().findVideo(PlaybackServiceConfiguration(assetID: "6000000000101")).value
        } catch {
            await backend.stop()
            fail("The Playback Service could not find the video: \(error)")
        }
        var configuration = ExampleOptions(fast: false).configuration
        configuration.progressInterval = .milliseconds(250)
        // With a display, the same layout over the video in a window (the seed's `controlsView.layout`).
        var view: PlayerView?
        if DesktopSession.current().x11Display != nil {
            view = try? PlayerView(
                configuration: PlayerViewConfiguration(
                    placement: .window(title: "CustomControls", width: 960, height: 540), layout: layout, customImages: ["custom-logo": logoImage],
                    showsVolumeControl: false))
            if let view { configuration = view.controllerConfiguration(configuration) }
        }
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: configuration)
        view?.attach(controller)
        let delegate = ControlsDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = false  // the viewer presses play
        controller.setVideos([video])
        let ended = await delegate.finished.value() ?? false
        controller.shutdown()
        while GStreamerEngine.livePipelineCount > 0 { try? await Task.sleep(for: .milliseconds(20)) }
        view?.close()
        await backend.stop()
        if !ended { exit(1) }
    }
}
