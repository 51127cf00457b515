import CCoveMPRIS
import CoveCore
import Foundation
import Synchronization

/// The C object (`cove_mpris`) behind a Swift owner: starts it, hands it snapshots and the playhead,
/// stops it once.
///
/// Every call takes `handle`'s lock around the C call, and `stop` takes the pointer out under the lock
/// but joins the bus thread outside it: a request being handled on that thread may still publish (it
/// finds the handle gone and returns) instead of waiting for a lock the joiner holds.
final class MediaPlayer2Bus: Sendable {
    /// What `cove_mpris_start` needs.
    struct Configuration: Sendable {
        var address: String
        var busNameSuffix: String
        var identity: String
        var desktopEntry: String?
        var uriSchemes: [String]
        var mimeTypes: [String]
        var minimumRate: Double
        var maximumRate: Double
        var timeout: Duration
    }

    private struct Handle: @unchecked Sendable {
        // The C object locks its own state; the pointer itself is only read under `handle`'s lock.
        let pointer: OpaquePointer
    }

    private let handle = Mutex<Handle?>(nil)

    init() {}

    /// Connects, exports and takes a name; returns the name. `context` is passed back to `handler` on
    /// the bus thread and must stay valid until `stop()` returns.
    func start(_ configuration: Configuration, handler: CoveMprisHandler, context: UnsafeMutableRawPointer) throws(PlaybackError) -> String {
        var strings = CStrings()
        defer { strings.free() }
        let schemes = strings.list(configuration.uriSchemes)
        let mimeTypes = strings.list(configuration.mimeTypes)
        let timeout = configuration.timeout.components
        var config = CoveMprisConfig(
            address: strings.make(configuration.address), bus_name_suffix: strings.make(configuration.busNameSuffix),
            identity: strings.make(configuration.identity), desktop_entry: strings.make(configuration.desktopEntry),
            uri_schemes: UnsafePointer(schemes), mime_types: UnsafePointer(mimeTypes), minimum_rate: configuration.minimumRate,
            maximum_rate: configuration.maximumRate, timeout_ms: Int32(clamping: timeout.seconds * 1000 + timeout.attoseconds / 1_000_000_000_000_000))
        var pointer: OpaquePointer?
        var message: UnsafeMutablePointer<CChar>?
        let result = cove_mpris_start(&config, handler, context, &pointer, &message)
        let text = message.map { String(cString: $0) } ?? "no reason given"
        cove_mpris_free_string(message)
        guard result == COVE_MPRIS_OK, let pointer else { throw Self.error(result, text, address: configuration.address) }
        let name = String(cString: cove_mpris_bus_name(pointer))
        handle.withLock { $0 = Handle(pointer: pointer) }
        return name
    }

    /// Publishes `snapshot`; the C side signals the fields that differ from the last one.
    func publish(_ snapshot: MediaPlayer2Snapshot) {
        var strings = CStrings()
        defer { strings.free() }
        let metadata = snapshot.metadata
        var state = CoveMprisState(
            status: Self.status(snapshot.status), rate: snapshot.rate, volume: snapshot.volume, can_go_next: snapshot.canGoNext,
            can_go_previous: snapshot.canGoPrevious, can_play: snapshot.canPlay, can_pause: snapshot.canPause, can_seek: snapshot.canSeek,
            can_quit: snapshot.canQuit, can_raise: snapshot.canRaise, track_id: strings.make(metadata?.trackID),
            length_us: metadata?.lengthMicroseconds ?? -1, title: strings.make(metadata?.title), art_url: strings.make(metadata?.artURL),
            url: strings.make(metadata?.url), video_id: strings.make(metadata?.videoID))
        handle.withLock { handle in
            guard let handle else { return }
            cove_mpris_update(handle.pointer, &state)
        }
    }

    /// The playhead as of now (Position reads extrapolate from it while playing).
    func setPosition(_ position: Duration) {
        handle.withLock { handle in
            guard let handle else { return }
            cove_mpris_set_position(handle.pointer, MediaPlayer2Metadata.microseconds(position))
        }
    }

    /// The playhead jumped: emits `Seeked`.
    func seeked(to position: Duration) {
        handle.withLock { handle in
            guard let handle else { return }
            cove_mpris_seeked(handle.pointer, MediaPlayer2Metadata.microseconds(position))
        }
    }

    /// Releases the name, unexports the object, stops the bus thread. Only the first call does anything.
    func stop() {
        guard
            let stopped = handle.withLock({ handle in
                defer { handle = nil }; return handle
            })
        else { return }
        cove_mpris_stop(stopped.pointer)
    }

    private static func status(_ status: MediaPlayer2PlaybackStatus) -> CoveMprisPlaybackStatus {
        switch status {
        case .playing: COVE_MPRIS_PLAYING
        case .paused: COVE_MPRIS_PAUSED
        case .stopped: COVE_MPRIS_STOPPED
        }
    }

    private static func error(_ result: CoveMprisResult, _ text: String, address: String) -> PlaybackError {
        let cause = PlaybackError.Cause.underlying(PlaybackError.UnderlyingError(domain: "gdbus", code: Int(result.rawValue), message: text))
        switch result {
        case COVE_MPRIS_ERROR_ARGUMENT:
            return PlaybackError(.invalidArgument, "MPRIS cannot start: \(text)", cause: cause)
        case COVE_MPRIS_ERROR_NO_BUS:
            return PlaybackError(
                .outputUnavailable,
                "No D-Bus session bus answers at \(address) (\(text)); check DBUS_SESSION_BUS_ADDRESS, or start a bus with dbus-run-session or run inside a desktop session",
                cause: cause)
        case COVE_MPRIS_ERROR_NAME:
            return PlaybackError(
                .outputUnavailable, "MPRIS could not take a bus name: \(text); stop one of the other players or pass another busNameSuffix", cause: cause)
        default:
            return PlaybackError(.outputUnavailable, "MPRIS could not start on the session bus: \(text)", cause: cause)
        }
    }

    /// C strings that live until `free()`: the C side copies what it keeps.
    private struct CStrings {
        private var allocated: [UnsafeMutablePointer<CChar>] = []
        private var lists: [UnsafeMutablePointer<UnsafePointer<CChar>?>] = []

        mutating func make(_ string: String?) -> UnsafePointer<CChar>? {
            guard let string, let copy = strdup(string) else { return nil }
            allocated.append(copy)
            return UnsafePointer(copy)
        }

        /// A NULL-terminated array.
        mutating func list(_ strings: [String]) -> UnsafeMutablePointer<UnsafePointer<CChar>?> {
            let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: strings.count + 1)
            for (index, string) in strings.enumerated() { array[index] = make(string) }
            array[strings.count] = nil
            lists.append(array)
            return array
        }

        func free() {
            for pointer in allocated { Foundation.free(pointer) }
            for list in lists { list.deallocate() }
        }
    }
}
