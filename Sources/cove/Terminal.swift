import Foundation

/// Unbuffered output for the CLI: every line is written (and so flushed) as soon as it is produced,
/// which `--trace` consumers rely on.
enum Terminal {
    static let isTTY = isatty(STDOUT_FILENO) == 1

    static func line(_ text: String) {
        write(text + "\n")
    }

    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Seconds as `m:ss.s`.
    static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "--:--" }
        let total = max(0, seconds)
        let minutes = Int(total) / 60
        let rest = total - Double(minutes * 60)
        return String(format: "%d:%04.1f", minutes, rest)
    }
}

/// A one-line live status that other lines scroll above (TTY), or a line per second (pipes).
final class StatusLine {
    private var current = ""
    private var lastPlainPrint = Date.distantPast

    func update(_ text: String) {
        current = text
        if Terminal.isTTY {
            Terminal.write("\r\u{1B}[2K" + text)
        } else if Date().timeIntervalSince(lastPlainPrint) >= 1 {
            lastPlainPrint = Date()
            Terminal.line(text)
        }
    }

    /// Prints a line above the status line and redraws it.
    func log(_ text: String) {
        if Terminal.isTTY {
            Terminal.write("\r\u{1B}[2K" + text + "\n" + current)
        } else {
            Terminal.line(text)
        }
    }

    func finish() {
        if Terminal.isTTY && !current.isEmpty { Terminal.write("\n") }
    }
}
