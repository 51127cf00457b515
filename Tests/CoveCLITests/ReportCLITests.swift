import CoveCore
import CoveTesting
import Foundation
import Testing

/// `--report` and `--plot` on `cove probe` and `cove play`, run as real subprocesses against served fixtures.
@Suite("cove QoE reports", .serialized)
struct ReportCLITests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cove-report-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The data block a report page carries.
    static func data(of html: String) throws -> JSONValue {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"qoe-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try JSONValue.parse(Array(html[start.upperBound..<end.lowerBound].utf8))
    }

    @Test func probeWritesTheReportAndThePlotOfASeek() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let page = out.appendingPathComponent("qoe.html").path
        let plot = out.appendingPathComponent("qoe.png").path
        let run = try await CLITests.cove([
            "probe", server.url(.ladder).absoluteString, "--report", page, "--plot", plot, "--seek-at", "1", "--seek-to", "12",
        ])
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.output.contains("QoE report: \(page), \(plot)"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let data = try Self.data(of: html)
        #expect(data["outcome"] == "ended")
        #expect(data["qoe"]?["seekLatencies"]?.arrayValue?.count == 1, "\(data["qoe"] ?? .null)")
        let seeks = try #require(data["timeline"]?["seeks"]?.arrayValue)
        #expect(seeks.count == 1 && abs((seeks[0]["to"]?.doubleValue ?? 0) - 12) < 0.5, "\(seeks)")
        #expect(html.contains("<rect class=\"seek\""))
        let png = try Data(contentsOf: URL(fileURLWithPath: plot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
    }

    /// A stream that fails still gets its report, marked failed, with the error on the timeline.
    @Test func aFailedProbeStillWritesItsReport() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let page = out.appendingPathComponent("failed.html").path
        let run = try await CLITests.cove(["probe", server.url("missing.m3u8?token=hunter22secret").absoluteString, "--report", page, "--fast"])
        #expect(run.status == 1)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("class=\"outcome failed\""))
        #expect(html.contains("class=\"error fatal\"") && html.contains("notFound"))
        #expect(!html.contains("hunter22secret"), "the report is shareable: the source is redacted")
    }

    /// `cove play` on a VMAP: the report shades the stitched stream's ad breaks.
    @Test func playReportsShadeTheAdBreaks() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let title = try await SSAITitle.install(on: server)
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let page = out.appendingPathComponent("ads.html").path
        let run = try await CLITests.cove(["play", title.vmapURL.absoluteString, "--fast", "--report", page])
        #expect(run.status == 0, "\(run.errorOutput)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: "<rect class=\"ad-break\"").count - 1 == 3, "three breaks: pre-, mid- and post-roll")
        #expect(try Self.data(of: html)["timeline"]?["adBreaks"]?.arrayValue?.allSatisfy { $0["end"]?.doubleValue != nil } == true)
    }

    @Test func anUnwritableReportPathIsAClearError() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let run = try await CLITests.cove(["probe", server.url(.ladder).absoluteString, "--report", "/proc/no-such-dir/qoe.html", "--fast", "--duration", "1"])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("cannot write /proc/no-such-dir/qoe.html"), "\(run.errorOutput)")
    }

    @Test func probeNeedsAnOutput() async throws {
        let run = try await CLITests.cove(["probe", "http://127.0.0.1:9/x.m3u8"])
        #expect(run.status != 0 && run.errorOutput.contains("choose --json, --trace, --report or --plot"), "\(run.errorOutput)")
    }
}
