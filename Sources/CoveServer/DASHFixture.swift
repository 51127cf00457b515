import Foundation

/// Generated DASH VOD content in each of the MPD's addressing modes, the same media in each: a 240p
/// (400 kbit/s) and a 720p (2 Mbit/s) video representation and a 64 kbit/s AAC audio adaptation set,
/// fMP4, 2 s segments each starting on a keyframe. Made with ffmpeg's DASH and MP4 muxers on first use and
/// cached on disk like `FixtureMedia` (about 10 s on 2 cores); nothing is committed.
public struct DASHFixture: Sendable {
    public let root: URL
    public let duration: Int

    public enum Asset: String, Sendable, CaseIterable {
        /// `SegmentTemplate` with `SegmentTimeline` and `$Number%05d$` (ffmpeg `-use_timeline 1`), plus an
        /// English WebVTT text set (one file, `Role` main): "Cue N at Ns" every 2 s.
        case timeline = "timeline/manifest.mpd"
        /// `SegmentTemplate` with `@duration` (ffmpeg `-use_timeline 0`).
        case number = "number/manifest.mpd"
        /// `SegmentList` of byte ranges in one file per representation (ffmpeg `-single_file 1`).
        case list = "list/manifest.mpd"
        /// `SegmentBase`: one fragmented MP4 per representation indexed by its `sidx` box (written here).
        case base = "base/manifest.mpd"
    }

    public func url(_ asset: Asset) -> URL { root.appendingPathComponent(asset.rawValue) }

    public static func prepare(duration: Int = 20) async throws -> DASHFixture {
        let duration = max(4, duration)
        let folder = FixtureGenerator.baseDirectory.appendingPathComponent("dash-v3-\(duration)s")
        let root = try await FixtureCache.shared.folder(folder) { staging in
            try await generate(into: staging, duration: duration)
        }
        return DASHFixture(root: root, duration: duration)
    }

    private static func generate(into dir: URL, duration: Int) async throws {
        let fm = FileManager.default
        for sub in ["timeline", "number", "list", "base"] {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let input = [
            "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=24:duration=\(duration)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)",
        ]
        let gop = ["-g", "48", "-keyint_min", "48", "-sc_threshold", "0"]
        let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "nal-hrd=cbr"] + gop
        let aac = ["-c:a", "aac", "-b:a", "64k", "-ac", "2"]
        let ladder = [
            "-filter_complex", "[0:v]split=2[a][b];[a]scale=426:240[v0];[b]null[v1]", "-map", "[v0]", "-map", "[v1]", "-map", "1:a",
            "-b:v:0", "400k", "-maxrate:v:0", "400k", "-bufsize:v:0", "400k",
            "-b:v:1", "2000k", "-maxrate:v:1", "2000k", "-bufsize:v:1", "2000k",
        ]
        let dash = ["-f", "dash", "-seg_duration", "2", "-use_template", "1", "-adaptation_sets", "id=0,streams=v id=1,streams=a"]
        try await FixtureGenerator.runFFmpeg(
            input + ladder + x264 + aac + dash + ["-use_timeline", "1", dir.path + "/timeline/manifest.mpd"], making: "DASH (SegmentTimeline)")
        try addTextSet(to: dir.appendingPathComponent("timeline"), duration: duration)
        try await FixtureGenerator.runFFmpeg(
            input + ladder + x264 + aac + dash + ["-use_timeline", "0", dir.path + "/number/manifest.mpd"], making: "DASH ($Number$)")
        try await FixtureGenerator.runFFmpeg(
            input + ladder + x264 + aac + dash + ["-single_file", "1", dir.path + "/list/manifest.mpd"], making: "DASH (SegmentList)")

        // SegmentBase: ffmpeg's DASH muxer writes a SegmentList for single files, so the representations
        // are fragmented MP4s with a global sidx, and the MPD is written here from their box layout. Video
        // fragments at each keyframe (2 s); audio, all keyframes, every 2 s of media.
        let fragmented = ["-movflags", "+frag_keyframe+empty_moov+default_base_moof+global_sidx"]
        let base = dir.appendingPathComponent("base")
        try await FixtureGenerator.runFFmpeg(
            input + ["-map", "0:v", "-vf", "scale=426:240", "-b:v", "400k", "-maxrate", "400k", "-bufsize", "400k"] + x264 + fragmented + [
                base.path + "/v240.mp4"
            ], making: "DASH (SegmentBase 240p)")
        try await FixtureGenerator.runFFmpeg(
            input + ["-map", "0:v", "-b:v", "2000k", "-maxrate", "2000k", "-bufsize", "2000k"] + x264 + fragmented + [base.path + "/v720.mp4"],
            making: "DASH (SegmentBase 720p)")
        try await FixtureGenerator.runFFmpeg(
            input + ["-map", "1:a"] + aac + fragmented + ["-frag_duration", "2000000", base.path + "/audio.mp4"], making: "DASH (SegmentBase audio)")
        func segmentBase(_ file: String) throws -> String {
            let (initEnd, sidx) = try sidxRange(of: base.appendingPathComponent(file))
            return
                "<BaseURL>\(file)</BaseURL><SegmentBase indexRange=\"\(sidx.lowerBound)-\(sidx.upperBound)\"><Initialization range=\"0-\(initEnd)\"/></SegmentBase>"
        }
        let mpd = """
            <?xml version="1.0" encoding="utf-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT\(duration)S" minBufferTime="PT2S">
              <Period id="0" start="PT0S">
                <AdaptationSet id="0" contentType="video" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">
                  <Representation id="v240" codecs="avc1.42c015" bandwidth="400000" width="426" height="240">\(try segmentBase("v240.mp4"))</Representation>
                  <Representation id="v720" codecs="avc1.42c01f" bandwidth="2000000" width="1280" height="720">\(try segmentBase("v720.mp4"))</Representation>
                </AdaptationSet>
                <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4" lang="en" segmentAlignment="true" startWithSAP="1">
                  <Representation id="audio" codecs="mp4a.40.2" bandwidth="64000" audioSamplingRate="48000">\(try segmentBase("audio.mp4"))</Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """
        try Data(mpd.utf8).write(to: base.appendingPathComponent("manifest.mpd"))
    }

    /// Writes `subs.vtt` beside the manifest and lists it as a text adaptation set (the sidecar form DASH
    /// packagers use for WebVTT).
    static func addTextSet(to folder: URL, duration: Int) throws {
        var vtt = "WEBVTT\n\n"
        for start in stride(from: 0, to: duration, by: 2) {
            vtt += "\(FixtureGenerator.vttTime(start)).000 --> \(FixtureGenerator.vttTime(start + 1)).900\nCue \(start / 2 + 1) at \(start)s\n\n"
        }
        try Data(vtt.utf8).write(to: folder.appendingPathComponent("subs.vtt"))
        let manifest = folder.appendingPathComponent("manifest.mpd")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let set = """
            <AdaptationSet id="2" contentType="text" mimeType="text/vtt" lang="en"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>\
            <Representation id="sub-en" bandwidth="256"><BaseURL>subs.vtt</BaseURL></Representation></AdaptationSet>
            """
        guard let end = text.range(of: "</Period>") else { throw FixtureError(description: "ffmpeg wrote an MPD without </Period>") }
        try Data(text.replacingCharacters(in: end, with: set + "\n</Period>").utf8).write(to: manifest)
    }

    /// The last byte of the initialization part (ftyp + moov) and the byte range of the sidx box that
    /// follows it, read from the file's top-level boxes.
    private static func sidxRange(of file: URL) throws -> (initEnd: Int, sidx: ClosedRange<Int>) {
        let bytes = [UInt8](try Data(contentsOf: file))
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard size >= 8 else { break }
            if type == "sidx" { return (offset - 1, offset...(offset + size - 1)) }
            offset += size
        }
        throw FixtureError(description: "ffmpeg wrote \(file.lastPathComponent) without a sidx box; the SegmentBase fixture needs ffmpeg's global_sidx")
    }
}
