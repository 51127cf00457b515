import CoveCore

/// Where the session bus is, found as libdbus and GLib find it but without their last resort:
/// `DBUS_SESSION_BUS_ADDRESS`, else the systemd user bus socket `$XDG_RUNTIME_DIR/bus`. GLib would
/// then autolaunch a bus through X11, which starts a daemon behind the app's back; Cove reports
/// instead that there is none, with what to do.
enum SessionBusAddress {
    /// - Parameters:
    ///   - explicit: An address the app passed; used as it is.
    ///   - environment: The process environment (a parameter so tests need not change the real one).
    ///   - socketExists: Whether a file exists at a path.
    static func resolve(explicit: String?, environment: [String: String], socketExists: (String) -> Bool) throws(PlaybackError) -> String {
        if let explicit {
            guard !explicit.isEmpty else {
                throw PlaybackError(
                    .invalidArgument, "The D-Bus address is empty; pass nil to use the session bus, or an address such as unix:path=/run/user/1000/bus")
            }
            return explicit
        }
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, socketExists(runtime + "/bus") {
            return "unix:path=" + escaped(runtime + "/bus")
        }
        throw PlaybackError(
            .outputUnavailable,
            "No D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus); start one with dbus-run-session or run inside a desktop session"
        )
    }

    /// A value in a D-Bus address: bytes outside `[-0-9A-Za-z_/.\*]` are `%xx`.
    static func escaped(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16)
                result += "%" + (hex.count < 2 ? "0" + hex : hex)
            }
        }
        return result
    }
}
