import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Synchronization
import Testing

/// `cove play` on a desktop, as a person runs it: no flags, a window with the controls drawn on the
/// picture, keys and media controllers (playerctl over a private session bus) driving it.
@Suite("cove play in a window", .serialized)
struct PlayWindowCLITests {
    /// The lines the player printed so far, and a wait for one.
    final class Output: Sendable {
        private let lines = Mutex<[String]>([])
        init(_ stream: AsyncStream<String>) {
            Task { [weak self] in
                for await line in stream { self?.lines.withLock { $0.append(line) } }
            }
        }
        var all: [String] { lines.withLock { $0 } }
        func wait(for what: String, timeout: Duration = .seconds(20), _ match: @escaping (String) -> Bool) async throws {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if all.contains(where: match) { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw RecorderError(description: "cove play never printed \(what); it printed: \(all.suffix(30).joined(separator: "\n"))")
        }
    }

    static func shot(_ x: XServer, window: String) async throws -> RGBAImage {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cove-cli-view-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try await x.run("timeout", "20", "import", "-window", window, file.path)
        let data = try Data(contentsOf: file)
        return try GStreamerImageCodec().decode(data, header: try ImageLimits().check(data))
    }

    /// The exit status, or nil (and the process killed) when it does not end in time.
    static func exitStatus(of process: ProcessRunner.Running, within timeout: Duration) async -> Int32? {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await process.status() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil { process.kill() }
            group.cancelAll()
            return first
        }
    }

    /// With no flags under a display: a window named after the video shows the picture with the bar on
    /// it; the space key pauses and plays (the event log says so); playerctl pauses, seeks to 10 s and
    /// reads the metadata of `org.mpris.MediaPlayer2.cove`; a second player takes `….cove.instance<pid>`
    /// and leaves the first its name; Quit from the media controller ends the run (exit 0).
    static var desktopToolsAreInstalled: Bool { XServer.isAvailable && PrivateBus.isAvailable }

    @Test(.enabled(if: desktopToolsAreInstalled, "Xvfb, dbus-daemon or playerctl is missing"))
    func coveplayOpensAWindowWithTheControlsAndAnswersMediaKeys() async throws {
        let x = try await XServer.start()
        defer { x.stop() }
        let bus = try await PrivateBus.start()
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        let environment = ["DISPLAY": x.display].merging(bus.environment) { _, new in new }
        let player = try ProcessRunner.start(CLITests.binary.path, ["play", server.url(.ladder).absoluteString], environment: environment)
        let output = Output(player.lines)
        try await output.wait(for: "a second of playback") { $0.contains("▶ 0:01") }

        let window = try await x.run("xdotool", "search", "--name", "Cove").split(separator: "\n").first.map(String.init)
        let id = try #require(window, "cove play opened no window")
        // Playing, the controls hide a few seconds after the last input, and a loaded machine can print the
        // first second later than that (CI once shot the picture with the bar already hidden): the pointer
        // moves over the picture first, as a viewer's hand does, and the shot is taken once it is drawn.
        try await x.run("xdotool", "mousemove", "--window", id, "640", "300")
        var picture = try await Self.shot(x, window: id)
        let shown = ContinuousClock.now + .seconds(10)
        while picture.whiteCount(x: 12, y: 660, width: 40, height: 60) <= 20, ContinuousClock.now < shown {
            try await x.run("xdotool", "mousemove", "--window", id, "640", "\(300 + Int.random(in: 1...20))")
            picture = try await Self.shot(x, window: id)
        }
        #expect(picture.width == 1280 && picture.height == 720)
        // The picture (the test pattern's stripes) and, drawn on it, the bar: the pause glyph bottom left.
        #expect(picture.count(x: 200, y: 100, width: 100, height: 100, near: (0, 210, 0), tolerance: 60) > 1_000, "the video is shown")
        #expect(picture.whiteCount(x: 12, y: 660, width: 40, height: 60) > 20, "the play/pause control is drawn on the picture")

        try await x.run("xdotool", "key", "--window", id, "space")
        try await output.wait(for: "Pause") { $0.hasSuffix("] Pause") }
        try await bus.poll(["-p", "cove", "status"]) { $0 == "Paused" }
        try await x.run("xdotool", "key", "--window", id, "space")
        try await output.wait(for: "Play again") { line in line.hasSuffix("] Play") && output.all.contains { $0.hasSuffix("] Pause") } }

        try await bus.playerctl("-p", "cove", "play-pause")
        try await bus.poll(["-p", "cove", "status"]) { $0 == "Paused" }
        try await bus.playerctl("-p", "cove", "position", "10")
        try await bus.poll(["-p", "cove", "position"]) { Double($0).map { abs($0 - 10) < 1 } ?? false }
        let url = try await bus.poll(["-p", "cove", "metadata", "xesam:url"]) { !$0.isEmpty }
        #expect(url.contains("ladder/master.m3u8"), "\(url)")
        picture = try await Self.shot(x, window: id)
        #expect(picture.whiteCount(x: 12, y: 660, width: 40, height: 60) > 20, "paused, the controls stay on the picture")

        // A second player on the same bus does not take the first one's name.
        let second = try ProcessRunner.start(CLITests.binary.path, ["play", server.url(.ladder).absoluteString], environment: environment)
        let secondOutput = Output(second.lines)
        try await secondOutput.wait(for: "the second player's playback") { $0.contains("▶ 0:01") }
        let names = try await bus.names()
        #expect(names.contains("org.mpris.MediaPlayer2.cove"), "\(names)")
        #expect(names.contains { $0.hasPrefix("org.mpris.MediaPlayer2.cove.instance") }, "\(names)")
        second.interrupt()
        #expect(await Self.exitStatus(of: second, within: .seconds(20)) != nil)

        // A single video has no next (CanGoNext false: playerctl says no player handles it); Quit ends the
        // run as the viewer quitting, exit 0.
        let next = try await bus.playerctl("-p", "cove", "next")
        #expect(next.status != 0)
        let quit = try await ProcessRunner.run(
            "dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.cove", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"],
            environment: bus.environment)
        #expect(quit.status == 0, "\(quit.errorOutput)")
        let exited = await Self.exitStatus(of: player, within: .seconds(20))
        #expect(exited == 0, "\(output.all.suffix(10))")
        await server.stop()
        await bus.stop()
    }
}
