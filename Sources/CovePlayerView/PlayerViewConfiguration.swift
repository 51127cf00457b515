import CoveCore
import CovePlayerUI
import Foundation

/// How a player view is set up (the seed's `BCOVPUIPlayerView` initializer and `BCOVPUIPlayerViewOptions`).
public struct PlayerViewConfiguration: Sendable {
    /// Where the picture goes.
    public enum Placement: Sendable {
        /// A top-level window of the view's own, `width`×`height` pixels, titled `title`.
        case window(title: String, width: Int, height: Int)
        /// Inside a window the app owns (its X11 ID): the view fills it with a child window, follows its
        /// size and takes the pointer and keys over the picture.
        case inWindow(id: UInt)
        /// Frames handed to the app (`VideoFrameReceiver`; with `includesOverlay` they carry the controls).
        /// The app forwards input with `PlayerView.handle(_:)`.
        case frames(VideoFrameReceiver)
        /// A window under a Wayland compositor (no X server: no `DISPLAY`, only `WAYLAND_DISPLAY`), made by
        /// the engine's Wayland sink at the picture's size. The controls are drawn on the picture while it
        /// plays; GStreamer 1.22's Wayland sink reports no pointer or keys (that came in 1.24), so the app
        /// forwards input it has with `PlayerView.handle(_:)`, and media keys reach the player over MPRIS.
        /// `display` in the configuration names the compositor's socket.
        case waylandWindow

        /// A 1280×720 window titled "Cove".
        public static let window = Placement.window(title: "Cove", width: 1280, height: 720)
    }

    public var placement: Placement
    /// The X11 display (nil: `$DISPLAY`).
    public var display: String?
    /// The seed's options: jump back interval, hide delay, keep controls visible, automatic layouts,
    /// bumper controls, the bitrate menu.
    public var options: PlayerUIOptions
    /// The app's own layout (nil: the supplied one for the stream; ignored with `automaticControlTypeSelection`).
    public var layout: ControlLayout?
    public var localizer: Localizer
    /// Pictures for the app's own controls (`ControlTag.custom(name)`: a logo), by name.
    public var customImages: [String: RGBAImage]
    /// Decodes posters and scrubbing thumbnails (the engine module has one: `GStreamerImageCodec()`); nil
    /// shows neither picture.
    public var imageCodec: (any ImageCodec)?
    /// Fetches posters (nil: posters on disk only).
    public var transport: (any HTTPTransport)?
    /// Adds a volume control next to play/pause in the supplied layouts (an app's own layout says itself).
    public var showsVolumeControl: Bool
    /// Opens an ad's click-through ("Learn more"); the default runs `xdg-open URL`, the desktop's way.
    public var openLink: @Sendable (URL) -> Void

    public init(
        placement: Placement = .window, display: String? = nil, options: PlayerUIOptions = .standard, layout: ControlLayout? = nil,
        localizer: Localizer = Localizer(preferredLanguages: UILanguage.preferredLanguages(environment: ProcessInfo.processInfo.environment)),
        customImages: [String: RGBAImage] = [:], imageCodec: (any ImageCodec)? = nil, transport: (any HTTPTransport)? = nil,
        showsVolumeControl: Bool = true, openLink: @escaping @Sendable (URL) -> Void = LinkOpener.xdgOpen
    ) {
        self.placement = placement
        self.display = display
        self.options = options
        self.layout = layout
        self.localizer = localizer
        self.customImages = customImages
        self.imageCodec = imageCodec
        self.transport = transport
        self.showsVolumeControl = showsVolumeControl
        self.openLink = openLink
    }
}

/// Opens links the desktop's way.
public enum LinkOpener {
    /// Runs `xdg-open URL` (found on PATH) without waiting for it; a missing `xdg-open` is logged by
    /// nobody and changes nothing, as a browser that does not start would.
    public static let xdgOpen: @Sendable (URL) -> Void = { url in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { _ in }
        try? process.run()
    }
}
