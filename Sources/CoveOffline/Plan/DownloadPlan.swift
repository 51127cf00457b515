import CoveCore
import CoveStreaming
import Foundation

/// Everything one download fetches and writes, decided once from the manifest when the download is
/// requested and kept in the index: a restarted process resumes from the index without asking the
/// server for the manifest again.
struct DownloadPlan: Sendable {
    /// Media, init segments, text and images to fetch, in the order they are fetched.
    var files: [PlannedFile]
    /// Decryption keys to fetch and keep in the index (never on disk as files, never logged).
    var keys: [PlannedKey]
    /// Files Cove writes itself (the offline playlists and thumbnail track): path → contents.
    var documents: [String: String]
    /// What the offline `Video` is made from.
    var layout: OfflineLayout
    /// Persistent licences of protected content, by the name the copy answers them under
    /// (`license/<key system>`): kept in the index with the keys, never as files.
    var licenses: [String: Data] = [:]

    var estimatedBytes: Int64 { files.reduce(0) { $0 + $1.estimatedBytes } }
}

/// One resource of the origin to store at `path` (relative to the download's folder).
struct PlannedFile: Sendable, Hashable {
    let path: String
    let url: URL
    let byteRange: ByteSpan?
    let kind: StreamingRequestKind
    /// Exact for a byte range; from the track's declared bitrate otherwise.
    let estimatedBytes: Int64
}

/// An AES-128 key: fetched from `url` (through the request filters), answered offline at `name`.
struct PlannedKey: Sendable, Hashable {
    let name: String
    let url: URL
}

/// How the stored copy is laid out, kept with the download (JSON in the index): the offline `Video` is
/// built from it.
struct OfflineLayout: Sendable, Hashable, Codable {
    /// The HLS master playlist Cove wrote for the copy (whatever the origin's format was).
    var masterPath: String
    /// Seconds of media.
    var duration: Double
    var variant: VariantSummary
    /// Audio renditions stored (language or name), the default first.
    var audioLanguages: [String]
    /// Subtitle renditions stored inside the offline manifest (from HLS `SUBTITLES` renditions).
    var manifestTextLanguages: [String]
    /// Sidecar text tracks stored as whole WebVTT files (the catalog's `text_tracks`, DASH text sets).
    var sidecars: [SidecarFile]
    var posterPath: String?
    var thumbnailImagePath: String?
    /// The thumbnail WebVTT track Cove rewrote to point at the stored images.
    var thumbnailTrackPath: String?
    /// The origin's format: "hls" or "dash".
    var originFormat: String

    struct VariantSummary: Sendable, Hashable, Codable {
        var bandwidth: Int
        var width: Int?
        var height: Int?
    }

    struct SidecarFile: Sendable, Hashable, Codable {
        var path: String
        var language: String?
        var label: String?
        var kind: String
        var isDefault: Bool
        /// The catalog entry's other fields, as JSON text (kept so the offline video lists the track as the catalog did).
        var properties: String?
    }
}
