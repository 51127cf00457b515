// An app that owns its window and embeds Cove's video in it: the seed's view strategy on Linux.
//
//   swift run EmbedInWindow URL [--seconds N]
//
// Opens a 640×360 X11 window of its own (XCB; any toolkit's window ID works the same: GTK's
// gdk_x11_window_get_xid, SDL's SDL_GetWindowWMInfo, Qt's winId), puts Cove's player view in it (the
// seed's PlayerUI drawn on the picture, taking the pointer and keys over it) and plays URL there.
// Resize the window: the picture and the controls follow. Prints the window ID, each lifecycle event,
// the first frame and where the play/pause control was drawn; exits at the end of the video or after N
// seconds.
import CXCB
import CoveCore
import CoveGStreamer
import CovePlayerView
import Foundation

/// The app's own window.
final class AppWindow {
    let id: UInt32
    private let connection: OpaquePointer

    init?(width: UInt16, height: UInt16, title: String) {
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(nil, &screenNumber), xcb_connection_has_error(connection) == 0 else { return nil }
        var screens = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<screenNumber { xcb_screen_next(&screens) }
        guard let screen = screens.data?.pointee else { return nil }
        id = xcb_generate_id(connection)
        var values: [UInt32] = [screen.black_pixel]
        xcb_create_window(
            connection, UInt8(XCB_COPY_FROM_PARENT), id, screen.root, 0, 0, width, height, 0,
            UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual, XCB_CW_BACK_PIXEL.rawValue, &values
        )
        let name = Array(title.utf8)
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), id, XCB_ATOM_WM_NAME.rawValue, XCB_ATOM_STRING.rawValue, 8, UInt32(name.count), name)
        xcb_map_window(connection, id)
        xcb_flush(connection)
        self.connection = connection
    }

    deinit {
        xcb_destroy_window(connection, id)
        xcb_flush(connection)
        xcb_disconnect(connection)
    }
}

/// Writes a line at once, even into a pipe: whoever runs the app sees each event as it happens.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

@main
struct EmbedInWindow {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var seconds: Double?
        if let flag = arguments.firstIndex(of: "--seconds"), flag + 1 < arguments.count {
            seconds = Double(arguments[flag + 1])
            arguments.removeSubrange(flag...(flag + 1))
        }
        guard let text = arguments.first, let url = URL(string: text), url.scheme != nil else {
            FileHandle.standardError.write(Data("usage: EmbedInWindow URL [--seconds N]\n".utf8))
            exit(64)
        }
        guard let window = AppWindow(width: 640, height: 360, title: "Cove embedded") else {
            FileHandle.standardError.write(Data("cannot open a window: is DISPLAY set and the X server running?\n".utf8))
            exit(69)
        }
        say("window 0x\(String(window.id, radix: 16))")

        let view: PlayerView
        do {
            view = try PlayerView(configuration: PlayerViewConfiguration(placement: .inWindow(id: UInt(window.id)), imageCodec: GStreamerImageCodec()))
        } catch {
            FileHandle.standardError.write(Data("cannot put the player in the window: \(error)\n".utf8))
            exit(69)
        }
        let controller = PlayerSDKManager.shared.makePlaybackController(
            engine: GStreamerEngine(), configuration: view.controllerConfiguration(PlaybackControllerConfiguration()))
        view.attach(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: url)])
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var status: Int32 = 0
        loop: for await event in controller.events {
            switch event {
            case .lifecycle(_, let lifecycle):
                say(lifecycle.name)
                if case .fail(let error) = lifecycle {
                    FileHandle.standardError.write(Data("\(error)\n".utf8))
                    status = 1
                    break loop
                }
                if lifecycle.kind == .end { break loop }
            case .framePresented(_, let frame) where frame.cause == .start:
                say("first frame")
                await view.settle()
                if let playback = view.hitRegions.region(of: .playback) {
                    say("play/pause drawn at \(Int(playback.rect.midX)),\(Int(playback.rect.midY))")
                }
            case .progress(_, let time):
                if let deadline, Date() >= deadline {
                    say("played to \(String(format: "%.1f", time.seconds)) s")
                    break loop
                }
            default:
                break
            }
        }
        controller.shutdown()
        // The sinks let go of the display before the window goes.
        while GStreamerEngine.livePipelineCount > 0 { try? await Task.sleep(for: .milliseconds(20)) }
        view.close()
        withExtendedLifetime(window) {}
        exit(status)
    }
}
