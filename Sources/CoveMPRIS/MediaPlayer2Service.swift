import CCoveMPRIS
import CoveCore
import Foundation
import Logging
import Synchronization

/// A playback controller as an MPRIS2 media player on the D-Bus session bus, so that a Linux
/// desktop's media keys, its "now playing" applet and `playerctl` drive it and show what it plays
/// (as they do for mpv, VLC and Chromium).
///
/// Opt-in: create one for a controller and keep it as long as the player should be visible; `stop()`
/// (or releasing the service) takes it off the bus.
///
/// ```swift
/// let mpris = try MediaPlayer2Service(controller: controller)
/// mpris.onQuit = { controller.shutdown() }
/// print(mpris.busName)   // org.mpris.MediaPlayer2.cove
/// ```
///
/// What clients see: `PlaybackStatus` (Playing, Paused, Stopped) from the lifecycle events; `Metadata`
/// from the session's video (`xesam:title` its name, `mpris:artUrl` its poster, `mpris:length` its
/// duration, `xesam:url` its redacted source, `cove:videoId` its ID, `mpris:trackid` a path per
/// session); `Position` from the progress reports (`Seeked` when it jumps); `Volume`; and `CanPlay`,
/// `CanPause`, `CanSeek`, `CanGoNext` from the controller's `availableCommands`.
///
/// What clients can do: PlayPause, Play and Pause call `play()`/`pause()`; Next calls
/// `advanceToNext()`; Previous seeks to the start (the seed SDK's queue has no previous video); Seek
/// and SetPosition seek (a Seek past the end is Next, as the spec says); Stop pauses and rewinds;
/// setting Volume or Rate sets the controller's; OpenUri replaces the queue with an http(s) or file
/// URL and plays it; Quit and Raise call `onQuit` and `onRaise` (`CanQuit`/`CanRaise` say whether
/// the app set them).
///
/// The name is `org.mpris.MediaPlayer2.<busNameSuffix>`; when another player holds it, the spec's
/// `org.mpris.MediaPlayer2.<busNameSuffix>.instance<pid>` (never queued: no player takes another's name).
/// The bus runs on a thread of its own, so a busy app never keeps a media key waiting.
public final class MediaPlayer2Service: Sendable {
    /// The well-known name this player owns on the bus.
    public let busName: String
    private let router: MediaPlayer2Router
    private let listener: Mutex<Task<Void, Never>?>

    /// Rates a client may set (`MinimumRate`, `MaximumRate`): what the engine plays with pitch kept.
    static let rates: ClosedRange<Double> = 0.25...4

    /// Puts `controller` on the bus and starts following its events.
    ///
    /// - Parameters:
    ///   - controller: The controller to publish and drive; held weakly (the service does not keep it alive).
    ///   - identity: The player's name as desktops show it (`Identity`).
    ///   - busNameSuffix: The end of the bus name (`playerctl -p cove`): letters, digits, `_` and `-`.
    ///   - desktopEntry: The app's `.desktop` file name without the extension, if it has one; desktops
    ///     take its icon.
    ///   - busAddress: The bus to use; nil finds the session bus (`DBUS_SESSION_BUS_ADDRESS`, else
    ///     `$XDG_RUNTIME_DIR/bus`).
    ///   - logger: Where the service says which name it took and which requests it ignored and why.
    /// - Throws: `outputUnavailable` when there is no session bus or no name can be taken (the message
    ///   says what to do), `invalidArgument` for an unusable suffix or identity.
    public init(
        controller: PlaybackController, identity: String = "Cove", busNameSuffix: String = "cove", desktopEntry: String? = nil, busAddress: String? = nil,
        logger: Logger = Logger(label: "cove.mpris")
    ) throws(PlaybackError) {
        let address = try SessionBusAddress.resolve(
            explicit: busAddress, environment: ProcessInfo.processInfo.environment, socketExists: { FileManager.default.fileExists(atPath: $0) })
        // Subscribe before the router reads the controller's state: whatever changes after that read
        // arrives as an event.
        let events = controller.events
        let router = MediaPlayer2Router(controller: controller, logger: logger)
        let configuration = MediaPlayer2Bus.Configuration(
            address: address, busNameSuffix: busNameSuffix, identity: identity, desktopEntry: desktopEntry, uriSchemes: MediaPlayer2Model.uriSchemes,
            mimeTypes: MediaPlayer2Model.mimeTypes, minimumRate: Self.rates.lowerBound, maximumRate: Self.rates.upperBound, timeout: .seconds(5))
        // The router outlives the bus object: `stop()` joins the bus thread before the router can go.
        busName = try router.bus.start(configuration, handler: mediaPlayer2RequestHandler, context: Unmanaged.passUnretained(router).toOpaque())
        router.publish()
        self.router = router
        listener = Mutex(Task { await router.follow(events) })
        logger.info("MPRIS player on the session bus", metadata: ["name": "\(busName)"])
    }

    deinit {
        stop()
    }

    /// Called when a client asks the player to quit (`Quit`); nil (the default) publishes `CanQuit`
    /// false. Runs on a task of its own, so it may stop this service and shut the controller down.
    public var onQuit: (@Sendable () -> Void)? {
        get { router.onQuit }
        set { router.onQuit = newValue }
    }

    /// Called when a client asks to bring the player's window to the front (`Raise`); nil (the
    /// default) publishes `CanRaise` false.
    public var onRaise: (@Sendable () -> Void)? {
        get { router.onRaise }
        set { router.onRaise = newValue }
    }

    /// Takes the player off the bus: releases the name, unexports the object, stops the bus thread and
    /// stops following the controller. Idempotent; the controller is left as it is.
    public func stop() {
        listener.withLock { task in
            task?.cancel()
            task = nil
        }
        router.bus.stop()
    }
}
