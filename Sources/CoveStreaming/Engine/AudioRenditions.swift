import CoveCore
import Foundation
import Logging
import Synchronization

/// A presentation's alternate audio renditions (HLS `EXT-X-MEDIA:TYPE=AUDIO` with playlists of their
/// own, DASH audio adaptation sets), streamed by Cove into the fed player's separate audio input beside
/// the variant's video in the main one.
///
/// The renditions are the audio tracks apps see (`cove-audio-N`); the engine sees one audio stream, the
/// one the selected rendition's session feeds. Switching language replaces the session on the same
/// input without a flush (as Shaka switches an audio stream).
final class AudioRenditions: Sendable {
    let tracks: [(track: EngineTrack, rendition: AlternateRendition)]
    private let transport: any HTTPTransport
    /// The presentation the renditions belong to: whether they may read local files is its to say.
    private let manifestURL: URL
    private let configuration: StreamingConfiguration
    private let logger: Logger
    private let input: any MediaFeedInput
    private let onEvent: @Sendable (StreamingEvent) -> Void
    private let protection: ProtectionBroker?
    /// Which rendition plays and its session. Never held while calling out.
    private let state: Mutex<(selected: String, session: StreamingSession?)>

    /// nil when the presentation's first variant has no audio renditions with playlists.
    init?(
        presentation: Presentation, transport: any HTTPTransport, configuration: StreamingConfiguration, logger: Logger, input: any MediaFeedInput,
        protection: ProtectionBroker? = nil, onEvent: @escaping @Sendable (StreamingEvent) -> Void
    ) {
        self.protection = protection
        let group = presentation.variants.first?.audioGroup
        let renditions = presentation.audioRenditions.enumerated().filter { $0.element.playlistURL != nil && $0.element.groupID == group }
        guard !renditions.isEmpty else { return nil }
        tracks = renditions.map { index, rendition in
            (EngineTrack(id: "cove-audio-\(index)", kind: .audio, language: rendition.language, title: rendition.name), rendition)
        }
        self.transport = transport
        self.configuration = configuration
        self.manifestURL = presentation.manifestURL
        self.logger = logger
        self.input = input
        self.onEvent = onEvent
        let preferred = tracks.first { $0.rendition.isDefault } ?? tracks[0]
        state = Mutex((preferred.track.id, nil))
        let session = makeSession(for: preferred.rendition)
        state.withLock { $0.session = session }
    }

    /// Whether a presentation has audio renditions that play from an input of their own.
    static func separateAudio(in presentation: Presentation) -> Bool {
        let group = presentation.variants.first?.audioGroup
        return presentation.audioRenditions.contains { $0.playlistURL != nil && $0.groupID == group }
    }

    var selected: String { state.withLock { $0.selected } }
    var session: StreamingSession? { state.withLock { $0.session } }

    private func makeSession(for rendition: AlternateRendition, firstGeneration: Int = 0) -> StreamingSession {
        StreamingSession(
            url: rendition.playlistURL!, selection: rendition.selection, transport: transport, configuration: configuration, output: input, logger: logger,
            firstGeneration: firstGeneration, origin: manifestURL, stream: .audio, protection: protection, onEvent: onEvent
        )
    }

    /// Switches to the rendition `id`: the new rendition's segments follow what the old one already pushed,
    /// into the same input, without a flush (a flush of the audio input alone restarts its demuxer on
    /// a new program while data flows); the new language is heard once the media already buffered has
    /// played — as a variant switch is seen. Returns the new session for the caller to attach (the input
    /// closes the old one then); nil when nothing changes. False in `known` when `id` is not one of these
    /// renditions.
    func select(_ id: String, playhead: Double?) -> (known: Bool, session: StreamingSession?) {
        guard let rendition = tracks.first(where: { $0.track.id == id })?.rendition else { return (false, nil) }
        let old = state.withLock { s -> StreamingSession?? in
            guard s.selected != id else { return .none }
            s.selected = id
            return .some(s.session)
        }
        guard case .some(let old) = old else { return (true, nil) }
        let continueAt = old?.pushedEnd ?? max(playhead ?? 0, 0)
        // The new session's first generation is the old one's current: chunks of both pass the input's
        // generation filter, in push order (the old ones first), and no seek is needed.
        // Started before it replaces the old one, so the input's current generation never changes.
        let session = makeSession(for: rendition, firstGeneration: (old?.generation ?? 1) - 1)
        session.start(at: continueAt)
        state.withLock { $0.session = session }
        return (true, session)
    }

    func close() {
        session?.close()
    }
}
