import CoveCore
import CoveNetworking
import CoveTesting
import Foundation
import Testing

/// `cove monitor` plays streams on a schedule and serves their QoE for Prometheus; a failing stream is
/// a counted failure, not an exit.
@Suite("cove CLI: monitor")
struct MonitorCLITests {
    @Test func twoStreamsOneFailingAreBothOnTheEndpoint() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let good = server.url(.ladder).absoluteString
        let bad = server.url("gone/master.m3u8").absoluteString
        let monitor = try ProcessRunner.start(
            CLITests.binary.path, ["monitor", good, bad, "--fast", "--interval", "0", "--play", "3", "--prometheus", "127.0.0.1:0"])
        defer { monitor.kill() }
        var endpoint: URL?
        var runs: [String] = []
        for await line in monitor.lines {
            if line.hasPrefix("metrics at ") { endpoint = URL(string: String(line.dropFirst("metrics at ".count))) }
            if line.hasPrefix("run ") { runs.append(line) }
            // Two rounds: each stream measured twice.
            if runs.count >= 4 { break }
        }
        let metricsURL = try #require(endpoint, "no endpoint line; runs: \(runs)")
        #expect(runs.filter { $0.contains("/ladder/master.m3u8") && $0.contains("outcome=played") }.count >= 2, "\(runs)")
        #expect(runs.filter { $0.contains("/gone/master.m3u8") && $0.contains("outcome=failed:notFound") }.count >= 2, "\(runs)")
        let response = try await AsyncHTTPClientTransport.shared.get(metricsURL)
        #expect(response.status == 200)
        let text = String(decoding: response.body, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        func value(_ name: String, _ stream: String, extra: String = "") -> Double? {
            lines.first { $0.hasPrefix(name + "{") && $0.contains("stream=\"\(stream)\"") && (extra.isEmpty || $0.contains(extra)) }.flatMap {
                Double($0.split(separator: " ").last ?? "")
            }
        }
        let goodLabel = Redaction.redact(url: URL(string: good)!)
        let badLabel = Redaction.redact(url: URL(string: bad)!)
        #expect((value("cove_monitor_runs_total", goodLabel) ?? 0) >= 2, "\(text)")
        #expect((value("cove_monitor_runs_total", badLabel) ?? 0) >= 2, "\(text)")
        #expect((value("cove_monitor_failures_total", badLabel, extra: "code=\"notFound\"") ?? 0) >= 2, "\(text)")
        #expect(value("cove_monitor_failures_total", goodLabel) == nil, "\(text)")
        #expect(value("cove_monitor_last_run_success", goodLabel) == 1 && value("cove_monitor_last_run_success", badLabel) == 0, "\(text)")
        #expect((value("cove_bytes_fetched_total", goodLabel) ?? 0) > 100_000, "\(text)")
        #expect((value("cove_startup_seconds", goodLabel) ?? 0) > 0, "\(text)")
        #expect((value("cove_bitrate_played_bits_per_second", goodLabel) ?? 0) >= 400_000, "\(text)")
        monitor.interrupt()
        #expect(await monitor.status() == 0, "Ctrl-C ends the monitor cleanly")
    }

    @Test func badArgumentsAreClearErrors() async throws {
        let noPort = try await CLITests.cove(["monitor", "http://127.0.0.1:9/x.m3u8", "--prometheus", "localhost"])
        #expect(noPort.status != 0 && noPort.errorOutput.contains("is not HOST:PORT"), "\(noPort.errorOutput)")
        let badPlay = try await CLITests.cove(["monitor", "http://127.0.0.1:9/x.m3u8", "--play", "0"])
        #expect(badPlay.status != 0 && badPlay.errorOutput.contains("--play"), "\(badPlay.errorOutput)")
    }
}
