import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlayerUI
import CovePlayerView
import CoveSSAI
import CoveTesting
import CoveText
import Foundation
import Testing

/// A player view on the real engine under its own Xvfb: the view, its controller, the served media, and
/// the person's side — screenshots of the window, clicks and keys through xdotool.
struct PlayerViewRig {
    let x: XServer
    let h: Harness
    let view: PlayerView
    let controller: PlaybackController
    let recorder: EventRecorder

    static func start(
        x existing: XServer? = nil, placement: PlayerViewConfiguration.Placement = .window(title: "Cove test", width: 960, height: 540),
        options: PlayerUIOptions = .standard, localizer: Localizer = Localizer(), layout: ControlLayout? = nil,
        provider: (any PlaybackSessionProvider)? = nil, openLink: (@Sendable (URL) -> Void)? = nil
    ) async throws -> PlayerViewRig {
        let x: XServer
        if let existing { x = existing } else { x = try await XServer.start() }
        let h = try await Harness.start()
        var configuration = PlayerViewConfiguration(
            placement: placement, display: x.display, options: options, layout: layout, localizer: localizer, imageCodec: GStreamerImageCodec(),
            transport: AsyncHTTPClientTransport.shared)
        if let openLink { configuration.openLink = openLink }
        let view = try PlayerView(configuration: configuration)
        let controllerConfiguration = view.controllerConfiguration(
            PlaybackControllerConfiguration(progressInterval: .milliseconds(100), logger: h.logs.logger(level: .debug)))
        let controller = PlayerSDKManager.shared.makePlaybackController(
            engine: GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug)), sessionProvider: provider,
            configuration: controllerConfiguration)
        view.attach(controller)
        return PlayerViewRig(x: x, h: h, view: view, controller: controller, recorder: EventRecorder(controller))
    }

    /// Shuts down and waits for the pipelines to be torn down before the X server goes (a sink still
    /// connected to a display that dies ends the process).
    func stop(keepingX: Bool = false) async {
        controller.shutdown()
        let deadline = ContinuousClock.now + .seconds(10)
        while GStreamerEngine.livePipelineCount > 0 && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        view.close()
        await h.stop()
        if !keepingX { x.stop() }
    }

    var windowID: String { String(view.windowID ?? 0) }

    // MARK: Looking

    /// A screenshot of the view's window (or `window`), decoded.
    func shot(window: UInt? = nil, name: String = "view") async throws -> RGBAImage {
        await view.settle()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cove-\(name)-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try await x.run("timeout", "20", "import", "-window", window.map { String($0) } ?? windowID, file.path)
        let data = try Data(contentsOf: file)
        let header = try ImageLimits().check(data)
        let image = try GStreamerImageCodec().decode(data, header: header)
        if let keep = ProcessInfo.processInfo.environment["COVE_KEEP_SHOTS"] {
            try? data.write(to: URL(fileURLWithPath: keep).appendingPathComponent("\(name).png"))
        }
        return image
    }

    /// Waits (polling the view, which draws on its own loop) until `condition` holds.
    func waitUntil(_ what: String, timeout: Duration = .seconds(15), _ condition: @escaping @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("timed out waiting until \(what)")
        throw RecorderError(description: "timed out waiting until \(what)")
    }

    /// The drawn region of `tag` once the view has drawn it.
    func region(_ tag: ControlTag, timeout: Duration = .seconds(15)) async throws -> HitRegion {
        try await waitUntil("\(tag) is drawn", timeout: timeout) { view.hitRegions.region(of: tag) != nil }
        return try #require(view.hitRegions.region(of: tag))
    }

    // MARK: Touching

    /// Moves the pointer to (`x`, `y`) in the window and clicks there.
    func click(x px: Double, y py: Double, window: UInt? = nil) async throws {
        let id = window.map { String($0) } ?? windowID
        try await x.run("xdotool", "mousemove", "--window", id, String(Int(px)), String(Int(py)), "click", "1")
    }

    func click(_ region: HitRegion) async throws {
        try await click(x: region.rect.midX, y: region.rect.midY)
    }

    func movePointer(x px: Double, y py: Double) async throws {
        try await x.run("xdotool", "mousemove", "--window", windowID, String(Int(px)), String(Int(py)))
    }

    /// Presses keys (X keysym names: "space", "Right", "Return", "Escape") sent to the window.
    func key(_ names: String...) async throws {
        for name in names { try await x.run("xdotool", "key", "--window", windowID, name) }
    }
}

extension RGBAImage {
    /// How many pixels inside `rect` are within `tolerance` of `colour` in every channel.
    func count(in rect: ViewRect, near colour: (Int, Int, Int), tolerance: Int = 24) -> Int {
        count(x: Int(rect.x), y: Int(rect.y), width: Int(rect.maxX) - Int(rect.x), height: Int(rect.maxY) - Int(rect.y), near: colour, tolerance: tolerance)
    }

    /// Pixels inside `rect` brighter than `level` in all three channels (the controls' white).
    func whiteCount(in rect: ViewRect, level: Int = 215) -> Int {
        whiteCount(x: Int(rect.x), y: Int(rect.y), width: Int(rect.maxX) - Int(rect.x), height: Int(rect.maxY) - Int(rect.y), level: level)
    }
}

/// The painter's colours, as a screenshot shows them.
enum ViewColours {
    static let accent = (0, 161, 255)
    static let advert = (255, 204, 0)
    static let bumper = (156, 89, 181)
    static let live = (237, 33, 33)
}
