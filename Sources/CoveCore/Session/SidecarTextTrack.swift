import Synchronization

/// A text track loaded beside the stream (the catalog's `text_tracks`), attached to a session by a
/// provider. It loads in the background: the session starts at once, the track becomes selectable
/// when its cues arrive, and a track that cannot load is marked failed — never the playback.
public final class SidecarTextTrack: Sendable, Hashable, CustomStringConvertible {
    public enum Status: Sendable {
        case loading
        case loaded(any TimedTextCues)
        case failed(PlaybackError)
    }

    /// What the catalog says about the track.
    public let textTrack: TextTrack
    /// The track as listed in the session's text group (id `sidecar:<n>`).
    public let mediaTrack: MediaTrack
    private let state = Mutex<Status>(.loading)

    /// Sidecar track ids start with this; the stream's own never do.
    public static let idPrefix = "sidecar:"

    public convenience init(index: Int, textTrack: TextTrack) {
        self.init(key: "\(index)", textTrack: textTrack)
    }

    /// A track whose id is `sidecar:<key>`: for tracks that are not a numbered catalog entry (an SSAI
    /// ad's own captions, `sidecar:ad-…`), so their ids never collide with the catalog's.
    public init(key: String, textTrack: TextTrack) {
        self.textTrack = textTrack
        self.mediaTrack = MediaTrack(
            id: "\(Self.idPrefix)\(key)", kind: .text, language: textTrack.language, title: textTrack.label,
            codec: textTrack.mimeType, isAccessibility: textTrack.kind == .captions, isDefault: textTrack.isDefault
        )
    }

    public var status: Status { state.withLock { $0 } }

    /// The cues, once loaded.
    public var cues: (any TimedTextCues)? {
        if case .loaded(let cues) = status { return cues }
        return nil
    }

    public func finishLoading(_ cues: any TimedTextCues) {
        state.withLock { $0 = .loaded(cues) }
    }

    public func failLoading(_ error: PlaybackError) {
        state.withLock { $0 = .failed(error) }
    }

    public static func == (lhs: SidecarTextTrack, rhs: SidecarTextTrack) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        let state: String
        switch status {
        case .loading: state = "loading"
        case .loaded: state = "loaded"
        case .failed(let error): state = "failed: \(error.code.name)"
        }
        return "SidecarTextTrack(\(mediaTrack.id), \(textTrack.language ?? "und"), \(state))"
    }
}
