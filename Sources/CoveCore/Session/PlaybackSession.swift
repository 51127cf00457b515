import Foundation
import Synchronization

/// Playback of one video: its chosen source, its engine player and its tracks. A session is created
/// for each video the controller plays and is never reused; after `terminate()` it is inert.
public final class PlaybackSession: Sendable, Identifiable, Hashable, CustomStringConvertible {
    /// Unique within the process, increasing.
    public let id: Int
    public let video: Video
    /// The source the provider chain chose; nil when no source was playable.
    public let source: Source?
    /// The engine player for this session; nil when the session failed before playing. It changes when
    /// the controller rebuilds the pipeline (a retry or `resumeVideo(at:autoPlay:)`).
    public var player: (any EnginePlayer)? { state.withLock { $0.player } }
    /// The Playback Rights token the video was found under and its claims (`uid`, `climit`, `sid`, …),
    /// read without trusting them; nil for content found without one.
    public var playbackRights: PlaybackRightsToken? { video.playbackRights }
    /// Plugin-specific API attached by a session provider (the seed's `providerExtension`).
    public let providerExtension: (any SessionProviderExtension)?
    /// The bumper this session plays before its content, if any.
    public let bumper: Video?
    /// Text tracks a provider loads beside the stream; selectable like the stream's own.
    public let sidecarTextTracks: [SidecarTextTrack]
    /// Where scrubbing previews come from, when a provider attached one; use `thumbnail(at:)` and
    /// `thumbnailImage(at:)`, which honour the controller's switch and the offline rule.
    public let thumbnailSource: (any ThumbnailSource)?

    private let state: Mutex<State>
    let send: @Sendable (ControllerInput) -> Void
    /// Reads the controller's `thumbnailSeekingEnabled` at call time.
    let thumbnailSeekingEnabled: @Sendable () -> Bool
    /// Assets whose failure was already reported, so scrubbing over a broken sprite emits one event.
    let reportedThumbnailFailures = Mutex<Set<String>>([])

    struct State: Sendable {
        var audioTracks: [MediaTrack] = []
        var textTracks: [MediaTrack] = []
        var selectedAudio: MediaTrack?
        var selectedText: MediaTrack?
        var terminated = false
        var player: (any EnginePlayer)?
        var ladder = VariantLadder([])
        var activeVariant: Variant?
        var forwardBufferTarget: Duration?
    }

    init(
        id: Int, video: Video, source: Source?, player: (any EnginePlayer)?, providerExtension: (any SessionProviderExtension)?, bumper: Video? = nil,
        sidecarTextTracks: [SidecarTextTrack] = [], thumbnailSource: (any ThumbnailSource)? = nil,
        thumbnailSeekingEnabled: @escaping @Sendable () -> Bool = { false }, send: @escaping @Sendable (ControllerInput) -> Void
    ) {
        self.id = id
        self.thumbnailSource = thumbnailSource
        self.thumbnailSeekingEnabled = thumbnailSeekingEnabled
        self.sidecarTextTracks = sidecarTextTracks
        self.video = video
        self.source = source
        self.providerExtension = providerExtension
        self.bumper = bumper
        self.state = Mutex(State(player: player))
        self.send = send
    }

    /// Audio renditions (the seed's `audibleMediaSelectionGroup`).
    public var audioTrackGroup: MediaTrackGroup { MediaTrackGroup(kind: .audio, tracks: state.withLock { $0.audioTracks }) }
    /// Subtitle and caption renditions (the seed's `legibleMediaSelectionGroup`).
    public var textTrackGroup: MediaTrackGroup { MediaTrackGroup(kind: .text, tracks: state.withLock { $0.textTracks }) }
    public var selectedAudioTrack: MediaTrack? { state.withLock { $0.selectedAudio } }
    public var selectedTextTrack: MediaTrack? { state.withLock { $0.selectedText } }
    public var isTerminated: Bool { state.withLock { $0.terminated } }

    /// The adaptive stream's variants, in master-playlist order (empty until known, and for progressive media).
    public var variants: VariantLadder { state.withLock { $0.ladder } }
    /// The variant the engine is downloading now.
    public var activeVariant: Variant? { state.withLock { $0.activeVariant } }
    /// The engine's current bandwidth estimate in bits per second, when it has one.
    public var bandwidthEstimate: Int? { player?.status.bandwidthEstimate }
    /// The forward-buffer target the buffer optimizer last set (nil: the engine's own policy).
    public var forwardBufferTarget: Duration? { state.withLock { $0.forwardBufferTarget } }

    /// Plays `track`'s audio. Takes effect asynchronously; `audioTrackSelected` reports the change.
    public func selectAudioTrack(_ track: MediaTrack) {
        send(.command(.selectTrack(sessionID: id, kind: .audio, trackID: track.id)))
    }

    /// Shows `track`'s text, or turns text off with nil.
    public func selectTextTrack(_ track: MediaTrack?) {
        send(.command(.selectTrack(sessionID: id, kind: .text, trackID: track?.id)))
    }

    /// Picks the audio track matching the first preferred language, else the default one
    /// (the seed's `selectAudibleMediaOptionAutomatically`).
    public func selectAudioTrackAutomatically(preferredLanguages: [String] = Locale.preferredLanguages) {
        let group = audioTrackGroup
        guard let track = group.track(preferring: preferredLanguages) ?? group.tracks.first(where: \.isDefault) ?? group.tracks.first else { return }
        selectAudioTrack(track)
    }

    /// Shows the text track the content marks as default (in a preferred language when several are),
    /// and leaves text off otherwise: subtitles are opt-in (the seed's `selectLegibleMediaOptionAutomatically`).
    public func selectTextTrackAutomatically(preferredLanguages: [String] = Locale.preferredLanguages) {
        let defaults = MediaTrackGroup(kind: .text, tracks: textTrackGroup.tracks.filter(\.isDefault))
        guard let track = defaults.track(preferring: preferredLanguages) ?? defaults.tracks.first else { return }
        selectTextTrack(track)
    }

    /// Gives this session a volume of its own (nil: follow the controller's `volume` and `isMuted` again).
    /// Applies while the session is current or preloaded; reported back as `.volumeChanged`.
    public func setVolume(_ volume: AudioVolume?) {
        send(.command(.setSessionVolume(sessionID: id, volume)))
    }

    /// Disposes of the session: the controller stops it, closes its player and reports `terminate`.
    public func terminate() {
        send(.command(.terminateSession(id)))
    }

    // Loop-side updates.
    func update<R: Sendable>(_ change: (inout State) -> R) -> R { state.withLock { value in change(&value) } }

    public static func == (lhs: PlaybackSession, rhs: PlaybackSession) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        "PlaybackSession(\(id), video: \(video.id ?? video.name ?? "untitled"), source: \(source.map { Redaction.redact(url: $0.url) } ?? "none"))"
    }
}

/// Plugin API hung off a session by the provider that built it (the seed's `BCOVSessionProviderExtension`).
/// Plugins define their own protocols refining this one; apps reach them with `session.providerExtension as? …`.
public protocol SessionProviderExtension: Sendable {}
