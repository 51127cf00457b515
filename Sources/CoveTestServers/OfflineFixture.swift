import CoveCore
import CoveServer
import Foundation

/// A title shaped like a Video Cloud video worth downloading: a multi-variant HLS stream whose variants
/// carry video only (240p 400 kbit/s, 720p 2.6 Mbit/s), two alternate audio renditions (English default,
/// French), an in-manifest English WebVTT subtitle rendition, plus a catalog caption track (sidecar
/// WebVTT), a poster and a thumbnail sprite track. Generated with ffmpeg once per process and cached.
public struct OfflineFixture: Sendable {
    public let root: URL
    public let duration: Int

    /// Relative paths of the title's files.
    public enum Path {
        public static let master = "package/master.m3u8"
        public static let sidecarCaptions = "captions/en.vtt"
        public static let poster = "images/poster.jpg"
        public static let thumbnailTrack = "thumbs/thumbs.vtt"
    }

    public static func prepare(duration: Int = 20) async throws -> OfflineFixture {
        let folder = FixtureGenerator.baseDirectory.appendingPathComponent("offline-v1-\(duration)s")
        let root = try await FixtureCache.shared.folder(folder) { staging in try await generate(into: staging, duration: duration) }
        return OfflineFixture(root: root, duration: duration)
    }

    /// The title as the Playback API would deliver it, its URLs on `server` (which serves `root`).
    public func video(on base: URL, id: String = "6000000000700", offlineEnabled: Bool? = true) -> Video {
        func url(_ path: String) -> String { base.appendingPathComponent(path).absoluteString }
        var properties: JSONObject = [
            "id": .string(id), "name": "Offline title", "duration": .int(Int64(duration * 1000)),
            "poster": .string(url(Path.poster)),
            "text_tracks": [
                [
                    "id": "tt-en", "src": .string(url(Path.sidecarCaptions)), "srclang": "en", "label": "English (catalog)", "kind": "captions",
                    "mime_type": "text/vtt", "default": true,
                ],
                ["src": .string(url(Path.thumbnailTrack)), "kind": "metadata", "label": "thumbnails", "mime_type": "text/vtt"],
            ],
        ]
        if let offlineEnabled { properties["offline_enabled"] = .bool(offlineEnabled) }
        return Video(source: Source(url: base.appendingPathComponent(Path.master), deliveryMethod: .hls), properties: properties)
    }

    /// Every stored media file of the title under `root` (segments, playlists' targets): what a download
    /// copies byte for byte.
    public func files(under folder: String) throws -> [URL] {
        let directory = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).sorted { $0.path < $1.path }
    }

    private static func generate(into dir: URL, duration: Int) async throws {
        let fm = FileManager.default
        for sub in ["package", "captions", "images", "thumbs"] {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let d = String(duration)
        let video = ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=24:duration=\(d)"]
        let tone = { (hz: Int) in ["-f", "lavfi", "-i", "sine=frequency=\(hz):sample_rate=48000:duration=\(d)"] }
        try await FixtureGenerator.runFFmpeg(
            video + tone(440) + tone(660) + [
                "-filter_complex", "[0:v]split=2[a][b];[a]scale=426:240[v0];[b]null[v1]",
                "-map", "[v0]", "-map", "[v1]", "-map", "1:a", "-map", "2:a",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0", "-x264-params", "nal-hrd=cbr",
                "-b:v:0", "400k", "-maxrate:v:0", "400k", "-bufsize:v:0", "400k",
                "-b:v:1", "2600k", "-maxrate:v:1", "2600k", "-bufsize:v:1", "2600k",
                "-c:a", "aac", "-b:a", "64k", "-ac", "2", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_filename", dir.path + "/package/%v/seg%03d.ts", "-master_pl_name",
                "master.m3u8",
                "-var_stream_map",
                "v:0,agroup:aud,name:v240 v:1,agroup:aud,name:v720 a:0,agroup:aud,language:en,name:English,default:yes a:1,agroup:aud,language:fr,name:French",
                dir.path + "/package/%v/index.m3u8",
            ], making: "the offline title")
        // The subtitle rendition: one WebVTT segment per 2 s, each with the HLS timestamp map (TS media time 0 = 1.4 s).
        try fm.createDirectory(at: dir.appendingPathComponent("package/subs"), withIntermediateDirectories: true)
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (index, start) in stride(from: 0, to: duration, by: 2).enumerated() {
            let cue =
                "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n\(FixtureGenerator.vttTime(start)).000 --> \(FixtureGenerator.vttTime(start + 1)).900\nSubtitle \(index + 1) at \(start)s\n"
            try cue.write(to: dir.appendingPathComponent("package/subs/seg\(index).vtt"), atomically: true, encoding: .utf8)
            playlist += "#EXTINF:2.0,\nseg\(index).vtt\n"
        }
        try (playlist + "#EXT-X-ENDLIST\n").write(to: dir.appendingPathComponent("package/subs/index.m3u8"), atomically: true, encoding: .utf8)
        let masterURL = dir.appendingPathComponent(Path.master)
        var master = try String(contentsOf: masterURL, encoding: .utf8)
        master = master.replacingOccurrences(of: "#EXT-X-STREAM-INF:", with: "#EXT-X-STREAM-INF:SUBTITLES=\"subs\",")
        master = master.replacingOccurrences(
            of: "#EXTM3U\n",
            with: "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=NO,AUTOSELECT=YES,URI=\"subs/index.m3u8\"\n"
        )
        try master.write(to: masterURL, atomically: true, encoding: .utf8)
        // The catalog's sidecar caption track.
        var vtt = "WEBVTT\n\n"
        for (index, start) in stride(from: 0, to: duration, by: 2).enumerated() {
            vtt += "c\(index + 1)\n\(FixtureGenerator.vttTime(start)).000 --> \(FixtureGenerator.vttTime(start + 1)).900\nCaption \(index + 1) at \(start)s\n\n"
        }
        try vtt.write(to: dir.appendingPathComponent(Path.sidecarCaptions), atomically: true, encoding: .utf8)
        // Poster and thumbnail sprite.
        try await FixtureGenerator.runFFmpeg(
            ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=1:duration=1", "-frames:v", "1", dir.appendingPathComponent(Path.poster).path],
            making: "the poster")
        let sprites = try await SpriteSheetFixture.make()
        defer { sprites.remove() }
        try fm.copyItem(at: sprites.directory.appendingPathComponent("sprite.jpg"), to: dir.appendingPathComponent("thumbs/sprite.jpg"))
        try SpriteSheetFixture.track(image: "sprite.jpg", percent: false).write(
            to: dir.appendingPathComponent(Path.thumbnailTrack), atomically: true, encoding: .utf8)
    }
}
