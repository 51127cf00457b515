import ArgumentParser
import CoveCore
import CovePlayerControls
import CoveText
import Foundation

/// `cove vtt FILE|URL`: what Cove's WebVTT parser makes of a caption or thumbnail track — the cues, or
/// the typed error that says what is wrong with the file and what to do.
struct VTTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vtt",
        abstract: "Parse a WebVTT file or URL and print its cues (start, end, id, text, settings) or the typed error.",
        discussion:
            "Skipped cues, cues that are never shown (end not after start), NUL bytes and ill-formed UTF-8 (replaced by U+FFFD) are reported as warnings with their line numbers; the file as a whole fails only when it is not WebVTT, UTF-16, binary (media, an image, a compressed body, mostly control bytes), or over a size limit (exit status 1)."
    )

    @Argument(help: "A .vtt file path or an http(s) URL.")
    var source: String

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @Flag(help: "Keep cue text markup (<i>, <v Speaker>, …) instead of plain text.")
    var markup = false

    func run() async throws {
        let bytes: [UInt8]
        do {
            bytes = try await InputBytes.load(source, limit: WebVTTParseLimits.default.maxBytes)
        } catch {
            Terminal.error("cove vtt: \(error)")
            throw ExitCode(1)
        }
        var options = WebVTTParseOptions()
        options.cueText = markup ? .markup : .plain
        do throws(WebVTTParseError) {
            let document = try WebVTT.parse(bytes, options: options)
            if json {
                Terminal.line(Self.json(document).serialized(pretty: true))
            } else {
                for cue in document.cues {
                    let id = cue.identifier.map { "[\($0)] " } ?? ""
                    let settings = cue.settings.raw.isEmpty ? "" : "  {\(cue.settings.raw)}"
                    let hidden = Self.isNeverShown(cue) ? "  (never shown)" : ""
                    Terminal.line("\(cue.start) --> \(cue.end)  \(id)\(cue.text.replacingOccurrences(of: "\n", with: " / "))\(settings)\(hidden)")
                }
                for warning in document.warnings { Terminal.error("warning: \(warning)") }
                if document.omittedWarningCount > 0 {
                    Terminal.error("… and \(document.omittedWarningCount) more warnings (past WebVTTParseLimits.maxWarnings)")
                }
                let neverShown = document.cues.filter(Self.isNeverShown).count
                let hidden = neverShown > 0 ? ", \(neverShown) never shown (end not after start)" : ""
                Terminal.line("\(document.cues.count) cues\(hidden), \(document.skippedCues.count) skipped")
            }
        } catch {
            if json {
                var fields: JSONObject = ["kind": .string(error.kind.name), "message": .string(error.description)]
                if let line = error.line { fields["line"] = .int(Int64(line)) }
                if case .binaryData(let found) = error.kind { fields["binary"] = .string(found.rawValue) }
                Terminal.line(JSONValue.object(["error": .object(fields)]).serialized(pretty: true))
            } else {
                Terminal.error("cove vtt: \(error)")
            }
            throw ExitCode(1)
        }
    }

    static func json(_ document: WebVTTDocument) -> JSONValue {
        let cues: [JSONValue] = document.cues.map { cue in
            var fields: JSONObject = [
                "start": .double(cue.startSeconds), "end": .double(cue.endSeconds), "text": .string(cue.text),
                "settings": .string(cue.settings.raw),
            ]
            if let id = cue.identifier { fields["id"] = .string(id) }
            if isNeverShown(cue) { fields["neverShown"] = .bool(true) }
            return .object(fields)
        }
        let warnings: [JSONValue] = document.warnings.map { warning in
            var fields: JSONObject = ["kind": .string(warning.kind.rawValue), "message": .string(warning.message)]
            if let line = warning.line { fields["line"] = .int(Int64(line)) }
            return .object(fields)
        }
        var object: JSONObject = [
            "cues": .array(cues), "warnings": .array(warnings), "skippedCues": .int(Int64(document.skippedCues.count)),
            "neverShownCues": .int(Int64(document.cues.filter(isNeverShown).count)),
        ]
        if document.omittedWarningCount > 0 { object["omittedWarnings"] = .int(Int64(document.omittedWarningCount)) }
        if let map = document.timestampMap { object["timestampMap"] = .object(["localTime": .string("\(map.localTime)"), "mpegts": .int(map.mpegts)]) }
        return .object(object)
    }

    /// The spec keeps a cue whose end is not after its start, but it is never active.
    static func isNeverShown(_ cue: WebVTTCue) -> Bool { cue.end <= cue.start }
}
