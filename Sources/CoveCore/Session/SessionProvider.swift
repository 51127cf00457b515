import Foundation
import Logging
import Synchronization

/// Turns a video into a plan for a playback session. Providers form a chain: a plugin provider
/// (SSAI, sidecar captions, offline) wraps an upstream provider, asks it for a plan and decorates the
/// result, exactly as the seed's `upstreamSessionProvider` chain does:
///
/// ```
/// controller ──▶ SSAIProvider ──▶ CaptionsProvider ──▶ BasicSessionProvider
///                 (stream URL,      (text tracks)        (source selection)
///                  ad timeline)
/// ```
public protocol PlaybackSessionProvider: Sendable {
    /// Builds the plan for `video`. Throw `PlaybackError` (e.g. `.noPlayableSource`) when it cannot be played.
    func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan

    /// When the controller may prepare the next video ahead of time. Wrapping providers pass on their
    /// upstream's policy unless preloading would break them ("some plugins may ignore this setting").
    var sessionPreloadingPolicy: SessionPreloadingPolicy { get }
}

extension PlaybackSessionProvider {
    public var sessionPreloadingPolicy: SessionPreloadingPolicy { .never }
}

/// What a provider may use while preparing.
public struct SessionPreparationContext: Sendable {
    public let logger: Logger
    let notes = PreparationNotes()

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Reports an event about the session this preparation leads to — made for it once it exists,
    /// whether it starts or fails to start, and reported right after its `SessionAdvanced`. A provider
    /// that refuses a video uses it to say more than its error can (the active sessions of a stream
    /// limit, for one).
    public func report(_ event: @escaping @Sendable (PlaybackSession) -> PlaybackEvent) {
        notes.add(event)
    }
}

/// Events providers reported while preparing, waiting for their session.
final class PreparationNotes: Sendable {
    private let events = Mutex<[@Sendable (PlaybackSession) -> PlaybackEvent]>([])

    func add(_ event: @escaping @Sendable (PlaybackSession) -> PlaybackEvent) {
        events.withLock { $0.append(event) }
    }

    /// The events for `session`, each kind once (a bumper and its content prepared together may both
    /// report the same refusal). The providers' closures run outside the lock.
    func take(for session: PlaybackSession) -> [PlaybackEvent] {
        let pending = events.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        var seen = Set<String>()
        return pending.map { $0(session) }.filter { seen.insert($0.name).inserted }
    }
}

/// Everything the controller needs to start a session: the video, the chosen source, the URL the engine
/// should play, and the plugin API attached to the session.
public struct SessionPlan: Sendable {
    public var video: Video
    public var source: Source
    /// The URL handed to the engine. Usually `source.url`; SSAI replaces it with the stitched stream.
    public var playbackURL: URL
    /// Plugin API exposed as `PlaybackSession.providerExtension`.
    public var providerExtension: (any SessionProviderExtension)?
    /// Text tracks loaded beside the stream (a captions provider adds these); listed with the stream's
    /// own text renditions in `PlaybackSession.textTrackGroup`.
    public var sidecarTextTracks: [SidecarTextTrack] = []
    /// Scrubbing previews for the session (a thumbnails provider attaches these); exposed as
    /// `PlaybackSession.thumbnailSource`.
    public var thumbnailSource: (any ThumbnailSource)?
    /// A plugin's part in the session's playback (SSAI: content time and ad events); see
    /// `PlaybackSessionHooks`. One plan's hooks serve one session.
    public var hooks: (any PlaybackSessionHooks)?

    public init(video: Video, source: Source, playbackURL: URL? = nil, providerExtension: (any SessionProviderExtension)? = nil) {
        self.video = video
        self.source = source
        self.playbackURL = playbackURL ?? source.url
        self.providerExtension = providerExtension
    }
}

/// Chooses which of a video's sources to play.
public struct SourceSelectionPolicy: Sendable {
    private let select: @Sendable (Video) -> Source?

    public init(_ select: @escaping @Sendable (Video) -> Source?) {
        self.select = select
    }

    public func callAsFunction(_ video: Video) -> Source? { select(video) }

    /// The default: the seed's HLS-first rule over the sources this device can play (`PlaybackCapabilities
    /// .cove`: HLS, DASH and MP4 without a DRM key system) — HLS over HTTPS, else HLS, else DASH, else
    /// MP4 — and the seed's rule over all sources when none is (the engine then says which key system it lacks).
    public static let `default` = capabilities(.cove)

    /// The first source the device plays, by `capabilities.formats` order and then the preferred scheme;
    /// when none is playable, the seed's HLS-first rule over all sources.
    public static func capabilities(_ capabilities: PlaybackCapabilities) -> SourceSelectionPolicy {
        SourceSelectionPolicy { video in
            let playable = video.sources.filter(capabilities.plays)
            for format in capabilities.formats {
                // Within a format: protected sources by the device's key-system preference (a vendor module
                // registered before ClearKey wins over it), then clear ones, each in catalog order.
                let ofFormat = playable.filter { format.matches($0) }.enumerated()
                    .sorted { (capabilities.rank($0.element), $0.offset) < (capabilities.rank($1.element), $1.offset) }.map(\.element)
                if let source = ofFormat.first(where: { $0.scheme == capabilities.preferredScheme }) ?? ofFormat.first { return source }
            }
            return hls(preferringScheme: capabilities.preferredScheme)(video)
        }
    }

    /// The seed's `sourceSelectionHLS(withScheme:)`: the first HLS source with `scheme`, else the first
    /// HLS source with any scheme, else the first MP4, else the first source.
    public static func hls(preferringScheme scheme: String) -> SourceSelectionPolicy {
        SourceSelectionPolicy { video in
            let candidates = video.sources
            let wanted = scheme.lowercased()
            if let source = candidates.first(where: { $0.isHLS && $0.scheme == wanted }) { return source }
            if let source = candidates.first(where: \.isHLS) { return source }
            if let source = candidates.first(where: \.isMP4) { return source }
            return candidates.first
        }
    }
}

/// What a device plays, for source selection: formats in order of preference and the DRM key systems it
/// has (Playback API `key_systems` names such as `com.widevine.alpha`). Cove on GStreamer decrypts
/// AES-128 HLS itself and Common Encryption through its decryption modules (ClearKey by default).
public struct PlaybackCapabilities: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case hls, dash, mp4

        func matches(_ source: Source) -> Bool {
            switch self {
            case .hls: return source.isHLS
            case .dash: return source.isDASH
            case .mp4: return source.isMP4
            }
        }
    }

    public var formats: [Format]
    public var keySystems: Set<String>
    /// Among sources of the same format, this scheme first.
    public var preferredScheme: String
    /// Key systems in order of preference: a source protected for an earlier one is chosen over one
    /// protected for a later one, and protected sources over clear ones of the same format.
    public var keySystemPreference: [String]

    public init(formats: [Format] = [.hls, .dash, .mp4], keySystems: Set<String> = [], preferredScheme: String = Source.URLScheme.https) {
        self.init(formats: formats, keySystems: keySystems, preferredScheme: preferredScheme, keySystemPreference: [])
    }

    public init(
        formats: [Format] = [.hls, .dash, .mp4], keySystems: Set<String> = [], preferredScheme: String = Source.URLScheme.https, keySystemPreference: [String]
    ) {
        self.formats = formats
        self.keySystems = keySystems.union(keySystemPreference)
        self.preferredScheme = preferredScheme.lowercased()
        self.keySystemPreference = keySystemPreference
    }

    /// What a device with these decryption modules plays: their key systems, preferred in the order the
    /// modules were registered.
    public init(formats: [Format] = [.hls, .dash, .mp4], decryptionModules: DecryptionModules, preferredScheme: String = Source.URLScheme.https) {
        var order: [String] = []
        for system in decryptionModules.modules.flatMap(\.keySystems) where !order.contains(system.rawValue) { order.append(system.rawValue) }
        self.init(formats: formats, preferredScheme: preferredScheme, keySystemPreference: order)
    }

    /// Cove's own: HLS, DASH and MP4, clear or under ClearKey (the module Cove's streaming registers by
    /// default; a vendor's key system needs its module and `init(decryptionModules:)`).
    public static let cove = PlaybackCapabilities(keySystemPreference: [KeySystem.clearKey.rawValue])

    /// How early `source` comes among sources of its format: by its most preferred key system the device
    /// has; clear sources after every protected one it plays.
    func rank(_ source: Source) -> Int {
        let needed = source.keySystems.keys
        guard !needed.isEmpty else { return keySystemPreference.count }
        return needed.compactMap { keySystemPreference.firstIndex(of: $0) }.min() ?? keySystemPreference.count
    }

    /// A source of one of `formats` that needs no key system, or one of `keySystems`.
    public func plays(_ source: Source) -> Bool {
        guard formats.contains(where: { $0.matches(source) }) else { return false }
        let needed = source.keySystems.keys
        return needed.isEmpty || needed.contains(where: keySystems.contains)
    }
}

extension SourceSelectionPolicy {
    /// `base` applied to the sources that need no DRM key system. Dynamic Delivery catalogs list
    /// FairPlay/Widevine/PlayReady sources first; no DRM system is available to the engine on Linux,
    /// so this picks the clear renditions instead.
    public static func withoutDRM(_ base: SourceSelectionPolicy = .default) -> SourceSelectionPolicy {
        SourceSelectionPolicy { video in
            base(video.update { $0.sources = $0.sources.filter(\.keySystems.isEmpty) })
        }
    }
}

/// Options of the basic provider.
public struct BasicSessionProviderOptions: Sendable {
    public var sourceSelectionPolicy: SourceSelectionPolicy
    /// Never by default (the older seed README's `sessionPreloadingNever`).
    public var sessionPreloadingPolicy: SessionPreloadingPolicy

    public init(sourceSelectionPolicy: SourceSelectionPolicy = .default, sessionPreloadingPolicy: SessionPreloadingPolicy = .never) {
        self.sourceSelectionPolicy = sourceSelectionPolicy
        self.sessionPreloadingPolicy = sessionPreloadingPolicy
    }
}

/// The end of every provider chain: picks a source with the selection policy.
public struct BasicSessionProvider: PlaybackSessionProvider {
    public let options: BasicSessionProviderOptions

    public init(options: BasicSessionProviderOptions = BasicSessionProviderOptions()) {
        self.options = options
    }

    public var sessionPreloadingPolicy: SessionPreloadingPolicy { options.sessionPreloadingPolicy }

    public func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
        if let error = video.error {
            throw PlaybackError(.noPlayableSource, "The catalog could not deliver video \(Self.label(video)): \(error); it has no sources to play")
        }
        guard let source = options.sourceSelectionPolicy(video) else {
            let kinds = video.sources.map { $0.resolvedDeliveryType?.rawValue ?? $0.url.pathExtension }
            let detail =
                video.sources.isEmpty
                ? "it has no sources" : "none of its \(video.sources.count) sources (\(kinds.joined(separator: ", "))) is playable without DRM"
            throw PlaybackError(
                .noPlayableSource, "Video \(Self.label(video)) has no playable source: \(detail); give it an HLS or MP4 source or set a sourceSelectionPolicy")
        }
        return SessionPlan(video: video, source: source)
    }

    /// How a provider's error messages name a video (`Video.messageLabel`).
    static func label(_ video: Video) -> String { video.messageLabel }
}

extension Video {
    /// How error messages name this video: its id, else its name, quoted; "(no id)" otherwise.
    public var messageLabel: String {
        if let id { return "'\(id)'" }
        if let name { return "'\(name)'" }
        return "(no id)"
    }
}
