import Foundation

/// What the desktop a program runs in offers, read the way mpv, ffplay and VLC decide to open a window
/// with sound: a display to show a window on, a sound server to play to.
public struct DesktopSession: Sendable, Hashable {
    /// The X11 display (`DISPLAY`), when set.
    public let x11Display: String?
    /// The Wayland display (`WAYLAND_DISPLAY`), when set.
    public let waylandDisplay: String?
    /// A PulseAudio or PipeWire server answers (its socket exists, or `PULSE_SERVER` names one).
    public let hasSoundServer: Bool

    public init(x11Display: String?, waylandDisplay: String?, hasSoundServer: Bool) {
        self.x11Display = x11Display
        self.waylandDisplay = waylandDisplay
        self.hasSoundServer = hasSoundServer
    }

    /// The session this process runs in.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> DesktopSession {
        func nonEmpty(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        return DesktopSession(
            x11Display: nonEmpty("DISPLAY"), waylandDisplay: nonEmpty("WAYLAND_DISPLAY"), hasSoundServer: soundServerAnswers(environment: environment))
    }

    /// Whether a window can be shown.
    public var hasDisplay: Bool { x11Display != nil || waylandDisplay != nil }

    /// A sound server's socket: PulseAudio's (`PULSE_SERVER`, or `$XDG_RUNTIME_DIR/pulse/native`) or
    /// PipeWire's (`$XDG_RUNTIME_DIR/pipewire-0`, which serves PulseAudio clients through pipewire-pulse).
    static func soundServerAnswers(environment: [String: String]) -> Bool {
        if let server = environment["PULSE_SERVER"], !server.isEmpty { return true }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return ["pulse/native", "pipewire-0"].contains { isSocket(runtime + "/" + $0) }
    }

    private static func isSocket(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFSOCK
    }
}
