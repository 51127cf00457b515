import CoveCore
import Foundation

/// What a manifest describes, independent of its format: the variants to adapt between, the alternate
/// renditions beside them, and where playback should start.
///
/// HLS fills it from a master playlist (or a lone media playlist, as one variant); DASH will fill the
/// same model. The segment lists live in `MediaTimeline`s, loaded per variant when needed, because a
/// live HLS variant's list changes while it plays.
public struct Presentation: Sendable, Hashable {
    /// The manifest's own URL (after redirects): relative URIs resolve against it.
    public let manifestURL: URL
    /// Variants in the order the manifest lists them (the ladder apps see).
    public let variants: [VariantTrack]
    /// Alternate audio renditions (HLS `EXT-X-MEDIA TYPE=AUDIO` with a URI).
    public let audioRenditions: [AlternateRendition]
    /// Alternate subtitle renditions (HLS `EXT-X-MEDIA TYPE=SUBTITLES`).
    public let textRenditions: [AlternateRendition]
    /// Where the manifest asks playback to start (HLS `EXT-X-START`), in seconds from the start of the
    /// timeline when positive, from its end when negative.
    public let startOffset: Double?
    /// The key systems the manifest says its media is protected for (DASH `ContentProtection` of the
    /// chosen set, HLS `EXT-X-SESSION-KEY`), in the manifest's order. Empty for clear media and for
    /// manifests that leave it to the segments (HLS `EXT-X-KEY`, `pssh` in the init segment).
    public let contentProtection: [DeclaredProtection]

    public init(
        manifestURL: URL, variants: [VariantTrack], audioRenditions: [AlternateRendition] = [], textRenditions: [AlternateRendition] = [],
        startOffset: Double? = nil, contentProtection: [DeclaredProtection] = []
    ) {
        self.contentProtection = contentProtection
        self.manifestURL = manifestURL
        self.variants = variants
        self.audioRenditions = audioRenditions
        self.textRenditions = textRenditions
        self.startOffset = startOffset
    }

    /// The variants as CoveCore's ladder values, in listed order.
    public var ladder: [Variant] { variants.map(\.variant) }

    /// Variant indexes from the lowest bandwidth to the highest (ties keep listed order).
    public var indexesByBandwidth: [Int] {
        variants.indices.sorted { (variants[$0].bandwidth, $0) < (variants[$1].bandwidth, $1) }
    }
}

/// One variant of the ladder: a complete presentation of the content at one quality.
public struct VariantTrack: Sendable, Hashable {
    /// Its index in `Presentation.variants`.
    public let index: Int
    /// Declared peak bits per second (HLS `BANDWIDTH`).
    public let bandwidth: Int
    public let averageBandwidth: Int?
    public let width: Int?
    public let height: Int?
    public let codecs: [String]
    public let frameRate: Double?
    /// Its media playlist (HLS) or representation (DASH).
    public let playlistURL: URL
    /// The group of alternate audio renditions it plays with, if any.
    public let audioGroup: String?
    public let subtitlesGroup: String?

    public init(
        index: Int, bandwidth: Int, averageBandwidth: Int? = nil, width: Int? = nil, height: Int? = nil, codecs: [String] = [], frameRate: Double? = nil,
        playlistURL: URL, audioGroup: String? = nil, subtitlesGroup: String? = nil
    ) {
        self.index = index
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.width = width
        self.height = height
        self.codecs = codecs
        self.frameRate = frameRate
        self.playlistURL = playlistURL
        self.audioGroup = audioGroup
        self.subtitlesGroup = subtitlesGroup
    }

    /// CoveCore's value for this variant (URL redacted, as every reported URL is).
    public var variant: Variant {
        Variant(
            bandwidth: bandwidth, averageBandwidth: averageBandwidth, width: width, height: height, codecs: codecs, frameRate: frameRate,
            url: playlistURL.absoluteString)
    }
}

/// Which part of a manifest a streaming session plays.
public enum ManifestSelection: Sendable, Hashable {
    /// What the manifest is for: an HLS playlist's variants; a DASH manifest's video ladder (or its first
    /// audio set, when it has no video).
    case main
    /// A DASH audio adaptation set: its position among the first period's audio sets (later periods are
    /// matched by language, then position). Its representations are the session's variants.
    case dashAudio(Int)
    /// A text rendition that is one whole WebVTT file (a DASH text set whose representation is just a
    /// `BaseURL`), spanning `duration` seconds from the presentation's start.
    case wholeFile(duration: Double)
}

/// An alternate rendition: another audio language, or a subtitle track.
public struct AlternateRendition: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case audio, text }
    public let kind: Kind
    public let groupID: String
    public let name: String
    public let language: String?
    public let isDefault: Bool
    public let isAutoselect: Bool
    public let isForced: Bool
    /// nil when the rendition is carried inside the variant's own segments. For DASH, the MPD's URL.
    public let playlistURL: URL?
    /// Which part of the manifest at `playlistURL` is this rendition (`.main` for an HLS playlist).
    public let selection: ManifestSelection

    public init(
        kind: Kind, groupID: String, name: String, language: String? = nil, isDefault: Bool = false, isAutoselect: Bool = false, isForced: Bool = false,
        playlistURL: URL? = nil, selection: ManifestSelection = .main
    ) {
        self.selection = selection
        self.kind = kind
        self.groupID = groupID
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.isAutoselect = isAutoselect
        self.isForced = isForced
        self.playlistURL = playlistURL
    }
}

/// A key system a manifest declares for its media.
public struct DeclaredProtection: Sendable, Hashable {
    /// nil for a scheme Cove does not know (the DASH `mp4protection` signal names no key system).
    public let keySystem: KeySystem?
    /// How the manifest named it (`urn:uuid:…`, an HLS `KEYFORMAT`).
    public let name: String
    public let defaultKeyID: KeyID?
    /// The `pssh` box the manifest carries for it (DASH `cenc:pssh`, an HLS session key's data URI).
    public let systemHeader: ProtectionSystemHeader?

    public init(keySystem: KeySystem?, name: String, defaultKeyID: KeyID? = nil, systemHeader: ProtectionSystemHeader? = nil) {
        self.keySystem = keySystem
        self.name = name
        self.defaultKeyID = defaultKeyID
        self.systemHeader = systemHeader
    }
}
