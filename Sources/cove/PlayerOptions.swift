import ArgumentParser
import CoveAnalytics
import CoveCore
import CoveGStreamer
import CoveMPRIS
import CoveNetworking
import CovePlayerControls
import CovePlayerUI
import CovePlayerView
import CoveStreaming
import Foundation
import Logging

/// Options shared by every command that plays media.
struct PlayerOptions: ParsableArguments {
    @Flag(help: "Show the video with its controls in a window (the default when DISPLAY is set and --fast is not given).")
    var window = false

    @Flag(help: "No window and no sound, whatever the desktop offers (probes, servers, CI).")
    var headless = false

    @Option(
        name: .customLong("window-id"), help: "Draw the video into this existing X11 window (its ID, decimal or 0x-hex, as xwininfo prints it), scaled to it.")
    var windowID: String?

    @Flag(name: .customLong("captions-on-picture"), help: "Draw the selected captions onto the video (a window or --window-id).")
    var captionsOnPicture = false

    @Flag(help: "Play as fast as the media decodes instead of in real time.")
    var fast = false

    @Flag(help: "Play sound on the system's audio device (the default with a window when a sound server answers).")
    var audio = false

    @Option(name: .customLong("audio-device"), help: "Play sound on this sound-server device (as `pactl list short sinks` names it).")
    var audioDevice: String?

    @Option(help: "Volume, 0 (silent) to 1 (the stream's own level).")
    var volume: Double = 1

    @Flag(help: "Start muted.")
    var mute = false

    @Option(help: "Playback rate (values <= 0 become 1.0).")
    var rate: Double = 1

    @Option(name: .customLong("peak-bitrate"), help: "Cap adaptive streaming at this many bits per second.")
    var peakBitrate: Int?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Be an MPRIS player on the session bus (media keys, playerctl, the desktop's now playing); default: on when a window is shown and a session bus answers."
    )
    var mpris: Bool?

    @Option(
        name: .customLong("clearkey"),
        help: "A ClearKey key for protected (cenc/cbcs) content: KID:KEY, 32 hex digits each; repeat for more keys (as Shaka's clearKeys).")
    var clearKeys: [String] = []

    @Option(name: .customLong("license-url"), help: "A ClearKey licence server for protected content whose source names none.")
    var licenseURL: String?

    @Option(help: "Log level for the SDK (trace, debug, info, notice, warning, error, critical).")
    var logLevel: String = "warning"

    @Option(
        name: .customLong("analytics"), help: "Send Brightcove analytics (Data Collection API events) to this collector URL, e.g. the one `cove serve` prints.")
    var analyticsDestination: String?

    @Option(name: .customLong("analytics-account"), help: "The account analytics events are for (default: the video's account).")
    var analyticsAccount: String?

    /// ClearKey with the keys and licence server given (`--clearkey`, `--license-url`). The error names the
    /// bad pair by position, never the key.
    func decryptionModules() throws -> DecryptionModules {
        let keys: [KeyID: [UInt8]]
        do throws(DecryptionError) {
            keys = try ClearKeyModule.keys(fromPairs: clearKeys)
        } catch {
            throw ValidationError("--clearkey: \(error.detail)")
        }
        var url: URL?
        if let licenseURL {
            guard let parsed = URL(string: licenseURL), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
                throw ValidationError("--license-url '\(licenseURL)' is not an http(s) URL")
            }
            url = parsed
        }
        return DecryptionModules([ClearKeyModule(keys: keys, licenseURL: url)])
    }

    /// Starts analytics for `controller` when `--analytics` was given; the queue is kept in
    /// $COVE_ANALYTICS_QUEUE, else ~/.local/share/cove/analytics.sqlite, so events a run could not send
    /// go with the next.
    func startAnalytics(for controller: PlaybackController, account: String?) throws -> PlaybackAnalytics? {
        guard let analyticsDestination else { return nil }
        guard let destination = URL(string: analyticsDestination), ["http", "https"].contains(destination.scheme?.lowercased() ?? ""), destination.host != nil
        else {
            throw ValidationError("--analytics '\(analyticsDestination)' is not an http(s) URL")
        }
        guard let account = analyticsAccount ?? account else {
            throw ValidationError("analytics needs an account: pass --analytics-account (the video names none)")
        }
        let environment = ProcessInfo.processInfo.environment
        let queue =
            environment["COVE_ANALYTICS_QUEUE"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/cove/analytics.sqlite")
        do {
            let analytics = try PlaybackAnalytics(
                configuration: .init(account: account, queueURL: queue, destination: destination, flushInterval: .seconds(1)),
                transport: AsyncHTTPClientTransport.shared
            )
            analytics.track(controller, pacing: fast ? .unsynchronized : .realTime)
            return analytics
        } catch {
            throw ValidationError("analytics cannot start: \(error)")
        }
    }

    /// Makes the controller once the engine is warm: a command is an app that launches and then plays, so
    /// its first play should not pay for loading GStreamer's plugins (a failure here is left for the play
    /// itself to report, with its precise error).
    /// For commands that measure rather than show (probe, monitor): a window only when asked for.
    func makeController(provider: (any PlaybackSessionProvider)? = nil) async -> PlaybackController {
        await makePlayer(provider: provider, controls: nil, windowByDefault: false).controller
    }

    /// The controller, and the player view when the video shows in a window (`--window`, `--window-id`,
    /// or by default on a desktop): the PlayerUI drawn on the picture, with mouse and keys.
    func makePlayer(
        provider: (any PlaybackSessionProvider)? = nil, controls: ControlOptions?, windowByDefault: Bool = true
    ) async -> (controller: PlaybackController, view: PlayerView?) {
        var logger = Logger(label: "cove")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .warning
        let showsWindow = wantsWindow(byDefault: windowByDefault)
        var configuration = PlaybackControllerConfiguration(
            videoOutput: .headless, audioOutput: audioOutput(window: showsWindow),
            pacing: fast ? .unsynchronized : .realTime,
            logger: logger, captionsOnPicture: captionsOnPicture
        )
        var view: PlayerView?
        if showsWindow {
            do {
                view = try PlayerView(configuration: viewConfiguration(controls))
            } catch {
                // A DISPLAY that does not answer: the video still plays, headless, and the viewer is told why.
                Terminal.error("cove: no window: \(error.message); playing headless")
            }
        }
        if let view { configuration = view.controllerConfiguration(configuration) }
        // The warm-up started at exec (`EarlyWarmUp`); the first request waits for it inside the engine
        // (`GStreamerEngine` streaming's readiness), so the controller and its pipeline are built meanwhile.
        EarlyWarmUp.start()
        var streaming = StreamingConfiguration()
        // Validated with the arguments (`validate()`): the default ClearKey if it somehow fails here.
        if let modules = try? decryptionModules() { streaming.decryptionModules = modules }
        let engine = GStreamerEngine(logger: logger, streaming: streaming)
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: engine, sessionProvider: provider, configuration: configuration)
        if rate != 1 { controller.playbackRate = rate }
        if volume != 1 { controller.volume = volume }
        if mute { controller.isMuted = true }
        if let peakBitrate { controller.setPreferredPeakBitRate(peakBitrate) }
        view?.attach(controller)
        return (controller, view)
    }

    /// The view's window: inside `--window-id`, else one of its own; the controls' options as the
    /// terminal's (the seed's 3 s hide delay unless `--hide-controls` says otherwise).
    private func viewConfiguration(_ controls: ControlOptions?) -> PlayerViewConfiguration {
        let session = DesktopSession.current()
        let placement: PlayerViewConfiguration.Placement
        if let id = windowID.flatMap(Self.parseWindowID) {
            placement = .inWindow(id: id)
        } else if session.x11Display == nil && session.waylandDisplay != nil {
            // A Wayland desktop without XWayland: the Wayland sink's own window.
            placement = .waylandWindow
        } else {
            placement = .window
        }
        var configuration = PlayerViewConfiguration(placement: placement, imageCodec: GStreamerImageCodec(), transport: AsyncHTTPClientTransport.shared)
        if let controls {
            configuration.options = controls.viewOptions
            configuration.localizer = controls.localizer
        }
        return configuration
    }
}

extension PlayerOptions {
    /// MPRIS for `controller` when asked (`--mpris`) or by default with a window. Without a session bus the
    /// default stays quiet; an explicit `--mpris` says why it could not start.
    func startMPRIS(for controller: PlaybackController, window: Bool) -> MediaPlayer2Service? {
        guard mpris ?? window else { return nil }
        do {
            return try MediaPlayer2Service(controller: controller)
        } catch {
            if mpris == true { Terminal.error("cove: no MPRIS: \(error.message)") }
            return nil
        }
    }

    /// A window with the controls: `--window` or `--window-id`, or by default on a desktop (DISPLAY set)
    /// unless `--headless` or `--fast` (fast playback is for probes, not for watching).
    func wantsWindow(byDefault: Bool) -> Bool {
        if headless { return false }
        if window || windowID != nil { return true }
        return byDefault && !fast && DesktopSession.current().hasDisplay
    }

    /// `--audio-device`, `--audio`, else sound when a window is shown and a sound server answers.
    func audioOutput(window: Bool) -> AudioOutput {
        if let audioDevice { return .device(name: audioDevice) }
        if audio { return .system }
        return window && DesktopSession.current().hasSoundServer ? .system : .discard
    }

    func validate() throws {
        if headless && (window || windowID != nil) {
            throw ValidationError("--headless shows no window: leave out --window and --window-id, or --headless")
        }
        if let windowID, Self.parseWindowID(windowID) == nil {
            throw ValidationError("--window-id '\(windowID)' is not an X11 window ID: give it in decimal (12582913) or hex (0xc00001), as xwininfo prints it")
        }
        guard volume.isFinite, (0...1).contains(volume) else {
            throw ValidationError("--volume \(volume) is out of range: give a level from 0 (silent) to 1 (the stream's own level)")
        }
        _ = try decryptionModules()
    }

    static func parseWindowID(_ text: String) -> UInt? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let value = trimmed.hasPrefix("0x") ? UInt(trimmed.dropFirst(2), radix: 16) : UInt(trimmed)
        guard let value, value > 0, value <= UInt(UInt32.max) else { return nil }
        return value
    }
}

/// Parses a media URL argument, accepting plain file paths too.
func mediaURL(_ text: String) throws -> URL {
    if text.contains("://"), let url = URL(string: text), url.scheme != nil { return url }
    let path = URL(fileURLWithPath: text).standardizedFileURL
    guard FileManager.default.fileExists(atPath: path.path) else {
        throw ValidationError("'\(text)' is neither a URL nor an existing file")
    }
    return path
}
