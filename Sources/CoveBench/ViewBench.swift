import ArgumentParser
import CXCB
import CoveCore
import CoveGStreamer
import CovePlayerUI
import CovePlayerView
import CoveTesting
import Foundation

/// Issue 30: what the player view costs and how fast it answers. Under its own 1920×1080 Xvfb, 10 s of
/// 1080p30 played at real time into a 1920×1080 window: the process's CPU with the bare window (the video
/// alone) against the player view with its controls kept visible (painted, blended into every frame), in
/// interleaved reps; and click-to-visible-change latency: a press on the volume control (mute), sent to
/// the window while the video plays, until the window's pixels show the muted speaker (read back with
/// GetImage every 2 ms) — the press, the controller's round trip and the engine's next frame.
enum ViewBench {
    struct Result: Sendable {
        let bareCPU: [Double]
        let controlsCPU: [Double]
        /// Seconds from the press to the change on screen.
        let latencies: [Double]
    }

    static func run(reps: Int, say: (String) -> Void) async throws -> Result {
        let movie = try await OutputBench.fixture()
        let x = try await XServer.start(width: 1920, height: 1080)
        defer { x.stop() }
        var bare: [Double] = []
        var controls: [Double] = []
        var latencies: [Double] = []
        for rep in 0...reps {
            for kind in rep % 2 == 0 ? ["bare", "controls"] : ["controls", "bare"] {
                let measured = try await measure(kind: kind, movie: movie, display: x.display, probeLatency: kind == "controls" && rep > 0)
                say(String(format: "rep %d %-8@ %.2f CPU s for 10 s of 1080p30", rep, kind as NSString, measured.cpu))
                if !measured.latencies.isEmpty {
                    say("  click → visible change: " + measured.latencies.map { String(format: "%.0f ms", $0 * 1000) }.joined(separator: ", "))
                }
                guard rep > 0 else { continue }
                if kind == "bare" { bare.append(measured.cpu) } else { controls.append(measured.cpu) }
                latencies += measured.latencies
            }
        }
        return Result(bareCPU: bare, controlsCPU: controls, latencies: latencies)
    }

    private static func measure(kind: String, movie: URL, display: String, probeLatency: Bool) async throws -> (cpu: Double, latencies: [Double]) {
        let window = try XTestWindow(display: display, width: 1920, height: 1080)
        defer { window.close() }
        var view: PlayerView?
        var configuration = PlaybackControllerConfiguration(progressInterval: .milliseconds(250))
        if kind == "controls" {
            let options = try PlayerUIOptions(keepControlsVisible: true)
            let created = try PlayerView(
                configuration: PlayerViewConfiguration(placement: .inWindow(id: window.id), display: display, options: options))
            configuration = created.controllerConfiguration(configuration)
            view = created
        } else {
            configuration.videoOutput = .x11Window(id: window.id, display: display)
        }
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: configuration)
        view?.attach(controller)
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: movie)])
        try await recorder.waitFor(timeout: .seconds(15)) { if case .progress(_, let t) = $0 { t >= .seconds(0.5) } else { false } }
        let before = OutputBench.cpuSeconds()
        try await recorder.waitFor(timeout: .seconds(30)) { if case .progress(_, let t) = $0 { t >= .seconds(10.5) } else { false } }
        let spent = OutputBench.cpuSeconds() - before
        var latencies: [Double] = []
        if probeLatency, let view { latencies = try await clickLatencies(view: view, display: display, window: UInt32(window.id), trials: 4) }
        controller.shutdown()
        await controller.settle()
        while GStreamerEngine.livePipelineCount > 0 { try await Task.sleep(for: .milliseconds(20)) }
        view?.close()
        return (spent, latencies)
    }

    /// Presses the volume control `trials` times (mute, unmute, …), timing each until its pixels change on
    /// screen.
    private static func clickLatencies(view: PlayerView, display: String, window: UInt32, trials: Int) async throws -> [Double] {
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(display, &screenNumber), xcb_connection_has_error(connection) == 0 else {
            throw ValidationError("cannot connect to \(display) to read the window back")
        }
        defer { xcb_disconnect(connection) }
        guard let button = view.hitRegions.region(of: .volume), let target = view.windowID else { return [] }
        // The speaker's waves, where the muted cross replaces them.
        let sample = (x: Int16(button.rect.midX), y: Int16(button.rect.midY - 12), width: UInt16(max(4, button.rect.width / 2 - 2)), height: UInt16(24))
        func pixels() -> [UInt8] {
            let cookie = xcb_get_image(connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, sample.x, sample.y, sample.width, sample.height, ~0)
            guard let reply = xcb_get_image_reply(connection, cookie, nil) else { return [] }
            defer { free(reply) }
            let count = Int(xcb_get_image_data_length(reply))
            return Array(UnsafeBufferPointer(start: xcb_get_image_data(reply), count: count))
        }
        func differs(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a.count == b.count, !a.isEmpty else { return false }
            var changed = 0
            for index in stride(from: 0, to: a.count, by: 4) where abs(Int(a[index]) - Int(b[index])) > 40 { changed += 1 }
            return changed > 6
        }
        func press() {
            var event = xcb_button_press_event_t()
            event.response_type = UInt8(XCB_BUTTON_PRESS)
            event.detail = 1
            event.event = UInt32(target)
            event.event_x = Int16(button.rect.midX)
            event.event_y = Int16(button.rect.midY)
            withUnsafeBytes(of: &event) { raw in
                _ = xcb_send_event(
                    connection, 0, UInt32(target), XCB_EVENT_MASK_BUTTON_PRESS.rawValue, raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            xcb_flush(connection)
        }
        var latencies: [Double] = []
        for _ in 0..<trials {
            let before = pixels()
            let start = ContinuousClock.now
            press()
            var seen = false
            while ContinuousClock.now - start < .seconds(2) {
                if differs(before, pixels()) {
                    seen = true
                    break
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            if seen {
                let elapsed = ContinuousClock.now - start
                latencies.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            // Let the picture settle before the next press (which unmutes).
            try await Task.sleep(for: .milliseconds(400))
        }
        return latencies
    }

    static func markdown(_ result: Result) -> String {
        let bare = OutputBench.median(result.bareCPU)
        let controls = OutputBench.median(result.controlsCPU)
        let sorted = result.latencies.sorted()
        let median = OutputBench.median(result.latencies)
        var text = "<!-- view:begin -->\n### Player view (issue 30)\n\n"
        text +=
            "Under a 1920×1080 Xvfb, 10 s of 1080p30 H.264 played at real time into a 1920×1080 window; CPU seconds of the whole process, median of \(result.bareCPU.count) interleaved reps. The player view keeps its controls visible (painted with cairo and Pango, blended into every frame).\n\n"
        text += "| Window | CPU s / 10 s | vs bare |\n|---|---|---|\n"
        text += String(format: "| bare (the video alone) | %.2f | 1.00× |\n", bare)
        text += String(format: "| player view, controls visible | %.2f | %.2f× (target ≤ 1.10×) |\n\n", controls, controls / bare)
        text += String(
            format:
                "Click to visible change (a press on the volume control while the video plays, through the controller to the engine and back, until the speaker changes in the window's pixels, read back every 2 ms): median %.0f ms, max %.0f ms over %d presses; target one frame + 50 ms = 83 ms.\n",
            median * 1000, (sorted.last ?? .nan) * 1000, sorted.count)
        text += "<!-- view:end -->\n"
        return text
    }
}
