import CoveServer
import CoveTestSupport
import Foundation

/// A generated thumbnail sprite sheet for tests: a 4×4 grid of 160×90 solid-colour tiles (distinct,
/// saturated colours that survive JPEG), written by ffmpeg as PNG and JPEG from pixels made here, and
/// WebVTT thumbnail tracks that point at it — one 5 s cue per tile, in pixel and in percent `#xywh=`.
///
/// Files in `directory`: `sprite.png`, `sprite.jpg`, `thumbs.vtt` (PNG, pixel rects),
/// `thumbs-jpg.vtt` (JPEG), `thumbs-percent.vtt` (PNG, percent rects). Serve the folder with
/// `MediaServer.start(root:)`.
public struct SpriteSheetFixture: Sendable {
    public let directory: URL
    public static let columns = 4
    public static let rows = 4
    public static let tileWidth = 160
    public static let tileHeight = 90
    public static let width = columns * tileWidth
    public static let height = rows * tileHeight
    /// Each cue lasts this long; tile `i` covers `[i * 5, (i + 1) * 5)` seconds.
    public static let secondsPerTile = 5.0
    public static var tileCount: Int { columns * rows }

    /// Tile `index`'s colour as (red, green, blue).
    public static func colour(ofTile index: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        // Channel levels 0/128/255: any two tiles differ by at least 127 in some channel.
        let levels: [UInt8] = [0, 128, 255]
        let n = index + 1  // skip black, so no tile looks like padding
        return (levels[n % 3], levels[(n / 3) % 3], levels[(n / 9) % 3])
    }

    /// Tile `index`'s pixel rectangle (x, y, width, height), row by row.
    public static func tileRect(_ index: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        ((index % columns) * tileWidth, (index / columns) * tileHeight, tileWidth, tileHeight)
    }

    /// The sheet's pixels (RGBA rows), as written to the image files.
    public static func pixels() -> [UInt8] {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let tile = (y / tileHeight) * columns + x / tileWidth
                let c = colour(ofTile: tile)
                let i = (y * width + x) * 4
                (bytes[i], bytes[i + 1], bytes[i + 2]) = (c.red, c.green, c.blue)
            }
        }
        return bytes
    }

    /// Writes the sheet and tracks into a new temporary folder.
    public static func make() async throws -> SpriteSheetFixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cove-sprites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let raw = directory.appendingPathComponent("sheet.rgba")
        try Data(pixels()).write(to: raw)
        let input = [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-i", raw.path,
            "-frames:v", "1",
        ]
        for (name, extra) in [("sprite.png", [String]()), ("sprite.jpg", ["-q:v", "2", "-pix_fmt", "yuvj444p"])] {
            let result = try await ProcessRunner.run("ffmpeg", input + extra + [directory.appendingPathComponent(name).path])
            guard result.status == 0 else {
                throw FixtureError(
                    description: "ffmpeg could not write \(name) (\(result.status)): \(result.errorOutput.suffix(400)); install it with `make deps`")
            }
        }
        try track(image: "sprite.png", percent: false).write(to: directory.appendingPathComponent("thumbs.vtt"), atomically: true, encoding: .utf8)
        try track(image: "sprite.jpg", percent: false).write(to: directory.appendingPathComponent("thumbs-jpg.vtt"), atomically: true, encoding: .utf8)
        try track(image: "sprite.png", percent: true).write(to: directory.appendingPathComponent("thumbs-percent.vtt"), atomically: true, encoding: .utf8)
        return SpriteSheetFixture(directory: directory)
    }

    /// A thumbnail track with one cue per tile, pointing at `image` relative to the track.
    public static func track(image: String, percent: Bool) -> String {
        var text = "WEBVTT\n\n"
        for index in 0..<tileCount {
            let r = tileRect(index)
            let fragment =
                percent
                ? "percent:\(r.x * 100 / width),\(r.y * 100 / height),\(r.width * 100 / width),\(r.height * 100 / height)"
                : "\(r.x),\(r.y),\(r.width),\(r.height)"
            text += "\(timestamp(Double(index) * secondsPerTile)) --> \(timestamp(Double(index + 1) * secondsPerTile))\n\(image)#xywh=\(fragment)\n\n"
        }
        return text
    }

    private static func timestamp(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    /// Removes the folder.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
