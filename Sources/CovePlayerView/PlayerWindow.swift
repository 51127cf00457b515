import CCoveWindow
import CoveCore
import Foundation
import Synchronization

/// What the view's window reports.
enum WindowEvent: Sendable {
    case expose
    case resized(width: Int, height: Int)
    case pointerMoved(x: Double, y: Double)
    case pressed(button: Int, x: Double, y: Double)
    case released(button: Int, x: Double, y: Double)
    case key(ViewKey)
    case pointerLeft
    case closeRequested
    case disconnected
}

/// The view's X11 window: a top-level window of its own, or a child filling the app's window (input
/// then reaches the child, as with mpv's `--wid`). One thread reads its events.
final class PlayerWindow: Sendable {
    // @unchecked pointer: XCB connections are thread-safe; the window is closed once, after its reader ended.
    private struct Native: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let native: Native
    let id: UInt32
    let isTopLevel: Bool
    /// Whether the window was closed (the reader stops at the next wake).
    private let closed = ClosedFlag()
    private let readerDone = DispatchSemaphore(value: 0)
    private let readerStarted = Mutex(false)

    /// Opens the window: `parent` 0 for a top-level one titled `title`.
    init(display: String?, parent: UInt32, width: Int, height: Int, title: String) throws(PlaybackError) {
        var message: UnsafeMutablePointer<CChar>?
        guard let pointer = cove_window_open(display, parent, Int32(width), Int32(height), title, &message) else {
            let reason = message.map { String(cString: $0) } ?? "unknown reason"
            free(message)
            let where_ = display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? "(DISPLAY is not set)"
            throw PlaybackError(
                .outputUnavailable,
                "The player view cannot open its window: \(reason) (display \(where_)); check that an X server runs and DISPLAY names it, or play headless")
        }
        native = Native(pointer: pointer)
        id = cove_window_id(pointer)
        isTopLevel = parent == 0
    }

    var connection: UnsafeMutableRawPointer? { cove_window_connection(native.pointer) }

    var size: OverlayImage.Size? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard !closed.value.withLock({ $0 }), cove_window_size(native.pointer, &width, &height) else { return nil }
        return OverlayImage.Size(width: Int(width), height: Int(height))
    }

    /// Starts the reader thread; events go to `deliver` until the window closes or the display is gone.
    func startReading(_ deliver: @escaping @Sendable (WindowEvent) -> Void) {
        guard
            readerStarted.withLock({ started -> Bool in
                defer { started = true }
                return !started
            })
        else { return }
        let native = self.native
        let flag = closed
        let done = readerDone
        let thread = Thread {
            defer { done.signal() }
            var event = CoveWindowEvent()
            while true {
                cove_window_next_event(native.pointer, &event)
                if flag.value.withLock({ $0 }) { return }
                guard let translated = Self.translate(event) else { continue }
                deliver(translated)
                if case .disconnected = translated { return }
            }
        }
        thread.name = "cove-view-window"
        thread.start()
    }

    private static func translate(_ event: CoveWindowEvent) -> WindowEvent? {
        switch event.type {
        case COVE_WINDOW_EVENT_EXPOSE: return .expose
        case COVE_WINDOW_EVENT_RESIZE: return .resized(width: Int(event.width), height: Int(event.height))
        case COVE_WINDOW_EVENT_POINTER_MOTION: return .pointerMoved(x: Double(event.x), y: Double(event.y))
        case COVE_WINDOW_EVENT_BUTTON_PRESS: return .pressed(button: Int(event.button), x: Double(event.x), y: Double(event.y))
        case COVE_WINDOW_EVENT_BUTTON_RELEASE: return .released(button: Int(event.button), x: Double(event.x), y: Double(event.y))
        case COVE_WINDOW_EVENT_KEY_PRESS: return ViewKey(keysym: event.keysym).map { .key($0) }
        case COVE_WINDOW_EVENT_POINTER_LEFT: return .pointerLeft
        case COVE_WINDOW_EVENT_CLOSE_REQUESTED: return .closeRequested
        case COVE_WINDOW_EVENT_DISCONNECTED: return .disconnected
        default: return nil
        }
    }

    func setFullscreen(_ fullscreen: Bool) {
        guard !closed.value.withLock({ $0 }) else { return }
        cove_window_set_fullscreen(native.pointer, fullscreen)
    }

    var isFullscreen: Bool {
        guard !closed.value.withLock({ $0 }) else { return false }
        return cove_window_is_fullscreen(native.pointer)
    }

    func focus() {
        guard !closed.value.withLock({ $0 }) else { return }
        cove_window_focus(native.pointer)
    }

    func setTitle(_ title: String) {
        guard !closed.value.withLock({ $0 }) else { return }
        cove_window_set_title(native.pointer, title)
    }

    /// Stops the reader and destroys the window (once).
    func close() {
        let first = closed.value.withLock { value -> Bool in
            defer { value = true }
            return !value
        }
        guard first else { return }
        if readerStarted.withLock({ $0 }) {
            cove_window_wake(native.pointer)
            _ = readerDone.wait(timeout: .now() + .seconds(2))
        }
        cove_window_close(native.pointer)
    }

    deinit { close() }
}

/// A flag the reader thread shares with the window.
private final class ClosedFlag: Sendable {
    let value = Mutex(false)
}
