import ArgumentParser
import CoveAnalytics
import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlayerControls
import Foundation
import Logging

/// Options shared by every command that plays media.
struct PlayerOptions: ParsableArguments {
    @Flag(help: "Show the video in an X11 window (needs DISPLAY); headless otherwise.")
    var window = false

    @Option(
        name: .customLong("window-id"), help: "Draw the video into this existing X11 window (its ID, decimal or 0x-hex, as xwininfo prints it), scaled to it.")
    var windowID: String?

    @Flag(name: .customLong("captions-on-picture"), help: "Draw the selected captions onto the video (a window or --window-id).")
    var captionsOnPicture = false

    @Flag(help: "Play as fast as the media decodes instead of in real time.")
    var fast = false

    @Flag(help: "Play sound on the system's audio device (audio is decoded and discarded otherwise).")
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

    @Option(help: "Log level for the SDK (trace, debug, info, notice, warning, error, critical).")
    var logLevel: String = "warning"

    @Option(
        name: .customLong("analytics"), help: "Send Brightcove analytics (Data Collection API events) to this collector URL, e.g. the one `cove serve` prints.")
    var analyticsDestination: String?

    @Option(name: .customLong("analytics-account"), help: "The account analytics events are for (default: the video's account).")
    var analyticsAccount: String?

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
    func makeController(provider: (any PlaybackSessionProvider)? = nil) async -> PlaybackController {
        var logger = Logger(label: "cove")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .warning
        let configuration = PlaybackControllerConfiguration(
            videoOutput: videoOutput, audioOutput: audioOutput,
            pacing: fast ? .unsynchronized : .realTime,
            logger: logger, captionsOnPicture: captionsOnPicture
        )
        let engine = GStreamerEngine(logger: logger)
        try? await engine.warmUp()
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: engine, sessionProvider: provider, configuration: configuration)
        if rate != 1 { controller.playbackRate = rate }
        if volume != 1 { controller.volume = volume }
        if mute { controller.isMuted = true }
        if let peakBitrate { controller.setPreferredPeakBitRate(peakBitrate) }
        return controller
    }
}

extension PlayerOptions {
    /// `--window-id` (checked in `validate`) wins over `--window`.
    var videoOutput: VideoOutput {
        if let id = windowID.flatMap(Self.parseWindowID) { return .x11Window(id: id, display: nil) }
        return window ? .window : .headless
    }

    var audioOutput: AudioOutput {
        if let audioDevice { return .device(name: audioDevice) }
        return audio ? .system : .discard
    }

    func validate() throws {
        if let windowID, Self.parseWindowID(windowID) == nil {
            throw ValidationError("--window-id '\(windowID)' is not an X11 window ID: give it in decimal (12582913) or hex (0xc00001), as xwininfo prints it")
        }
        guard volume.isFinite, (0...1).contains(volume) else {
            throw ValidationError("--volume \(volume) is out of range: give a level from 0 (silent) to 1 (the stream's own level)")
        }
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
