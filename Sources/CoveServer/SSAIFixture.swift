import Foundation

/// A stitched SSAI stream for tests and demos, the shape Brightcove's Dynamic Delivery SSAI hands a
/// player: one HLS stream in which the ads are already part of the media, plus (from `SSAITitle`)
/// the VMAP saying where they are. Ads must be found by time, so every piece is a whole number of
/// 2 s segments with a keyframe at each boundary: an ad's stream range is exact, not approximate.
///
/// Layout (stream time): pre-roll ad 0–4, content 4–14 (content 0–10), a two-ad mid-roll 14–22,
/// content 22–32 (content 10–20), post-roll ad 32–36. Content is the `testsrc2` pattern with a
/// 440 Hz tone; each ad is a solid colour with its own tone, so a frame or a second of audio tells
/// which piece is playing. 240p, about 1.3 MB. Generated with ffmpeg on first use and cached on disk.
public struct SSAIFixture: Sendable {
    /// The folder holding the stream (`stream/…`) and the images (`companion.png`, `thumbnail.jpg`).
    public let root: URL

    /// One piece of the stitched stream.
    public struct Piece: Sendable, Hashable {
        /// The VAST ad id, or nil for content.
        public let adID: String?
        /// Stream time where the piece starts, in seconds.
        public let streamStart: Int
        public let duration: Int
        /// The solid colour (0xRRGGBB) of an ad; nil for content.
        public let colour: Int?
        /// The sine tone's frequency.
        public let toneHz: Int

        public var streamRange: Range<Int> { streamStart..<(streamStart + duration) }
        public var isAd: Bool { adID != nil }
    }

    /// Every piece in stream order.
    public static let pieces: [Piece] = [
        Piece(adID: "ad-pre", streamStart: 0, duration: 4, colour: 0xE03020, toneHz: 880),
        Piece(adID: nil, streamStart: 4, duration: 10, colour: nil, toneHz: 440),
        Piece(adID: "ad-mid-1", streamStart: 14, duration: 4, colour: 0x20A040, toneHz: 1000),
        Piece(adID: "ad-mid-2", streamStart: 18, duration: 4, colour: 0x2050E0, toneHz: 1200),
        Piece(adID: nil, streamStart: 22, duration: 10, colour: nil, toneHz: 440),
        Piece(adID: "ad-post", streamStart: 32, duration: 4, colour: 0xE0B020, toneHz: 660),
    ]

    public static let segmentDuration = 2
    public static let contentDuration = 20
    public static let streamDuration = 36
    /// Content time of the mid-roll.
    public static let midRollContentOffset = 10

    /// The stitched master playlist, relative to `root` (one 240p variant).
    public static let masterPath = "stream/master.m3u8"
    /// The media playlist, relative to `root`.
    public static let mediaPlaylistPath = "stream/index.m3u8"
    /// A 300×250 companion banner.
    public static let companionPath = "companion.png"
    /// A 160×90 still, the thumbnail track's only image.
    public static let thumbnailPath = "thumbnail.jpg"

    public func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    /// Generates (or reuses) the stitched stream.
    public static func prepare() async throws -> SSAIFixture {
        let final = FixtureGenerator.baseDirectory.appendingPathComponent("ssai-v1")
        let root = try await FixtureCache.shared.folder(final) { staging in try await generate(into: staging) }
        return SSAIFixture(root: root)
    }

    private static func generate(into dir: URL) async throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("stream"), withIntermediateDirectories: true)
        let size = "426x240"
        // Content comes from one 20 s source cut in two, so part 2 continues where part 1 stopped.
        var graph = [
            "testsrc2=s=\(size):r=24:d=\(contentDuration),split[cva][cvb]",
            "[cva]trim=0:\(midRollContentOffset),setpts=PTS-STARTPTS[cv0]",
            "[cvb]trim=\(midRollContentOffset):\(contentDuration),setpts=PTS-STARTPTS[cv1]",
            "sine=f=440:r=48000:d=\(contentDuration),asplit[caa][cab]",
            "[caa]atrim=0:\(midRollContentOffset),asetpts=PTS-STARTPTS[ca0]",
            "[cab]atrim=\(midRollContentOffset):\(contentDuration),asetpts=PTS-STARTPTS[ca1]",
        ]
        var concatInputs = ""
        var contentIndex = 0
        for (n, piece) in pieces.enumerated() {
            if let colour = piece.colour {
                graph.append("color=c=0x\(String(format: "%06X", colour)):s=\(size):r=24:d=\(piece.duration)[v\(n)]")
                graph.append("sine=f=\(piece.toneHz):r=48000:d=\(piece.duration)[a\(n)]")
                concatInputs += "[v\(n)][a\(n)]"
            } else {
                concatInputs += "[cv\(contentIndex)][ca\(contentIndex)]"
                contentIndex += 1
            }
        }
        graph.append("\(concatInputs)concat=n=\(pieces.count):v=1:a=1[v][a]")
        let gop = String(segmentDuration * 24)
        try await FixtureGenerator.runFFmpeg([
            "-filter_complex", graph.joined(separator: ";"), "-map", "[v]", "-map", "[a]",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-b:v", "300k", "-maxrate", "300k", "-bufsize", "300k",
            "-g", gop, "-keyint_min", gop, "-sc_threshold", "0", "-force_key_frames", "expr:gte(t,n_forced*\(segmentDuration))",
            "-c:a", "aac", "-b:a", "64k", "-ac", "2",
            "-f", "hls", "-hls_time", String(segmentDuration), "-hls_playlist_type", "vod",
            "-hls_segment_filename", dir.path + "/stream/seg%03d.ts", dir.appendingPathComponent(mediaPlaylistPath).path,
        ])
        let master =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=420000,AVERAGE-BANDWIDTH=380000,RESOLUTION=426x240,CODECS=\"avc1.42c015,mp4a.40.2\"\nindex.m3u8\n"
        try master.write(to: dir.appendingPathComponent(masterPath), atomically: true, encoding: .utf8)
        try await FixtureGenerator.runFFmpeg([
            "-f", "lavfi", "-i", "color=c=0xF08000:s=300x250", "-frames:v", "1", dir.appendingPathComponent(companionPath).path,
        ])
        try await FixtureGenerator.runFFmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x90", "-frames:v", "1", dir.appendingPathComponent(thumbnailPath).path])
    }
}
