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
            CLITests.binary.path,
            [
                "play", server.url(.ladder).absoluteString, "--fast", "--analytics", collector.destination.absoluteString, "--analytics-account",
                "6000000000001",
            ],
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

    /// An app run that could not reach the collector leaves its events in the queue file; the next run
    /// sends them first, then its own: two launches' events arrive, each once, in order.
    @Test func aRestartSendsWhatTheLastRunCouldNotDeliver() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let collector = AnalyticsCollector(on: server)
        let refusing = try RefusingPort()
        let queue = FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-cli-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: queue.path + suffix) } }
        func play(to destination: URL) async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                CLITests.binary.path,
                ["play", server.url(.ladder).absoluteString, "--fast", "--analytics", destination.absoluteString, "--analytics-account", "6000000000001"],
                environment: ["COVE_ANALYTICS_QUEUE": queue.path]
            )
        }
        let offline = try await play(to: refusing.url("v2/tracker"))
        #expect(offline.status == 0, "a collector that cannot be reached does not fail the play: \(offline.errorOutput)")
        #expect(collector.events.isEmpty)
        let online = try await play(to: collector.destination)
        #expect(online.status == 0, "\(online.errorOutput)")
        let events = collector.events
        let sessions = events.compactMap { $0.parameters["session"] }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(sessions.count == 2, "the first run's events, then the second's: \(sessions)")
        #expect(events.filter { $0.event == "player_load" }.count == 2, "\(events.map(\.event))")
        for session in Set(sessions) {
            let ranges = events.filter { $0.parameters["session"] == session && $0.event == "video_engagement" }.compactMap { $0.parameters["range"] }
            #expect(Set(ranges).count == ranges.count && !ranges.isEmpty, "\(session): \(ranges)")
        }
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
