/// A key as the player view understands it: a keyboard's, a remote control's, a media key.
public enum ViewKey: Sendable, Hashable, CustomStringConvertible {
    case character(Character)
    case enter
    case escape
    /// A remote control's Back (BackSpace on a keyboard, XF86Back).
    case back
    case left, right, up, down
    case tab, backTab
    case home, end
    case playPause, play, pause, stop, next, previous
    case mute, volumeUp, volumeDown
    case fastForward, rewind

    /// The key for an X11 keysym (keysymdef.h and XF86keysym.h values), nil for keys the view ignores.
    public init?(keysym: UInt32) {
        switch keysym {
        case 0xff0d, 0xff8d: self = .enter
        case 0xff1b: self = .escape
        case 0xff08, 0x1008ff26: self = .back
        case 0xff51: self = .left
        case 0xff52: self = .up
        case 0xff53: self = .right
        case 0xff54: self = .down
        case 0xff09: self = .tab
        case 0xfe20: self = .backTab
        case 0xff50: self = .home
        case 0xff57: self = .end
        case 0x1008ff14: self = .playPause
        case 0x1008ff31: self = .pause
        case 0x1008ff15: self = .stop
        case 0x1008ff16: self = .previous
        case 0x1008ff17: self = .next
        case 0x1008ff12: self = .mute
        case 0x1008ff11: self = .volumeDown
        case 0x1008ff13: self = .volumeUp
        case 0x1008ff97: self = .fastForward
        case 0x1008ff3e: self = .rewind
        case 0x20...0x7e:
            guard let scalar = Unicode.Scalar(keysym) else { return nil }
            self = .character(Character(scalar))
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .character(let c): return "'\(c)'"
        case .enter: return "enter"
        case .escape: return "escape"
        case .back: return "back"
        case .left: return "left"
        case .right: return "right"
        case .up: return "up"
        case .down: return "down"
        case .tab: return "tab"
        case .backTab: return "backTab"
        case .home: return "home"
        case .end: return "end"
        case .playPause: return "playPause"
        case .play: return "play"
        case .pause: return "pause"
        case .stop: return "stop"
        case .next: return "next"
        case .previous: return "previous"
        case .mute: return "mute"
        case .volumeUp: return "volumeUp"
        case .volumeDown: return "volumeDown"
        case .fastForward: return "fastForward"
        case .rewind: return "rewind"
        }
    }
}

/// Input an app forwards to the view when it owns the window's events (frames output, its own toolkit).
/// Coordinates are picture pixels.
public enum PlayerViewInput: Sendable, Hashable {
    case pointerMoved(x: Double, y: Double)
    /// Button 1 is the primary; 4 and 5 are the wheel.
    case pointerPressed(x: Double, y: Double, button: Int)
    case pointerLeft
    case key(ViewKey)
}

/// What the view tells the app.
public enum PlayerViewEvent: Sendable, Hashable {
    /// The window's close button (the window manager's WM_DELETE_WINDOW).
    case closeRequested
    /// The view's own window entered or left full screen.
    case fullscreenChanged(Bool)
    /// The screen-mode control was pressed in a view that does not own its window (the app's window or
    /// frames): the app decides.
    case fullscreenRequested(Bool)
    /// An app's own control (`ControlTag.custom`) was pressed.
    case customControlActivated(String)
    /// "Learn more" opened an ad's click-through.
    case linkOpened(String)
    /// The window (or the app's window the view was drawn in) is gone.
    case windowLost
}
