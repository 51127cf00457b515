import CoveCore
import Foundation

/// A ready-made catalog folder for `CatalogServer`, built from the generated fixture media: several
/// videos (adaptive HLS with an MP4 rendition, cue points and two sidecar caption languages;
/// audio-only; in-manifest subtitles; AES-128; DASH listed behind a Widevine copy, as Dynamic Delivery
/// lists DRM sources first), a bumper, and a playlist that also lists a video the
/// catalog does not have. Every video but the SSAI one may be downloaded (`offline_enabled`); the ladder
/// has a poster. Generated once and cached next to the fixtures.
///
/// The SSAI video (`VideoID.ssai`) plays the ladder's clean content without an `ad_config_id`;
/// with one, its source carries a `vmap` URL (`ssai/content.vmap`) whose stitched stream and
/// beacons exist only once `SSAITitle.install(on: server.media)` has run on the catalog server,
/// as `cove serve` does.
public enum SampleCatalog {
    public static let accountID = "6000000000001"
    public static let policyKey = "BCpkADawqM1CoveSampleKey-demo-only-0001"
    /// The secret the sample catalog checks Playback Rights tokens with (`PlaybackRightsSigner`): sign
    /// your own tokens with it to try claims (`cove serve` prints how).
    public static let rightsSecret = "cove-sample-rights-secret-demo-only"
    /// A Playback Rights token for the sample account (HS256 with `rightsSecret`; claims `accid` and
    /// `uid: sample-viewer`; no expiry).
    public static let authToken =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhY2NpZCI6IjYwMDAwMDAwMDAwMDEiLCJ1aWQiOiJzYW1wbGUtdmlld2VyIn0.WJ3ZF0XmsadVtpVqYv5EiZtoP9TzFtPcdG_Dv1e65nc"

    public enum VideoID {
        public static let bumper = "6000000000010"
        public static let ladder = "6000000000101"
        public static let audioOnly = "6000000000102"
        public static let subtitles = "6000000000103"
        public static let encrypted = "6000000000104"
        /// Server-side ad insertion: content 20 s stitched with a pre-roll, a two-ad mid-roll and a post-roll.
        public static let ssai = "6000000000105"
        /// DASH (SegmentTemplate + SegmentTimeline, separate audio set): a Widevine-protected source first,
        /// then the clear one that a device without DRM plays.
        public static let dash = "6000000000106"
        /// Common Encryption under ClearKey: DASH `cenc` with its licence from `ClearKeyLicenseServer` at
        /// `/license/clearkey` (installed by `cove serve`, `SampleCatalog.installLicenseServer`).
        public static let clearKey = "6000000000107"
        /// Listed by the playlist, absent from the catalog.
        public static let missing = "6000000000199"
    }

    public static let playlistID = "6000000000900"
    public static let playlistReferenceID = "cove-sample"

    /// The catalog folder (generating media and JSON on first use).
    public static func prepare() async throws -> URL {
        let content = try await FixtureMedia.prepare()
        let bumper = try await FixtureMedia.prepare(.init(duration: 4))
        let dash = try await DASHFixture.prepare()
        let protected = try await ProtectedFixture.prepare()
        let final = content.root.deletingLastPathComponent().appendingPathComponent("catalog-v9")
        return try await FixtureCache.shared.folder(final) { root in
            try build(into: root, content: content, bumper: bumper, dash: dash, protected: protected)
            try await FixtureGenerator.runFFmpeg(
                [
                    "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=1:duration=1", "-frames:v", "1",
                    root.appendingPathComponent("media/images/poster.jpg").path,
                ], making: "the poster"
            )
            // The thumbnail sprite: four 160×90 frames of the pattern, one per 5 s, side by side.
            try await FixtureGenerator.runFFmpeg(
                [
                    "-f", "lavfi", "-i", "testsrc2=size=\(thumbnailWidth)x\(thumbnailHeight):rate=0.2:duration=20", "-vf", "tile=4x1",
                    "-frames:v", "1", root.appendingPathComponent("media/text/thumbnails.jpg").path,
                ], making: "the thumbnail sprite"
            )
        }
    }

    /// The thumbnail sprite's tile size.
    public static let thumbnailWidth = 160
    public static let thumbnailHeight = 90

    /// The ladder video's thumbnail track: one tile of `thumbnails.jpg` per 5 s of its 20 s.
    static func thumbnailTrack() -> String {
        var text = "WEBVTT\n"
        for tile in 0..<4 {
            let x = tile * thumbnailWidth
            text += "\n00:00:\(String(format: "%02d", tile * 5)).000 --> 00:00:\(String(format: "%02d", tile * 5 + 5)).000\n"
            text += "thumbnails.jpg#xywh=\(x),0,\(thumbnailWidth),\(thumbnailHeight)\n"
        }
        return text
    }

    /// Writes the catalog into `root`, linking the media of `content` and `bumper`.
    private static func build(into root: URL, content: FixtureMedia, bumper: FixtureMedia, dash: DASHFixture, protected: ProtectedFixture) throws {
        let fm = FileManager.default
        for folder in ["videos", "playlists", "media/text", "media/images"] {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try fm.createSymbolicLink(at: root.appendingPathComponent("media/main"), withDestinationURL: content.root)
        try fm.createSymbolicLink(at: root.appendingPathComponent("media/bumper"), withDestinationURL: bumper.root)
        try fm.createSymbolicLink(at: root.appendingPathComponent("media/dash"), withDestinationURL: dash.root)
        try fm.createSymbolicLink(at: root.appendingPathComponent("media/protected"), withDestinationURL: protected.root)
        try Data(contentsOf: content.url(.webVTT)).write(to: root.appendingPathComponent("media/text/en.vtt"))
        let french = try String(contentsOf: content.url(.webVTT), encoding: .utf8).replacingOccurrences(of: "Cue ", with: "Réplique ").replacingOccurrences(
            of: " at ", with: " à ")
        try french.write(to: root.appendingPathComponent("media/text/fr.vtt"), atomically: true, encoding: .utf8)
        try thumbnailTrack().write(to: root.appendingPathComponent("media/text/thumbnails.vtt"), atomically: true, encoding: .utf8)

        try write(
            [
                "account_id": .string(accountID), "policy_keys": [.string(policyKey)], "auth_tokens": [.string(authToken)],
                "rights_secret": .string(rightsSecret), "require_auth_token": false, "require_ad_config_id": false,
            ], to: root.appendingPathComponent("catalog.json"))
        let hls = { (path: String) -> JSONValue in ["src": .string(path), "type": "application/x-mpegURL", "container": "M2TS", "codecs": "avc1,mp4a"] }
        let videos: [String: JSONObject] = [
            VideoID.bumper: [
                "id": .string(VideoID.bumper), "reference_id": "cove-bumper", "name": "Cove bumper", "duration": 4000,
                "sources": [hls("media/bumper/ladder/master.m3u8"), ["src": "media/bumper/clip.mp4", "container": "MP4", "codec": "H264"]],
                "tags": ["bumper"], "custom_fields": [:], "economics": "FREE", "cue_points": [], "text_tracks": [],
            ],
            VideoID.ladder: [
                "id": .string(VideoID.ladder), "reference_id": "adaptive-ladder", "name": "Adaptive HLS ladder", "description": "240p to 720p, 2 s segments",
                "long_description": "A three-variant HLS ladder with a progressive MP4 rendition, cue points and captions in two languages.",
                "duration": 20000, "economics": "AD_SUPPORTED", "offline_enabled": true, "tags": ["sample", "hls"], "poster": "media/images/poster.jpg",
                "custom_fields": ["genre": "test pattern"],
                "sources": [
                    [
                        "src": "media/main/clip.mp4", "container": "MP4", "codec": "H264", "avg_bitrate": 1_064_000, "width": 854, "height": 480,
                        "size": 2_660_000, "duration": 20000,
                    ],
                    hls("media/main/ladder/master.m3u8"),
                ],
                "cue_points": [
                    ["id": "cp-1", "name": "Chapter 2", "type": "CODE", "time": 5, "metadata": "chapter=2", "force_stop": false],
                    ["id": "cp-2", "name": "Mid-roll", "type": "AD", "time": 10.5, "metadata": nil, "force_stop": false],
                ],
                "text_tracks": [
                    [
                        "id": "tt-en", "src": "media/text/en.vtt", "srclang": "en", "label": "English", "kind": "captions", "mime_type": "text/vtt",
                        "default": true, "sources": [["src": "media/text/en.vtt"]],
                    ],
                    [
                        "id": "tt-fr", "src": "media/text/fr.vtt", "srclang": "fr", "label": "Français", "kind": "subtitles", "mime_type": "text/vtt",
                        "default": false, "sources": [["src": "media/text/fr.vtt"]],
                    ],
                    // Brightcove delivers scrubbing thumbnails as a metadata track labelled "thumbnails".
                    [
                        "id": "tt-thumbnails", "src": "media/text/thumbnails.vtt", "srclang": nil, "label": "thumbnails", "kind": "metadata",
                        "mime_type": "text/vtt", "default": false, "sources": [["src": "media/text/thumbnails.vtt"]],
                    ],
                ],
            ],
            VideoID.audioOnly: [
                "id": .string(VideoID.audioOnly), "reference_id": "audio-only", "offline_enabled": true, "name": "Audio only", "duration": 20000,
                "sources": [["src": "media/main/audio/master.m3u8", "type": "application/x-mpegURL", "codecs": "mp4a"]],
                "tags": ["audio"], "custom_fields": [:], "economics": "AD_SUPPORTED", "cue_points": [], "text_tracks": [],
            ],
            VideoID.subtitles: [
                "id": .string(VideoID.subtitles), "reference_id": "in-manifest-subtitles", "offline_enabled": true, "name": "Subtitles in the manifest",
                "duration": 20000,
                "sources": [hls("media/main/subtitles/master.m3u8")],
                "tags": ["subtitles"], "custom_fields": [:], "economics": "AD_SUPPORTED", "cue_points": [], "text_tracks": [],
            ],
            VideoID.ssai: [
                "id": .string(VideoID.ssai), "reference_id": "ssai-stitched", "name": "SSAI: ads stitched into the stream", "duration": 20000,
                "description": "Pre-roll, a two-ad mid-roll at 10 s and a post-roll; request it with an ad_config_id to get the VMAP",
                "sources": [
                    [
                        "src": "media/main/ladder/master.m3u8", "type": "application/x-mpegURL", "container": "M2TS", "codecs": "avc1,mp4a",
                        "vmap": .string(SSAITitle.vmapPath),
                    ]
                ],
                "tags": ["ssai"], "custom_fields": [:], "economics": "AD_SUPPORTED", "cue_points": [], "text_tracks": [],
            ],
            VideoID.dash: [
                "id": .string(VideoID.dash), "reference_id": "dash", "offline_enabled": true, "name": "DASH (clear and Widevine)", "duration": 20000,
                "description": "240p and 720p video and an AAC audio set, 2 s fMP4 segments",
                "sources": [
                    [
                        "src": "media/dash/timeline/manifest.mpd", "type": "application/dash+xml", "container": "MP4", "codecs": "avc1,mp4a",
                        "key_systems": ["com.widevine.alpha": ["license_url": "https://license.invalid/widevine"]],
                    ],
                    ["src": "media/dash/timeline/manifest.mpd", "type": "application/dash+xml", "container": "MP4", "codecs": "avc1,mp4a"],
                ],
                "tags": ["dash"], "custom_fields": [:], "economics": "AD_SUPPORTED", "cue_points": [], "text_tracks": [],
            ],
            VideoID.clearKey: [
                "id": .string(VideoID.clearKey), "reference_id": "clearkey-cenc", "name": "ClearKey (DASH cenc)",
                "duration": .int(Int64(protected.duration) * 1000),
                "description": "Common Encryption (cenc) under ClearKey; the licence comes from the catalog server's /license/clearkey",
                "sources": [
                    [
                        "src": "media/protected/cenc/manifest.mpd", "type": "application/dash+xml", "container": "MP4", "codecs": "avc1,mp4a",
                        "key_systems": ["org.w3.clearkey": ["license_url": .string(String(licensePath.dropFirst()))]],
                    ]
                ],
                "tags": ["drm", "dash"], "custom_fields": [:], "economics": "AD_SUPPORTED", "cue_points": [], "text_tracks": [],
            ],
            VideoID.encrypted: [
                "id": .string(VideoID.encrypted), "reference_id": "aes-128", "offline_enabled": true, "name": "AES-128 HLS", "duration": 20000,
                "sources": [hls("media/main/aes/master.m3u8")],
                "tags": ["encrypted"], "custom_fields": [:], "economics": "AD_SUPPORTED", "cue_points": [], "text_tracks": [],
            ],
        ]
        for (id, video) in videos {
            try write(video, to: root.appendingPathComponent("videos/\(id).json"))
        }
        try write(
            [
                "id": .string(playlistID), "reference_id": .string(playlistReferenceID), "name": "Cove sample playlist", "type": "EXPLICIT",
                "description": "Three playable videos and one the catalog does not have",
                "video_ids": [.string(VideoID.ladder), .string(VideoID.audioOnly), .string(VideoID.subtitles), .string(VideoID.missing)],
            ], to: root.appendingPathComponent("playlists/\(playlistID).json"))
    }

    /// Where `installLicenseServer` answers ClearKey licence requests.
    public static let licensePath = "/license/clearkey"

    /// The ClearKey licence server the ClearKey video names, on the catalog's media server.
    public static func installLicenseServer(on server: MediaServer) -> ClearKeyLicenseServer {
        let keys = [ProtectedFixture.key, ProtectedFixture.rotationKey].reduce(into: [KeyID: [UInt8]]()) { $0[$1.id] = $1.key }
        return ClearKeyLicenseServer(on: server, path: licensePath, keys: keys)
    }

    private static func write(_ object: JSONObject, to url: URL) throws {
        try Data(JSONValue.object(object).serialized(pretty: true).utf8).write(to: url)
    }
}
