import ArgumentParser
import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlayerControls
import CoveText
import Foundation

/// `cove thumbnail VTT-URL --at S [-o out.png] [--json]`: what a player's scrubbing preview would show
/// at a time — the image URL and tile of a WebVTT thumbnail track, and optionally the tile itself,
/// cropped from its sprite sheet and written as PNG. Failures print the typed error (exit status 1).
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Look up a WebVTT thumbnail track at a time: print the image URL and #xywh rectangle, optionally write the cropped tile as PNG.",
        discussion: "Exit status 1 when the track or image fails to load (the typed error is printed) or when no thumbnail covers the time."
    )

    @Argument(help: "The thumbnail track's http(s) URL.")
    var trackURL: String

    @Option(help: "The time in seconds.")
    var at: Double

    @Option(name: [.customShort("o"), .long], help: "Write the cropped tile here as PNG.")
    var output: String?

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    func validate() throws {
        guard trackURL.hasPrefix("http://") || trackURL.hasPrefix("https://"), URL(string: trackURL) != nil else {
            throw ValidationError("'\(Redaction.redact(urlString: trackURL))' is not an http(s) URL")
        }
        guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a time in seconds, 0 or more") }
    }

    func run() async throws {
        let source = WebVTTThumbnailSource(trackURL: URL(string: trackURL)!, transport: AsyncHTTPClientTransport.shared, imageCodec: GStreamerImageCodec())
        let thumbnail: Thumbnail?
        var png: Data?
        do throws(ThumbnailError) {
            thumbnail = try await source.thumbnail(at: .seconds(at))
            if let thumbnail, output != nil { png = try await source.image(for: thumbnail) }
        } catch {
            var fields: JSONObject = ["kind": .string(error.kind.rawValue), "message": .string(error.message)]
            if let url = error.url { fields["url"] = .string(url) }
            if let status = error.httpStatus { fields["httpStatus"] = .int(Int64(status)) }
            report(["error": .object(fields)], text: "cove thumbnail: \(error)")
            throw ExitCode(1)
        }
        guard let thumbnail else {
            report(
                ["error": .object(["kind": .string("noThumbnail"), "message": .string("No thumbnail covers \(at) s in this track")])],
                text: "cove thumbnail: no thumbnail covers \(at) s in this track")
            throw ExitCode(1)
        }
        if let png, let output {
            do {
                try png.write(to: URL(fileURLWithPath: output))
            } catch {
                Terminal.error("cove thumbnail: could not write \(output): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        print(thumbnail, written: png.flatMap(ImageHeader.read))
    }

    private func print(_ thumbnail: Thumbnail, written: ImageHeader?) {
        let url = Redaction.redact(url: thumbnail.imageURL)
        if json {
            var object: JSONObject = [
                "time": .double(at), "start": .double(thumbnail.start.seconds), "end": .double(thumbnail.end.seconds), "imageURL": .string(url),
            ]
            if let rect = thumbnail.rect {
                object["rect"] = .object([
                    "x": .int(Int64(rect.x)), "y": .int(Int64(rect.y)), "width": .int(Int64(rect.width)), "height": .int(Int64(rect.height)),
                    "unit": .string(rect.unit.rawValue),
                ])
            }
            if let written, let output {
                object["output"] = .object(["path": .string(output), "width": .int(Int64(written.width)), "height": .int(Int64(written.height))])
            }
            Terminal.line(JSONValue.object(object).serialized(pretty: true))
        } else {
            Terminal.line("time:  \(at) s (cue \(thumbnail.start.seconds)–\(thumbnail.end.seconds) s)")
            Terminal.line("image: \(url)")
            Terminal.line("rect:  \(thumbnail.rect.map { "x=\($0.x) y=\($0.y) w=\($0.width) h=\($0.height) (\($0.unit.rawValue))" } ?? "whole image")")
            if let written, let output { Terminal.line("wrote \(output) (\(written.width)×\(written.height) PNG)") }
        }
    }

    private func report(_ object: JSONObject, text: String) {
        if json { Terminal.line(JSONValue.object(object).serialized(pretty: true)) } else { Terminal.error(text) }
    }
}
