import CXCB
import CoveServer
import CoveTestSupport
import Foundation

/// An X11 window a test (or an app) owns, made with XCB: the video is embedded into it by its ID, and
/// the test resizes it as a user would.
public final class XTestWindow: @unchecked Sendable {
    public let id: UInt
    private let connection: OpaquePointer
    private let lock = NSLock()
    private var closed = false

    /// Creates and maps a black `width`×`height` window on `display`.
    public init(display: String, width: Int, height: Int) throws {
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(display, &screenNumber), xcb_connection_has_error(connection) == 0 else {
            throw RecorderError(description: "cannot connect to X display \(display)")
        }
        var screens = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<screenNumber { xcb_screen_next(&screens) }
        guard let screen = screens.data?.pointee else {
            xcb_disconnect(connection)
            throw RecorderError(description: "X display \(display) has no screen \(screenNumber)")
        }
        let window = xcb_generate_id(connection)
        var values: [UInt32] = [screen.black_pixel]
        xcb_create_window(
            connection, UInt8(XCB_COPY_FROM_PARENT), window, screen.root, 0, 0, UInt16(width), UInt16(height), 0,
            UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual, XCB_CW_BACK_PIXEL.rawValue, &values
        )
        xcb_map_window(connection, window)
        xcb_flush(connection)
        self.connection = connection
        self.id = UInt(window)
    }

    /// Resizes the window (as a window manager would when the user drags its corner).
    public func resize(width: Int, height: Int) {
        lock.withLock {
            guard !closed else { return }
            var values: [UInt32] = [UInt32(width), UInt32(height)]
            let mask = UInt16(XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue)
            xcb_configure_window(connection, UInt32(id), mask, &values)
            xcb_flush(connection)
        }
    }

    public func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            xcb_destroy_window(connection, UInt32(id))
            xcb_flush(connection)
            xcb_disconnect(connection)
        }
    }

    deinit { close() }
}
