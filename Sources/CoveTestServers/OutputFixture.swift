import CoveCore
import CoveServer
import Foundation

/// Media for output tests, where pixels and samples are checked: a solid-colour picture (so a frame's
/// colour and a caption drawn over it are unambiguous) with a steady tone, and captions for it.
/// Generated with ffmpeg once per process and cached.
public struct OutputFixture: Sendable {
    public let root: URL

    /// The picture's colour (RGB) and size, the tone's frequency.
    public static let colour: (red: UInt8, green: UInt8, blue: UInt8) = (0x20, 0x80, 0xF0)
    public static let size = (width: 320, height: 180)
    public static let frameRate = 25
    public static let duration = 8

    /// Relative paths.
    public enum Path {
        public static let movie = "solid.mp4"
        /// Two cues: "Cove caption" at 1–2.5 s (default placement, the bottom) and "Top line" at 4–5 s
        /// with `line:10%` (near the top).
        public static let captions = "captions.vtt"
    }

    public static func prepare() async throws -> OutputFixture {
        let folder = FixtureGenerator.baseDirectory.appendingPathComponent("output-v1")
        let root = try await FixtureCache.shared.folder(folder) { staging in try await generate(into: staging) }
        return OutputFixture(root: root)
    }

    /// The movie on `base` (a server of `root`), with the captions as its sidecar text track.
    public func video(on base: URL) -> Video {
        let captions = base.appendingPathComponent(Path.captions).absoluteString
        return Video(
            url: base.appendingPathComponent(Path.movie),
            properties: [
                "id": "solid", "text_tracks": [["src": .string(captions), "srclang": "en", "kind": "captions", "mime_type": "text/vtt", "default": true]],
            ])
    }

    private static func generate(into dir: URL) async throws {
        let hex = String(format: "0x%02X%02X%02X", colour.red, colour.green, colour.blue)
        try await FixtureGenerator.runFFmpeg(
            [
                "-f", "lavfi", "-i", "color=c=\(hex):s=\(size.width)x\(size.height):r=\(frameRate):d=\(duration)",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "\(frameRate)",
                "-c:a", "aac", "-b:a", "96k", "-shortest", "-movflags", "+faststart",
                dir.appendingPathComponent(Path.movie).path,
            ], making: "the solid-colour movie")
        let captions = """
            WEBVTT

            00:00:01.000 --> 00:00:02.500
            Cove caption

            00:00:04.000 --> 00:00:05.000 line:10%
            Top line

            """
        try Data(captions.utf8).write(to: dir.appendingPathComponent(Path.captions))
    }
}
