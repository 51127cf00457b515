import CoveCore
import Foundation

/// Protected test media made here from clear ffmpeg output with `CommonEncryptionPackager`, cached on disk
/// like the other fixtures (nothing committed): DASH (a 240p and a 720p representation, AAC audio, 2 s
/// segments) clear, `cenc`, `cbcs` and `cenc` with a key rotation at segment 4; and fMP4 HLS `cbcs`
/// (`SAMPLE-AES`, identity key format) with the same ladder and an audio rendition.
///
/// The protected DASH manifests also list a WebVTT text set ("Cue N at Ns" every 2 s). They declare the
/// Common Encryption signal with `cenc:default_KID`, ClearKey (with its `pssh` in `cenc:pssh`) and Widevine
/// (a vendor module stands in for Widevine in tests); the init segments carry the same ClearKey `pssh`.
/// The HLS masters list the same captions as a WebVTT subtitle rendition; the ClearKey one declares its key
/// in `EXT-X-SESSION-KEY` too.
public struct ProtectedFixture: Sendable {
    public let root: URL
    public let duration: Int

    public enum Asset: String, Sendable, CaseIterable {
        case dashClear = "clear/manifest.mpd"
        case dashCENC = "cenc/manifest.mpd"
        case dashCBCS = "cbcs/manifest.mpd"
        /// `cenc`, segments from the 4th on under `rotationKey`, declared by `seig` sample groups.
        case dashRotation = "rotation/manifest.mpd"
        /// fMP4 HLS, `cbcs`, `METHOD=SAMPLE-AES,KEYFORMAT="identity"`: the key at `hls-cbcs/key.bin`.
        case hlsCBCS = "hls-cbcs/master.m3u8"
        /// The same fMP4 HLS `cbcs` media under the ClearKey key format: `KEYFORMAT` is ClearKey's system ID
        /// and the key URI a `data:` URL of its `pssh`, in `EXT-X-SESSION-KEY` and in each media playlist's
        /// `EXT-X-KEY`; the keys come from a licence server (Shaka's HLS ClearKey).
        case hlsCBCSClearKey = "hls-cbcs/master-clearkey.m3u8"
    }

    /// The content key of every asset (and of the rotation asset's first segments).
    public static let key = CommonEncryptionPackager.Key(
        id: KeyID(hex: "00112233445566778899aabbccddeeff")!, key: HexBytes.decode("3c4a1f0e9b2d7a6c5e8f01d2c3b4a596")!)
    /// The rotation asset's second key.
    public static let rotationKey = CommonEncryptionPackager.Key(
        id: KeyID(hex: "ffeeddccbbaa99887766554433221100")!, key: HexBytes.decode("a1b2c3d4e5f60718293a4b5c6d7e8f90")!)
    /// Segment number (from 1) at which the rotation asset changes key.
    public static let rotationSegment = 4

    /// The `cove play --clearkey` form of the keys.
    public static var clearKeyPairs: [String] { [key, rotationKey].map { "\($0.id.hex):\(HexBytes.encode($0.key))" } }

    public func url(_ asset: Asset) -> URL { root.appendingPathComponent(asset.rawValue) }

    public static func prepare(duration: Int = 12) async throws -> ProtectedFixture {
        let duration = max(6, duration)
        let folder = FixtureGenerator.baseDirectory.appendingPathComponent("protected-v4-\(duration)s")
        let root = try await FixtureCache.shared.folder(folder) { staging in
            try await generate(into: staging, duration: duration)
        }
        return ProtectedFixture(root: root, duration: duration)
    }

    private static func generate(into dir: URL, duration: Int) async throws {
        let fm = FileManager.default
        let input = [
            "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=24:duration=\(duration)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)",
        ]
        let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0", "-x264-params", "nal-hrd=cbr"]
        let aac = ["-c:a", "aac", "-b:a", "64k", "-ac", "2"]
        let ladder = [
            "-filter_complex", "[0:v]split=2[a][b];[a]scale=426:240[v0];[b]null[v1]", "-map", "[v0]", "-map", "[v1]", "-map", "1:a",
            "-b:v:0", "400k", "-maxrate:v:0", "400k", "-bufsize:v:0", "400k",
            "-b:v:1", "2000k", "-maxrate:v:1", "2000k", "-bufsize:v:1", "2000k",
        ]
        let clear = dir.appendingPathComponent("clear")
        try fm.createDirectory(at: clear, withIntermediateDirectories: true)
        try await FixtureGenerator.runFFmpeg(
            input + ladder + x264 + aac + [
                "-f", "dash", "-seg_duration", "2", "-use_template", "1", "-use_timeline", "0", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
                clear.path + "/manifest.mpd",
            ], making: "protected DASH (clear source)")
        let mpd = try String(contentsOf: clear.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        for (name, packager) in [
            ("cenc", CommonEncryptionPackager(scheme: .cenc, key: key)),
            ("cbcs", CommonEncryptionPackager(scheme: .cbcs, key: key)),
            ("rotation", CommonEncryptionPackager(scheme: .cenc, key: key, rotation: (rotationSegment, rotationKey))),
        ] {
            let out = dir.appendingPathComponent(name)
            try fm.createDirectory(at: out, withIntermediateDirectories: true)
            for file in try fm.contentsOfDirectory(atPath: clear.path) where file.hasSuffix(".m4s") {
                let data = try Data(contentsOf: clear.appendingPathComponent(file))
                // init-stream<N>.m4s and chunk-stream<N>-<number>.m4s; stream 2 is the audio.
                let isVideo = !file.hasPrefix("init-stream2") && !file.hasPrefix("chunk-stream2")
                let encrypted: Data
                if file.hasPrefix("init-") {
                    encrypted = try packager.encryptInit(data)
                } else {
                    let number = Int(file.split(separator: "-").last!.prefix { $0.isNumber }) ?? 1
                    encrypted = try packager.encryptFragment(data, sequence: number, isVideo: isVideo)
                }
                try encrypted.write(to: out.appendingPathComponent(file))
            }
            try protectedMPD(mpd, packager: packager).write(to: out.appendingPathComponent("manifest.mpd"), atomically: true, encoding: .utf8)
            // A WebVTT text set (clear, as packagers leave text): "Cue N at Ns" every 2 s.
            try DASHFixture.addTextSet(to: out, duration: duration)
        }

        // fMP4 HLS: an audio rendition and two video variants, then cbcs with SAMPLE-AES.
        let hls = dir.appendingPathComponent("hls-cbcs")
        try fm.createDirectory(at: hls, withIntermediateDirectories: true)
        try await FixtureGenerator.runFFmpeg(
            input + ladder + x264 + aac + [
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                "-hls_segment_filename", hls.path + "/v%v/seg%03d.m4s", "-master_pl_name", "master.m3u8",
                "-var_stream_map", "a:0,agroup:aud,language:en,name:English,default:yes v:0,agroup:aud v:1,agroup:aud", hls.path + "/v%v/index.m3u8",
            ], making: "protected HLS (clear source)")
        try Data(key.key).write(to: hls.appendingPathComponent("key.bin"))
        let packager = CommonEncryptionPackager(scheme: .cbcs, key: key)
        for stream in try fm.contentsOfDirectory(atPath: hls.path) where stream.hasPrefix("v") {
            let folder = hls.appendingPathComponent(stream)
            // ffmpeg names the audio rendition's folder after it (vEnglish), the video variants' by index.
            let isVideo = stream != "vEnglish"
            for file in try fm.contentsOfDirectory(atPath: folder.path) {
                let path = folder.appendingPathComponent(file)
                if file.hasPrefix("init"), file.hasSuffix(".mp4") {
                    try packager.encryptInit(try Data(contentsOf: path)).write(to: path)
                } else if file.hasSuffix(".m4s") {
                    let number = (Int(file.dropFirst(3).prefix { $0.isNumber }) ?? 0) + 1
                    try packager.encryptFragment(try Data(contentsOf: path), sequence: number, isVideo: isVideo).write(to: path)
                } else if file == "index.m3u8" {
                    let text = try String(contentsOf: path, encoding: .utf8)
                    let keyed = text.replacingOccurrences(
                        of: "#EXT-X-MAP:", with: "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"../key.bin\",KEYFORMAT=\"identity\"\n#EXT-X-MAP:")
                    try keyed.write(to: path, atomically: true, encoding: .utf8)
                    let clearKeyed = text.replacingOccurrences(of: "#EXT-X-MAP:", with: clearKeyTag("EXT-X-KEY", packager) + "\n#EXT-X-MAP:")
                    try clearKeyed.write(to: folder.appendingPathComponent("index-clearkey.m3u8"), atomically: true, encoding: .utf8)
                }
            }
        }
        try addSubtitles(to: hls, duration: duration)
        let master = try String(contentsOf: hls.appendingPathComponent("master.m3u8"), encoding: .utf8)
        let clearKeyMaster = master.replacingOccurrences(of: "/index.m3u8", with: "/index-clearkey.m3u8")
            .replacingOccurrences(of: "#EXT-X-VERSION:7\n", with: "#EXT-X-VERSION:7\n" + clearKeyTag("EXT-X-SESSION-KEY", packager) + "\n")
        guard clearKeyMaster.contains("EXT-X-SESSION-KEY") else { throw FixtureError(description: "ffmpeg wrote an HLS master without #EXT-X-VERSION:7") }
        try clearKeyMaster.write(to: hls.appendingPathComponent("master-clearkey.m3u8"), atomically: true, encoding: .utf8)
    }

    /// `EXT-X-KEY` (or `EXT-X-SESSION-KEY`) for `SAMPLE-AES` under ClearKey's key format: the `pssh` as a
    /// base64 `data:` URL.
    static func clearKeyTag(_ tag: String, _ packager: CommonEncryptionPackager) -> String {
        let pssh = Data(packager.clearKeySystemHeader).base64EncodedString()
        return
            "#\(tag):METHOD=SAMPLE-AES,URI=\"data:text/plain;base64,\(pssh)\",KEYFORMAT=\"urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e\",KEYFORMATVERSIONS=\"1\""
    }

    /// A WebVTT subtitle rendition ("Cue N at Ns" every 2 s, as the DASH text set) in the master playlist,
    /// every variant pointing at its group.
    static func addSubtitles(to hls: URL, duration: Int) throws {
        var vtt = "WEBVTT\n\n"
        for start in stride(from: 0, to: duration, by: 2) {
            vtt += "\(FixtureGenerator.vttTime(start)).000 --> \(FixtureGenerator.vttTime(start + 1)).900\nCue \(start / 2 + 1) at \(start)s\n\n"
        }
        try Data(vtt.utf8).write(to: hls.appendingPathComponent("subs.vtt"))
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(duration)\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:\(duration).000,\nsubs.vtt\n#EXT-X-ENDLIST\n"
        try Data(playlist.utf8).write(to: hls.appendingPathComponent("subs.m3u8"))
        let masterURL = hls.appendingPathComponent("master.m3u8")
        var lines = try String(contentsOf: masterURL, encoding: .utf8).components(separatedBy: "\n")
        lines = lines.map { $0.hasPrefix("#EXT-X-STREAM-INF:") ? $0 + ",SUBTITLES=\"subs\"" : $0 }
        guard let first = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) else {
            throw FixtureError(description: "ffmpeg wrote an HLS master without EXT-X-STREAM-INF")
        }
        lines.insert(#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs.m3u8""#, at: first)
        try lines.joined(separator: "\n").write(to: masterURL, atomically: true, encoding: .utf8)
    }

    /// The clear MPD with each adaptation set declaring its protection.
    static func protectedMPD(_ mpd: String, packager: CommonEncryptionPackager) -> String {
        let uuid = ProtectedInitSegmentUUID.string(key.id)
        let pssh = Data(packager.clearKeySystemHeader).base64EncodedString()
        let protection = """
            <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="\(packager.scheme.rawValue)" cenc:default_KID="\(uuid)"/>
            <ContentProtection schemeIdUri="urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e" value="ClearKey1.0"><cenc:pssh>\(pssh)</cenc:pssh></ContentProtection>
            <ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed" value="Widevine"/>
            """
        var text = mpd.replacingOccurrences(of: "<MPD ", with: "<MPD xmlns:cenc=\"urn:mpeg:cenc:2013\" ")
        var result = ""
        while let range = text.range(of: "<AdaptationSet") {
            guard let close = text[range.upperBound...].firstIndex(of: ">") else { break }
            result += text[..<text.index(after: close)] + "\n" + protection + "\n"
            text = String(text[text.index(after: close)...])
        }
        return result + text
    }
}

/// A key ID as the UUID text `cenc:default_KID` takes.
enum ProtectedInitSegmentUUID {
    static func string(_ kid: KeyID) -> String {
        let h = Array(kid.hex)
        return [String(h[0..<8]), String(h[8..<12]), String(h[12..<16]), String(h[16..<20]), String(h[20..<32])].joined(separator: "-")
    }
}
