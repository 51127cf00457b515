import ArgumentParser
import CoveCore
import CovePlayerControls
import Foundation

/// `cove manifest FILE|URL`: what Cove's HLS and DASH readers make of a manifest without playing it — the
/// presentation model's variants, renditions, segments, keys and live window — or the readers' typed error.
struct ManifestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Read an HLS playlist or DASH MPD (file or URL) and print what Cove makes of it: variants, renditions, segments, keys, live window.",
        discussion: """
            The format is told from the content (#EXTM3U or <MPD>), never the name. A master playlist's media playlists are read \
            too: over http(s) for a URL (through Cove's HTTP transport), from disk for a file (a file's remote playlists are not \
            fetched and are reported as not read). Key URIs and every other URL print with credential-like query values REDACTED; \
            keys and IVs are never printed. Exit status 1 on a typed error (the manifest, or a playlist it names, is unreadable), \
            after --timeout seconds, or when Cove cannot play the presentation (a DASH manifest protected only by a key system it lacks).
            """
    )

    @Argument(help: "A manifest file path or an http(s) URL (HLS or DASH).")
    var source: String

    @Flag(help: "Print one JSON document (sorted keys) instead of text.")
    var json = false

    @Option(help: "Seconds the whole read may take, every fetch included.")
    var timeout: Double = 10

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds") }
    }

    func run() async throws {
        let deadline = Duration.milliseconds(Int(timeout * 1000))
        let inspector = ManifestInspector(timeout: deadline)
        let source = self.source
        let outcome = await Self.within(deadline, seconds: timeout) { await inspector.inspect(source) }
        switch outcome {
        case .success(let report):
            if json {
                Terminal.line(ManifestReport.encoded(report))
            } else {
                ManifestText(report: report).print()
            }
            if report.hasFailures { throw ExitCode(1) }
        case .failure(let error):
            if json {
                Terminal.line(ManifestReport.encoded(ErrorDocument(error: error)))
            } else {
                Terminal.error("cove manifest: \(error.message)")
            }
            throw ExitCode(1)
        }
    }

    struct ErrorDocument: Codable {
        var error: ErrorReport
    }

    /// The inspection, or a typed timeout once `deadline` has passed (the inspection is cancelled).
    static func within(
        _ deadline: Duration, seconds: Double, _ work: @escaping @Sendable () async -> Result<ManifestReport, ErrorReport>
    ) async -> Result<ManifestReport, ErrorReport> {
        await withTaskGroup(of: Result<ManifestReport, ErrorReport>?.self) { group in
            group.addTask { await work() }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
                ?? .failure(
                    ErrorReport(
                        input: "timeout", "Reading the manifest took longer than \(seconds) s and was stopped.",
                        advice: "Check that the server answers, or give a longer --timeout."))
        }
    }
}
