import CovePlayerControls
import Foundation

/// A one-line live status that other lines scroll above (TTY), or a line per second (pipes).
final class StatusLine {
    private var current = ""
    private var lastPlainPrint = Date.distantPast
    /// The active caption, drawn on its own line under the status line (TTY only).
    var caption: String? {
        didSet { if Terminal.isTTY, caption != oldValue { redraw() } }
    }
    /// Whether the caption line is on screen (the cursor then sits on the status line above it).
    private var captionShown = false

    func update(_ text: String) {
        current = text
        if Terminal.isTTY {
            redraw()
        } else if Date().timeIntervalSince(lastPlainPrint) >= 1 {
            lastPlainPrint = Date()
            Terminal.line(text)
        }
    }

    /// Prints a line above the status line and redraws it.
    func log(_ text: String) {
        if Terminal.isTTY {
            Terminal.write(clear() + text + "\n")
            captionShown = false
            redraw()
        } else {
            Terminal.line(text)
        }
    }

    func finish() {
        guard Terminal.isTTY else { return }
        if captionShown { Terminal.write("\n\n") } else if !current.isEmpty { Terminal.write("\n") }
    }

    /// Erases the status line (and the caption line under it), leaving the cursor at the status line's start.
    private func clear() -> String {
        captionShown ? "\r\u{1B}[2K\n\u{1B}[2K\u{1B}[1A\r" : "\r\u{1B}[2K"
    }

    private func redraw() {
        var text = clear() + current
        if let caption, !caption.isEmpty {
            text += "\n\u{1B}[2K  \u{1B}[7m \(caption) \u{1B}[0m\u{1B}[1A\r\u{1B}[\(current.count)C"
            captionShown = true
        } else {
            captionShown = false
        }
        Terminal.write(text)
    }
}
