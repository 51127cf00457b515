import CoveCore
import CoveStreaming
import Foundation

/// What `cove manifest` prints with `--json`: one document per manifest, encoded with sorted keys so the
/// same input gives the same bytes. Times are seconds (rounded to the millisecond); URLs are redacted the
/// way every URL Cove reports is (credential-like query values and user info become `REDACTED`) and, when
/// they sit under the manifest's folder, written relative to it.
struct ManifestReport: Codable, Sendable {
    /// `hls` or `dash`.
    var format: String
    /// `hlsMaster`, `hlsMedia`, `dashStatic` or `dashDynamic`.
    var type: String
    /// The manifest's own URL after redirects (a `file:` URL for a path), redacted.
    var url: String
    /// HLS `EXT-X-VERSION`.
    var version: Int?
    /// The presentation's length when it has one: DASH `mediaPresentationDuration`, else the first variant read.
    var duration: Double?
    /// Where the manifest asks playback to start (HLS `EXT-X-START`).
    var startOffset: Double?
    /// Set when the presentation is live (an HLS playlist without `EXT-X-ENDLIST`, a dynamic MPD).
    var live: LiveReport?
    /// DASH periods (empty for HLS).
    var periods: [PeriodReport] = []
    /// The ladder Cove adapts over, in listed order.
    var variants: [VariantReport] = []
    /// Alternate audio and subtitle renditions (and HLS closed-caption and video renditions, listed only).
    var renditions: [RenditionReport] = []
    /// HLS `EXT-X-I-FRAME-STREAM-INF` entries (Cove does not play them).
    var iFrameVariants: Int?
    /// HLS `EXT-X-SESSION-KEY`s of a master playlist.
    var sessionKeys: [KeyReport] = []
    /// Every key system the manifest names: HLS key methods and formats, DASH `ContentProtection` systems.
    var keySystems: [String] = []
    /// Presentation-level problems that still let the rest be described (a DASH manifest whose only video
    /// needs a key system Cove lacks), as typed errors.
    var error: ErrorReport?
    var warnings: [String] = []

    /// True when something the manifest names could not be read or used: the command exits non-zero.
    var hasFailures: Bool {
        error != nil || variants.contains { $0.media?.error != nil } || renditions.contains { $0.media?.error != nil }
    }
}

/// A live presentation's window, as Cove plays it.
struct LiveReport: Codable, Sendable {
    /// HLS `EXT-X-TARGETDURATION`; DASH: the longest segment (or `maxSegmentDuration`).
    var targetDuration: Double?
    /// Seconds of media the window lists now (the first variant read).
    var windowLength: Double?
    var windowSegments: Int?
    /// How far back from the live edge a viewer may seek: the window up to Cove's live edge (three target
    /// durations, or DASH's `suggestedPresentationDelay`, before the end).
    var seekableWindow: Double?
    /// Whether Cove reports the stream as live DVR (`VideoType.liveDVR`): a seekable window at least as long
    /// as `PlaybackControllerConfiguration.liveDVRMinimumWindow`.
    var dvr: Bool?
    var dvrMinimumWindow: Double
    /// HLS `EXT-X-PLAYLIST-TYPE` (`EVENT`: segments are only added).
    var playlistType: String?
    var mediaSequence: Int?
    var discontinuitySequence: Int?
    /// DASH `timeShiftBufferDepth`, `availabilityStartTime` (ISO 8601), `publishTime`, `minimumUpdatePeriod`,
    /// `suggestedPresentationDelay`.
    var timeShiftBufferDepth: Double?
    var availabilityStartTime: String?
    var publishTime: String?
    var minimumUpdatePeriod: Double?
    var suggestedPresentationDelay: Double?
}

struct PeriodReport: Codable, Sendable {
    var index: Int
    var id: String?
    var start: Double
    var duration: Double?
    var adaptationSets: [AdaptationSetReport]
}

struct AdaptationSetReport: Codable, Sendable {
    var id: String?
    var contentType: String
    var mimeType: String?
    var language: String?
    var label: String?
    var roles: [String]
    var representations: Int
    var contentProtection: [ProtectionReport]
}

/// A DASH `ContentProtection`: the scheme and the key ID it names (an identifier, never key material).
struct ProtectionReport: Codable, Sendable {
    var schemeIdUri: String
    var keySystem: String
    var value: String?
    var defaultKID: String?
}

struct VariantReport: Codable, Sendable {
    var index: Int
    var bandwidth: Int
    var averageBandwidth: Int?
    var width: Int?
    var height: Int?
    var codecs: [String]
    var frameRate: Double?
    /// The media playlist (HLS) or the manifest with `#representation=ID` (DASH).
    var uri: String
    /// DASH `Representation@id`.
    var representationID: String?
    var audioGroup: String?
    var subtitlesGroup: String?
    var media: MediaReport?
}

struct RenditionReport: Codable, Sendable {
    /// `audio`, `subtitles`, `closedCaptions` or `video`.
    var kind: String
    var group: String
    var name: String
    var language: String?
    var isDefault: Bool
    var autoselect: Bool
    var forced: Bool
    var uri: String?
    /// HLS `INSTREAM-ID` (closed captions carried in the video).
    var instreamID: String?
    /// DASH: the representations of the audio set.
    var representations: Int?
    var media: MediaReport?
}

/// One variant's or rendition's segments, as Cove's presentation model places them.
struct MediaReport: Codable, Sendable {
    /// False when the playlist was not read: `notRead` says why (or `error`, when reading it failed).
    var read: Bool
    var notRead: String?
    var error: ErrorReport?
    var segments: Int?
    var duration: Double?
    var targetDuration: Double?
    var live: Bool?
    var playlistType: String?
    var mediaSequence: Int?
    /// Boundaries where timestamps start over (HLS `EXT-X-DISCONTINUITY`; DASH period boundaries).
    var discontinuities: Int?
    /// Segments the server says are missing (HLS `EXT-X-GAP`).
    var gaps: Int?
    /// Segments addressed as byte ranges of a larger file.
    var byteRangeSegments: Int?
    var encryptedSegments: Int?
    var initSections: [InitSectionReport]?
    var keys: [KeyReport]?
}

struct InitSectionReport: Codable, Sendable, Hashable {
    var uri: String
    var byteRange: String?
}

/// A key as the manifest names it: method, format and where it is fetched from — never the key, never
/// the IV, and the URI's credential-like query values redacted (an inline `data:` key is not shown).
struct KeyReport: Codable, Sendable, Hashable {
    var method: String
    var keyFormat: String
    var keyFormatVersions: String?
    var uri: String?
    /// `explicit` (the playlist gives an IV) or `mediaSequence` (RFC 8216 §5.2).
    var iv: String?
}

/// A typed error from the input, a reader or the streaming model: what was wrong, where, what to do.
struct ErrorReport: Codable, Sendable, Error {
    /// `input`, `hls`, `dash` or `streaming`.
    var reader: String
    var kind: String
    /// The whole sentence: what was wrong, the line, what to do.
    var message: String
    var line: Int?
    /// The tag (HLS) or element (DASH) involved.
    var subject: String?
    var advice: String?
    var url: String?
    var httpStatus: Int?
}

extension ManifestReport {
    /// Seconds rounded to the millisecond, so the same manifest prints the same numbers.
    static func seconds(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    static func iso8601(_ secondsSince1970: Double?) -> String? {
        secondsSince1970.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) }
    }

    static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension ErrorReport {
    init(_ error: StreamingError) {
        self.init(reader: "streaming", kind: error.code.rawValue, message: error.description, url: error.url, httpStatus: error.httpStatus)
    }

    init(input kind: String, _ message: String, advice: String? = nil, url: String? = nil) {
        self.init(reader: "input", kind: kind, message: Redaction.redactSecrets(in: message), advice: advice, url: url)
    }
}
