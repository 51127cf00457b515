import CoveCore
import CoveTesting
import Foundation
import Testing

/// `cove thumbnail`: a generated sprite sheet and its WebVTT track served on loopback, looked up by
/// the real binary.
@Suite("cove thumbnail", .serialized)
struct ThumbnailCLITests {
    @Test func printsTheTileAndWritesTheCroppedPNG() async throws {
        let sprites = try await SpriteSheetFixture.make()
        defer { sprites.remove() }
        let server = try await MediaServer.start(root: sprites.directory)
        defer { Task { await server.stop() } }
        let output = sprites.directory.appendingPathComponent("tile.png")

        let text = try await CLITests.cove(["thumbnail", server.url("thumbs-jpg.vtt").absoluteString, "--at", "12.5"])
        #expect(text.status == 0, "\(text.errorOutput)")
        #expect(text.output.contains("image: \(server.url("sprite.jpg").absoluteString)"))
        #expect(text.output.contains("rect:  x=320 y=0 w=160 h=90 (pixel)"))

        let run = try await CLITests.cove(["thumbnail", server.url("thumbs.vtt").absoluteString, "--at", "32", "-o", output.path, "--json"])
        #expect(run.status == 0, "\(run.errorOutput)")
        let json = try JSONValue.parse(Array(run.output.utf8))
        #expect(json["imageURL"]?.stringValue == server.url("sprite.png").absoluteString)
        #expect(json["rect"]?["x"] == 320 && json["rect"]?["y"] == 90 && json["rect"]?["width"] == 160 && json["rect"]?["height"] == 90)
        #expect(json["start"]?.doubleValue == 30 && json["end"]?.doubleValue == 35)
        #expect(json["output"]?["width"] == 160 && json["output"]?["height"] == 90)
        let png = try Data(contentsOf: output)
        #expect(ImageHeader.read(png) == ImageHeader(format: .png, width: 160, height: 90))
    }

    @Test func failuresAreTypedWithExitStatusOne() async throws {
        let sprites = try await SpriteSheetFixture.make()
        defer { sprites.remove() }
        let server = try await MediaServer.start(root: sprites.directory)
        defer { Task { await server.stop() } }

        let missing = try await CLITests.cove(["thumbnail", server.url("absent.vtt?token=hunter22secret").absoluteString, "--at", "1", "--json"])
        #expect(missing.status == 1)
        let json = try JSONValue.parse(Array(missing.output.utf8))
        #expect(json["error"]?["kind"] == "trackLoadFailed" && json["error"]?["httpStatus"] == 404)
        #expect(!missing.output.contains("hunter22secret") && !missing.errorOutput.contains("hunter22secret"))

        let gap = try await CLITests.cove(["thumbnail", server.url("thumbs.vtt").absoluteString, "--at", "500"])
        #expect(gap.status == 1 && gap.errorOutput.contains("no thumbnail covers 500"))

        let notURL = try await CLITests.cove(["thumbnail", "thumbs.vtt", "--at", "1"])
        #expect(notURL.status != 0 && notURL.errorOutput.contains("not an http(s) URL"))
    }
}
