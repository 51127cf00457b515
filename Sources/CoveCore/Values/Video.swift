import Foundation

/// A video: its sources, its cue points and every catalog field, as an immutable value.
///
/// `properties` keeps the raw Playback-API object under its own field names (`id`, `name`,
/// `duration` in milliseconds, `custom_fields`, `text_tracks`, …); the typed accessors below read it.
/// A video that a playlist could not resolve carries an `error` instead of sources.
public struct Video: Sendable, Hashable {
    public let sources: [Source]
    public let cuePoints: CuePointCollection
    public let properties: JSONObject
    /// A thumbnail WebVTT URL set on a hand-made video; when nil, `thumbnailVTTURL` falls back to the
    /// catalog's thumbnails text track.
    public let thumbnailVTTOverride: URL?
    /// Why the catalog could not deliver this video (playlist entries only).
    public let error: VideoError?
    /// The Playback Rights token the catalog answered this video under (set by the Playback Service):
    /// its claims drive stream concurrency, and it authorizes requests the rights service guards.
    public let playbackRights: PlaybackRightsToken?
    private let bumperBox: VideoBox?

    /// A short video (a brand sting) the controller plays once before this one, and before the rest
    /// of its queue: see the Playback Service's bumper configuration and the `bumper_id` custom field.
    public var bumper: Video? { bumperBox?.video }

    public init(sources: [Source], cuePoints: CuePointCollection = .empty, properties: JSONObject = [:]) {
        self.init(sources: sources, cuePoints: cuePoints, properties: properties, thumbnailVTTOverride: nil, error: nil, playbackRights: nil, bumper: nil)
    }

    public init(source: Source, cuePoints: CuePointCollection = .empty, properties: JSONObject = [:]) {
        self.init(sources: [source], cuePoints: cuePoints, properties: properties)
    }

    /// A video with one source at `url`; the delivery type is inferred from the URL when not given.
    public init(url: URL, deliveryMethod: DeliveryType? = nil, properties: JSONObject = [:]) {
        self.init(source: Source(url: url, deliveryMethod: deliveryMethod ?? DeliveryType.inferred(from: url)), properties: properties)
    }

    /// A placeholder for a video the catalog failed to deliver (`VIDEO_NOT_FOUND`, `CLIENT_GEO`, …).
    public init(error: VideoError, properties: JSONObject = [:]) {
        self.init(sources: [], cuePoints: .empty, properties: properties, thumbnailVTTOverride: nil, error: error, playbackRights: nil, bumper: nil)
    }

    private init(
        sources: [Source], cuePoints: CuePointCollection, properties: JSONObject, thumbnailVTTOverride: URL?, error: VideoError?,
        playbackRights: PlaybackRightsToken?, bumper: Video?
    ) {
        self.sources = sources
        self.cuePoints = cuePoints
        self.properties = properties
        self.thumbnailVTTOverride = thumbnailVTTOverride
        self.error = error
        self.playbackRights = playbackRights
        self.bumperBox = bumper.map(VideoBox.init)
    }

    /// The mutable copy handed to `update(_:)` (the seed's `BCOVMutableVideo`).
    public struct Mutable: Sendable, Hashable {
        public var sources: [Source]
        public var cuePoints: CuePointCollection
        public var properties: JSONObject
        public var thumbnailVTTURL: URL?
        public var error: VideoError?
        public var playbackRights: PlaybackRightsToken?
        public var bumper: Video?
    }

    /// Returns a modified copy; `self` is unchanged (the seed's `update {}`).
    public func update(_ change: (inout Mutable) throws -> Void) rethrows -> Video {
        var m = Mutable(
            sources: sources, cuePoints: cuePoints, properties: properties, thumbnailVTTURL: thumbnailVTTOverride, error: error, playbackRights: playbackRights,
            bumper: bumper)
        try change(&m)
        return Video(
            sources: m.sources, cuePoints: m.cuePoints, properties: m.properties, thumbnailVTTOverride: m.thumbnailVTTURL, error: m.error,
            playbackRights: m.playbackRights, bumper: m.bumper
        )
    }

    public var hasError: Bool { error != nil }

    public var id: String? { Self.string(properties[PropertyKey.id]) }
    public var referenceID: String? { Self.string(properties[PropertyKey.referenceID]) }
    public var accountID: String? { Self.string(properties[PropertyKey.accountID]) }
    public var name: String? { properties[PropertyKey.name]?.stringValue }
    public var shortDescription: String? { properties[PropertyKey.description]?.stringValue }
    public var longDescription: String? { properties[PropertyKey.longDescription]?.stringValue }
    /// `duration` is milliseconds on the wire.
    public var duration: Duration? {
        properties[PropertyKey.duration]?.doubleValue.flatMap { $0.isFinite && $0 >= 0 ? Duration.milliseconds(Int64($0.rounded())) : nil }
    }
    public var tags: [String] { properties[PropertyKey.tags]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    public var customFields: JSONObject { properties[PropertyKey.customFields]?.objectValue ?? [:] }
    public var economics: Economics? { properties[PropertyKey.economics]?.stringValue.map(Economics.init(rawValue:)) }
    /// The seed's `canBeDownloaded`, from `offline_enabled`.
    public var canBeDownloaded: Bool { properties[PropertyKey.offlineEnabled]?.boolValue ?? false }
    public var projection: String? { properties[PropertyKey.projection]?.stringValue }
    public var poster: URL? { properties[PropertyKey.poster]?.stringValue.flatMap(URL.init(string:)) }
    public var thumbnail: URL? { properties[PropertyKey.thumbnail]?.stringValue.flatMap(URL.init(string:)) }
    public var posterSources: [URL] { Self.urls(properties[PropertyKey.posterSources]) }
    public var thumbnailSources: [URL] { Self.urls(properties[PropertyKey.thumbnailSources]) }

    /// Sidecar text tracks from `text_tracks`, skipping entries without a URL.
    public var textTracks: [TextTrack] {
        (properties[PropertyKey.textTracks]?.arrayValue ?? []).compactMap { $0.objectValue.flatMap(TextTrack.init(json:)) }
    }

    /// The thumbnail WebVTT URL (the seed's `thumbnailVTTURL`): the value set on the video, else the
    /// catalog's thumbnails track (`kind: "metadata", label: "thumbnails"`, or a `thumbnails` kind).
    public var thumbnailVTTURL: URL? {
        if let thumbnailVTTOverride { return thumbnailVTTOverride }
        return textTracks.first { ($0.kind == .metadata && $0.label?.lowercased() == "thumbnails") || $0.kind.rawValue == "thumbnails" }?.source
    }

    /// Whether this is a downloaded copy played offline: it carries the offline manager's token
    /// (`offline_video_token`, the seed's `BCOVOfflineVideo.TokenPropertyKey`). Unlike the seed's, an
    /// offline video scrubs with thumbnails when its thumbnail track was downloaded with it.
    public var isOfflinePlayback: Bool { properties[PropertyKey.offlineVideoToken] != nil }

    private static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s): return s
        case .int(let i): return String(i)
        default: return nil
        }
    }

    private static func urls(_ value: JSONValue?) -> [URL] {
        (value?.arrayValue ?? []).compactMap { $0["src"]?.stringValue.flatMap(URL.init(string:)) }
    }

    /// Raw Playback-API field names used in `properties`.
    public enum PropertyKey {
        public static let accountID = "account_id"
        public static let description = "description"
        public static let duration = "duration"
        public static let economics = "economics"
        public static let id = "id"
        public static let longDescription = "long_description"
        public static let name = "name"
        public static let poster = "poster"
        public static let posterSources = "poster_sources"
        public static let projection = "projection"
        public static let referenceID = "reference_id"
        public static let tags = "tags"
        public static let textTracks = "text_tracks"
        public static let thumbnail = "thumbnail"
        public static let thumbnailSources = "thumbnail_sources"
        public static let customFields = "custom_fields"
        public static let offlineEnabled = "offline_enabled"
        /// Set on downloaded videos by the offline manager (`CoveOffline`); see `isOfflinePlayback`.
        public static let offlineVideoToken = "offline_video_token"
        public static let cuePoints = "cue_points"
        public static let sources = "sources"
        public static let manifestURLTTL = "manifest_url_ttl"
        public static let variants = "variants"
        public static let link = "link"
        public static let adKeys = "ad_keys"
        public static let createdAt = "created_at"
        public static let updatedAt = "updated_at"
        public static let publishedAt = "published_at"
        /// Custom field naming the bumper to play before this video; wins over a bumper configured on the request.
        public static let bumperIDCustomField = "bumper_id"
    }

    /// How a video is monetised (`economics`).
    public struct Economics: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let adSupported = Economics(rawValue: "AD_SUPPORTED")
        public static let free = Economics(rawValue: "FREE")
        public var description: String { rawValue }
    }
}

/// Gives `Video` a recursive field (its bumper) while keeping value semantics and value equality.
private final class VideoBox: Sendable, Hashable {
    let video: Video
    init(_ video: Video) { self.video = video }
    static func == (lhs: VideoBox, rhs: VideoBox) -> Bool { lhs.video == rhs.video }
    func hash(into hasher: inout Hasher) { hasher.combine(video) }
}

/// A catalog's per-video failure, as the Playback API reports it (`error_code`, `error_subcode`, `message`).
public struct VideoError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: String
    public let subcode: String?
    public let message: String?

    public init(code: String, subcode: String? = nil, message: String? = nil) {
        self.code = code
        self.subcode = subcode
        self.message = message
    }

    public var description: String {
        [code, subcode, message].compactMap { $0 }.joined(separator: ": ")
    }

    // The seed's BCOVVideoErrorCode strings.
    public static let videoNotFound = "VIDEO_NOT_FOUND"
    public static let accessDenied = "ACCESS_DENIED"
    public static let clientGeo = "CLIENT_GEO"
    public static let tokenRequired = "TOKEN_REQUIRED"
    public static let videoNotPlayable = "VIDEO_NOT_PLAYABLE"
}
