// Custom controls on the PlayerUI layout model, the seed's control-layout customization: the app
// builds its own `ControlLayout` (standard and compact bars, an elastic slider, its own logo view
// with `ControlTag.custom`), lets the model fit it to the width it has, draws the built-in controls
// with the terminal renderer and its logo itself, and maps presses on the controls to the controller.
//
//   swift run CustomControls
//
// A scripted viewer drags the slider to 80 %, presses play, presses "jump back" once playback passes
// 17 s and then drags the slider to 90 % to finish. It plays in real time whatever the arguments
// (about five seconds): controls are about what a viewer sees as it happens.
import CoveCore
import CoveGStreamer
import CovePlaybackService
import CovePlayerUI
import ExampleSupport
import Foundation
import Synchronization

/// The app's layout: its logo at the right of the standard bar; two rows when narrow, logo on the second.
let logo = ControlTag.custom("logo")
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
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: configuration)
        let delegate = ControlsDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = false  // the viewer presses play
        controller.setVideos([video])
        let ended = await delegate.finished.value() ?? false
        controller.shutdown()
        await backend.stop()
        if !ended { exit(1) }
    }
}
