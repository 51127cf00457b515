import CoveCore
import CoveTesting
import Foundation
import Testing

/// `cove play --analytics` sends a play's events to a collector, and `cove analytics tail` shows them.
@Suite("cove CLI: analytics")
struct AnalyticsCLITests {
    @Test func playSendsItsEventsAndTailShowsThem() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let collector = AnalyticsCollector(on: server)
        let queue = FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-cli-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: queue) }
        let run = try await ProcessRunner.run(
            CLITests.binary.path, ["play", server.url(.ladder).absoluteString, "--fast", "--analytics", collector.destination.absoluteString, "--analytics-account", "6000000000001"],
            environment: ["COVE_ANALYTICS_QUEUE": queue.path]
        )
        #expect(run.status == 0, "\(run.errorOutput)")
        let names = collector.events.map(\.event)
        #expect(Array(names.prefix(3)) == ["player_load", "video_impression", "video_view"], "\(names)")
        #expect(names.contains("video_engagement"), "\(names)")
        #expect(collector.events.allSatisfy { $0.parameters["account"] == "6000000000001" })

        let tail = try await CLITests.cove(["analytics", "tail", server.baseURL.absoluteString, "--once"])
        #expect(tail.status == 0, "\(tail.errorOutput)")
        let lines = tail.output.split(separator: "\n").map(String.init)
        #expect(lines.count == collector.events.count)
        #expect(lines.first?.hasPrefix("player_load") == true)
        #expect(lines.contains { $0.hasPrefix("video_engagement") && $0.contains("range=") })
    }

    @Test func badAnalyticsArgumentsAreClearErrors() async throws {
        let notURL = try await CLITests.cove(["play", "http://127.0.0.1:9/x.m3u8", "--analytics", "not a url", "--analytics-account", "1"])
        #expect(notURL.status != 0)
        #expect(notURL.errorOutput.contains("--analytics 'not a url' is not an http(s) URL"), "\(notURL.errorOutput)")
        let noAccount = try await CLITests.cove(["play", "http://127.0.0.1:9/x.m3u8", "--analytics", "http://127.0.0.1:9/v2/tracker"])
        #expect(noAccount.status != 0)
        #expect(noAccount.errorOutput.contains("--analytics-account"), "\(noAccount.errorOutput)")
        let tail = try await CLITests.cove(["analytics", "tail", "http://127.0.0.1:9/", "--once"])
        #expect(tail.status == 1)
        #expect(tail.errorOutput.contains("is `cove serve` running?"), "\(tail.errorOutput)")
    }
}
