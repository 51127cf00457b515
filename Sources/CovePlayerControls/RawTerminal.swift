import Foundation

/// The terminal in raw mode while the control bar is up: keys arrive one by one, unechoed; the
/// cursor is hidden. Everything is put back on `restore()` — also on exit and on a fatal signal,
/// so a crashed player never leaves the user's shell without echo.
public final class RawTerminal: @unchecked Sendable {
    private var original = termios()
    private var active = false
    private let lock = NSLock()

    /// Both ends must be a terminal for controls (a pipe or a file gets the plain log).
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Terminal width in columns (80 when unknown).
    static var columns: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    func enable() {
        lock.lock()
        defer { lock.unlock() }
        guard !active, tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // VMIN 1 / VTIME 0: a read returns as soon as one byte is there.
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        active = true
        Terminal.write("\u{1B}[?25l")
        RawTerminal.current = self
        atexit { RawTerminal.current?.restore() }
    }

    func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard active else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
        active = false
        Terminal.write("\u{1B}[?25h")
    }

    nonisolated(unsafe) private static var current: RawTerminal?
}
