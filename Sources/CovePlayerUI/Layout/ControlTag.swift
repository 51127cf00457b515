/// What a layout view holds: one of the seed's built-in controls (`BCOVPUIViewTag` 1–18, same numbers)
/// or an app's own view.
///
/// The seed's `BCOVPUIViewTagButtonLive` is both the live indicator and the "go to live" button: it reads
/// "Live" at the live edge and jumps there when pressed behind it. Cove keeps it as one control, `.live`,
/// so a custom layout written against the seed's tags maps one to one.
public enum ControlTag: Sendable, Hashable, CustomStringConvertible {
    /// Play/pause (`BCOVPUIViewTagButtonPlayback`, 1).
    case playback
    /// Jump back by `PlayerUIOptions.jumpBackInterval` (2).
    case jumpBack
    /// Captions and audio track menu (3).
    case closedCaption
    /// Full screen / normal (4); in a terminal, the `--window` video window's full-screen toggle.
    case screenMode
    /// Elapsed time label (5).
    case currentTime
    /// The "/" between current time and duration (6).
    case timeSeparator
    /// Duration label (7).
    case duration
    /// Progress slider (8).
    case progress
    /// AirPlay route picker (9). Linux has no external routes; kept for custom layouts ported from the seed.
    case externalRoute
    /// Live indicator and "go to live" button (10).
    case live
    /// An empty box: a spacer, or a place for the app's own content (11).
    case empty
    /// "Your video will resume in …" ad pod countdown (12).
    case adPodCountdown
    /// "Learn more": the ad's click-through (13).
    case learnMore
    /// "Skip ad in …" countdown (14).
    case skipAdCountdown
    /// "Skip ad" (15).
    case skip
    /// Video 360 goggles toggle (16).
    case video360
    /// Preferred-bitrate menu (17).
    case preferredBitrate
    /// Picture in picture (18). No equivalent on Linux; kept for parity.
    case pictureInPicture
    /// Volume and mute: a speaker that mutes when pressed (the seed has none: iOS has hardware buttons;
    /// a desktop player needs one). It has no seed tag number.
    case volume
    /// A control the app draws itself, named by the app. It has no seed tag number.
    case custom(String)

    /// Every built-in tag, in the seed's numbering order.
    public static let builtIn: [ControlTag] = [
        .playback, .jumpBack, .closedCaption, .screenMode, .currentTime, .timeSeparator, .duration, .progress,
        .externalRoute, .live, .empty, .adPodCountdown, .learnMore, .skipAdCountdown, .skip, .video360,
        .preferredBitrate, .pictureInPicture,
    ]

    /// The seed's `BCOVPUIViewTag` value (1–18); nil for `.custom`.
    public var seedTag: Int? {
        if case .custom = self { return nil }
        return Self.builtIn.firstIndex(of: self).map { $0 + 1 }
    }

    /// The tag with the seed's number, nil outside 1–18.
    public init?(seedTag: Int) {
        guard (1...Self.builtIn.count).contains(seedTag) else { return nil }
        self = Self.builtIn[seedTag - 1]
    }

    /// Terminal columns the control needs when a layout view gives no width (the seed's
    /// `kBCOVPUILayoutUseDefaultValue`). Sized for the terminal renderer's glyphs: a one-glyph button
    /// with a column of padding each side is 3; a clock label fits "-1:23:45".
    public var defaultWidth: Int {
        switch self {
        case .playback, .screenMode, .externalRoute, .pictureInPicture, .timeSeparator: return 3
        case .jumpBack: return 5
        case .closedCaption, .video360, .volume: return 4
        case .preferredBitrate: return 6
        case .currentTime, .duration: return 8
        case .progress: return 10
        case .live: return 6
        case .empty: return 1
        case .adPodCountdown: return 16
        case .learnMore: return 12
        case .skipAdCountdown: return 14
        case .skip: return 9
        case .custom: return 4
        }
    }

    /// Whether the control is a button, with a primary and a secondary state for its accessibility label
    /// (labels, the slider and empty boxes are not).
    public var isButton: Bool {
        switch self {
        case .playback, .jumpBack, .closedCaption, .screenMode, .externalRoute, .live, .learnMore, .skip,
            .video360, .preferredBitrate, .pictureInPicture, .skipAdCountdown, .adPodCountdown, .volume:
            return true
        case .currentTime, .timeSeparator, .duration, .progress, .empty, .custom:
            return false
        }
    }

    /// How long a control stays when a bar is too narrow: the higher, the later it is dropped (see
    /// `ControlBar.fit`). Playback goes last (a player without it is useless); then what tells the viewer
    /// where they are (ad countdown, slider, live, current time); then menus; decoration and platform
    /// toggles go first. Empty boxes are ranked by `LayoutView.dropRank`, below every control.
    public var fittingPriority: Int {
        switch self {
        case .playback: return 100
        case .adPodCountdown, .skip: return 90
        case .progress: return 80
        case .live: return 75
        case .currentTime: return 70
        case .learnMore, .skipAdCountdown: return 65
        case .closedCaption: return 60
        case .jumpBack: return 55
        case .duration: return 50
        case .timeSeparator: return 45
        case .preferredBitrate: return 40
        case .volume: return 35
        case .screenMode: return 30
        case .video360, .externalRoute, .pictureInPicture: return 20
        case .custom: return 10
        case .empty: return 0
        }
    }

    public var description: String {
        switch self {
        case .playback: return "playback"
        case .jumpBack: return "jumpBack"
        case .closedCaption: return "closedCaption"
        case .screenMode: return "screenMode"
        case .currentTime: return "currentTime"
        case .timeSeparator: return "timeSeparator"
        case .duration: return "duration"
        case .progress: return "progress"
        case .externalRoute: return "externalRoute"
        case .live: return "live"
        case .empty: return "empty"
        case .adPodCountdown: return "adPodCountdown"
        case .learnMore: return "learnMore"
        case .skipAdCountdown: return "skipAdCountdown"
        case .skip: return "skip"
        case .video360: return "video360"
        case .preferredBitrate: return "preferredBitrate"
        case .pictureInPicture: return "pictureInPicture"
        case .volume: return "volume"
        case .custom(let name): return "custom(\(name))"
        }
    }
}
