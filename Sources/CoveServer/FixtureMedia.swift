import CoveCore
import Foundation
import Synchronization

/// Small generated media for tests and demos: a 3-variant HLS ladder (MPEG-TS), fMP4 HLS, audio-only
/// HLS, AES-128 HLS, HLS with alternate audio renditions, a progressive MP4, a WebVTT file and
/// deliberately corrupt media. Generated with ffmpeg on first use and cached on disk per spec, so a
/// test run pays for it once (about 10 s on 2 cores); nothing is committed.
public struct FixtureMedia: Sendable {
    /// The folder holding every asset (serve it with `MediaServer`).
    public let root: URL
    public let spec: Spec

    /// What to generate.
    public struct Spec: Sendable, Hashable {
        /// Length of every clip.
        public var duration: Int
        /// HLS segment length; every segment starts with a keyframe.
        public var segmentDuration: Int

        public init(duration: Int = 20, segmentDuration: Int = 2) {
            self.duration = max(2, duration)
            self.segmentDuration = max(1, segmentDuration)
        }

        /// The test default: 20 s, 2 s segments.
        public static let standard = Spec()

        var cacheKey: String { "v5-\(duration)s-\(segmentDuration)s" }
    }

    /// The assets, as paths relative to `root`.
    public enum Asset: String, Sendable, CaseIterable {
        /// Master playlist with 240p/480p/720p variants (BANDWIDTH, RESOLUTION, CODECS), muxed AAC.
        case ladder = "ladder/master.m3u8"
        /// fMP4 (CMAF) HLS, one 480p variant.
        case fmp4 = "fmp4/master.m3u8"
        /// Audio-only HLS.
        case audioOnly = "audio/master.m3u8"
        /// AES-128 encrypted HLS; the key is served at `aes/key.bin`.
        case aes = "aes/master.m3u8"
        /// One video variant with two EXT-X-MEDIA audio renditions: English (default) and French.
        case alternateAudio = "altaudio/master.m3u8"
        /// One 240p variant with an in-manifest English WebVTT subtitle rendition (EXT-X-MEDIA SUBTITLES).
        case subtitles = "subtitles/master.m3u8"
        /// Progressive 480p MP4 with faststart.
        case mp4 = "clip.mp4"
        /// WebVTT with one cue every segment: "Cue N at Ns".
        case webVTT = "subs.vtt"
        /// Random bytes named like an MP4.
        case corruptMP4 = "corrupt.mp4"
        /// A valid playlist whose segments are random bytes.
        case corruptHLS = "corrupt/index.m3u8"
    }

    public func url(_ asset: Asset) -> URL { root.appendingPathComponent(asset.rawValue) }

    /// Generates (or reuses) the fixtures for `spec`.
    public static func prepare(_ spec: Spec = .standard) async throws -> FixtureMedia {
        let root = try await FixtureCache.shared.folder(FixtureGenerator.baseDirectory.appendingPathComponent(spec.cacheKey)) { staging in
            try await FixtureGenerator(spec: spec).generate(into: staging)
        }
        return FixtureMedia(root: root, spec: spec)
    }
}

/// Why fixture generation failed.
public struct FixtureError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Generated folders (fixture media, the sample catalog), each built once per process; concurrent
/// test processes coordinate through a `.complete` marker and an atomic rename, so none ever sees
/// (or deletes) another's half-built copy.
package actor FixtureCache {
    package static let shared = FixtureCache()
    private var ready: Set<URL> = []
    private var inFlight: [URL: Task<Void, any Error>] = [:]

    /// `final`, filled by `build` (given an empty staging folder) unless a complete copy is already there.
    package func folder(_ given: URL, build: @escaping @Sendable (URL) async throws -> Void) async throws -> URL {
        // One spelling per folder: `appendingPathComponent` adds a trailing slash only when the folder
        // already exists on disk, so the same folder came back as two different URLs before and after its build.
        let final = URL(fileURLWithPath: given.standardizedFileURL.path, isDirectory: true)
        if ready.contains(final) { return final }
        if let task = inFlight[final] {
            try await task.value
            return final
        }
        let task = Task.detached { try await Self.buildIfNeeded(final, build: build) }
        inFlight[final] = task
        defer { inFlight[final] = nil }
        try await task.value
        ready.insert(final)
        return final
    }

    private static func buildIfNeeded(_ final: URL, build: @Sendable (URL) async throws -> Void) async throws {
        let fm = FileManager.default
        let marker = final.appendingPathComponent(".complete")
        if fm.fileExists(atPath: marker.path) { return }
        let parent = final.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent("\(final.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? fm.removeItem(at: staging)
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        do {
            try await build(staging)
            try Data().write(to: staging.appendingPathComponent(".complete"))
        } catch {
            try? fm.removeItem(at: staging)
            throw error
        }
        // Another process may have finished first; either copy is good.
        if fm.fileExists(atPath: marker.path) {
            try? fm.removeItem(at: staging)
        } else {
            try? fm.removeItem(at: final)
            do {
                try fm.moveItem(at: staging, to: final)
            } catch {
                try? fm.removeItem(at: staging)
                guard fm.fileExists(atPath: marker.path) else { throw error }
            }
        }
    }
}

package struct FixtureGenerator {
    let spec: FixtureMedia.Spec

    package static var baseDirectory: URL {
        if let custom = ProcessInfo.processInfo.environment["COVE_FIXTURE_DIR"], !custom.isEmpty {
            return URL(fileURLWithPath: custom)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("cove-fixtures")
    }

    /// Writes every asset of the spec into `dir`.
    func generate(into dir: URL) async throws {
        let d = String(spec.duration)
        let seg = String(spec.segmentDuration)
        let gop = String(spec.segmentDuration * 24)
        let video = ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=24:duration=\(d)"]
        let tone = { (hz: Int) in ["-f", "lavfi", "-i", "sine=frequency=\(hz):sample_rate=48000:duration=\(d)"] }
        let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", gop, "-keyint_min", gop, "-sc_threshold", "0", "-x264-params", "nal-hrd=cbr"]
        let aac = ["-c:a", "aac", "-b:a", "64k", "-ac", "2"]
        let hls = { (sub: String) in
            [
                "-f", "hls", "-hls_time", seg, "-hls_playlist_type", "vod", "-hls_segment_filename", dir.path + "/\(sub)/v%v/seg%03d.ts", "-master_pl_name",
                "master.m3u8",
            ]
        }
        let fm = FileManager.default
        for sub in ["ladder", "fmp4", "audio", "aes", "altaudio", "subtitles", "corrupt"] {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }

        // 3-variant ladder: 240p 400k, 480p 1.1M, 720p 2.6M, CBR so segment sizes match the declared bitrates.
        try await ffmpeg(
            video + tone(440) + [
                "-filter_complex", "[0:v]split=3[a][b][c];[a]scale=426:240[v0];[b]scale=854:480[v1];[c]null[v2]",
                "-map", "[v0]", "-map", "[v1]", "-map", "[v2]", "-map", "1:a", "-map", "1:a", "-map", "1:a",
            ] + x264 + [
                "-b:v:0", "400k", "-maxrate:v:0", "400k", "-bufsize:v:0", "400k",
                "-b:v:1", "1100k", "-maxrate:v:1", "1100k", "-bufsize:v:1", "1100k",
                "-b:v:2", "2600k", "-maxrate:v:2", "2600k", "-bufsize:v:2", "2600k",
            ] + aac + hls("ladder") + ["-var_stream_map", "v:0,a:0 v:1,a:1 v:2,a:2", dir.path + "/ladder/v%v/index.m3u8"])

        // fMP4 HLS, one variant.
        try await ffmpeg(
            video + tone(440) + ["-map", "0:v", "-map", "1:a", "-vf", "scale=854:480"] + x264 + ["-b:v", "1000k", "-maxrate", "1000k", "-bufsize", "1000k"]
                + aac + [
                    "-f", "hls", "-hls_time", seg, "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
                    "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", dir.path + "/fmp4/v%v/seg%03d.m4s",
                    "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0", dir.path + "/fmp4/v%v/index.m3u8",
                ])

        // Audio-only HLS.
        try await ffmpeg(tone(440) + ["-map", "0:a"] + aac + hls("audio") + ["-var_stream_map", "a:0", dir.path + "/audio/v%v/index.m3u8"])

        // AES-128 HLS with a fixed key (served next to the playlist).
        let key = Data((0..<16).map { UInt8(($0 * 37 + 11) & 0xFF) })
        try key.write(to: dir.appendingPathComponent("aes/key.bin"))
        let keyInfo = dir.appendingPathComponent("aes/keyinfo")
        try "../key.bin\n\(dir.path)/aes/key.bin\n".write(to: keyInfo, atomically: true, encoding: .utf8)
        try await ffmpeg(
            video + tone(440) + ["-map", "0:v", "-map", "1:a", "-vf", "scale=426:240"] + x264 + ["-b:v", "400k", "-maxrate", "400k", "-bufsize", "400k"] + aac
                + hls("aes") + ["-hls_key_info_file", keyInfo.path, "-var_stream_map", "v:0,a:0", dir.path + "/aes/v%v/index.m3u8"])
        try? fm.removeItem(at: keyInfo)

        // One video variant and two audio renditions in an EXT-X-MEDIA group.
        try await ffmpeg(
            video + tone(440) + tone(660) + ["-map", "0:v", "-map", "1:a", "-map", "2:a", "-vf", "scale=426:240"] + x264 + [
                "-b:v", "400k", "-maxrate", "400k", "-bufsize", "400k",
            ] + aac
                + ["-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra"]
                + hls("altaudio") + [
                    "-var_stream_map", "a:0,agroup:aud,language:en,name:English,default:yes a:1,agroup:aud,language:fr,name:French v:0,agroup:aud",
                    dir.path + "/altaudio/v%v/index.m3u8",
                ])

        // WebVTT first: the subtitle rendition below is segmented from it.
        try webVTT().write(to: dir.appendingPathComponent("subs.vtt"), atomically: true, encoding: .utf8)

        // One variant with an in-manifest WebVTT subtitle rendition.
        try await ffmpeg(
            video + tone(440) + ["-i", dir.path + "/subs.vtt", "-map", "0:v", "-map", "1:a", "-map", "2:s", "-vf", "scale=426:240"] + x264
                + ["-b:v", "400k", "-maxrate", "400k", "-bufsize", "400k"] + aac + ["-c:s", "webvtt", "-metadata:s:s:0", "language=eng"]
                + hls("subtitles") + ["-var_stream_map", "v:0,a:0,s:0,sgroup:subs,language:en,name:English", dir.path + "/subtitles/v%v/index.m3u8"])
        try Self.addTimestampMaps(in: dir.appendingPathComponent("subtitles/vEnglish"))

        // Progressive MP4.
        try await ffmpeg(
            video + tone(440) + ["-map", "0:v", "-map", "1:a", "-vf", "scale=854:480"] + x264 + ["-b:v", "1000k"] + aac + [
                "-movflags", "+faststart", dir.path + "/clip.mp4",
            ])

        // Corrupt media: deterministic noise (SplitMix64 from a fixed seed, so every machine makes the same bytes).
        var state: UInt64 = 0xC0DE
        let noise = Data(
            (0..<65_536).map { _ -> UInt8 in
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return UInt8(truncatingIfNeeded: z ^ (z >> 31))
            })
        try noise.write(to: dir.appendingPathComponent("corrupt.mp4"))
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(spec.segmentDuration)\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for n in 0..<3 {
            try noise.write(to: dir.appendingPathComponent("corrupt/seg\(n).ts"))
            playlist += "#EXTINF:\(spec.segmentDuration).0,\nseg\(n).ts\n"
        }
        playlist += "#EXT-X-ENDLIST\n"
        try playlist.write(to: dir.appendingPathComponent("corrupt/index.m3u8"), atomically: true, encoding: .utf8)
    }

    /// One cue per segment: "Cue N at Ns".
    /// ffmpeg writes segmented WebVTT without `X-TIMESTAMP-MAP`, which HLS requires (RFC 8216 §3.5) and
    /// real packagers always write; without it a player misplaces every cue. Its TS segments start at
    /// PTS 1.4 s (90 kHz: 126000), which is media time 0.
    private static func addTimestampMaps(in folder: URL) throws {
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) where file.pathExtension == "vtt" {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.hasPrefix("WEBVTT"), !text.contains("X-TIMESTAMP-MAP") else { continue }
            let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let rest = lines.count > 1 ? String(lines[1]) : "\n"
            try (String(lines[0]) + "\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n" + rest).write(to: file, atomically: true, encoding: .utf8)
        }
    }

    private func webVTT() -> String {
        var vtt = "WEBVTT\n\n"
        for (n, start) in stride(from: 0, to: spec.duration, by: spec.segmentDuration).enumerated() {
            vtt += "cue-\(n + 1)\n\(Self.vttTime(start)).000 --> \(Self.vttTime(start + spec.segmentDuration - 1)).900\nCue \(n + 1) at \(start)s\n\n"
        }
        return vtt
    }

    package static func vttTime(_ seconds: Int) -> String {
        let h = seconds / 3600, m = (seconds / 60) % 60, s = seconds % 60
        return String(format: "%02d:%02d:%02d", h, m, s)
    }

    private func ffmpeg(_ arguments: [String]) async throws {
        try await Self.runFFmpeg(arguments)
    }

    /// Runs ffmpeg quietly, overwriting outputs; a missing or failing ffmpeg is a `FixtureError`
    /// saying what to install or what ffmpeg said.
    package static func runFFmpeg(_ arguments: [String], making what: String? = nil) async throws {
        let result: ProcessRunner.Result
        do {
            result = try await ProcessRunner.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments)
        } catch {
            throw FixtureError(description: "ffmpeg could not be started (\(error)); install it with `make deps`")
        }
        guard result.status == 0 else {
            if result.status == 127 { throw FixtureError(description: "ffmpeg is not installed; run `make deps`") }
            throw FixtureError(description: "ffmpeg failed (\(result.status))\(what.map { " making \($0)" } ?? ""): \(result.errorOutput.suffix(800))")
        }
    }
}
