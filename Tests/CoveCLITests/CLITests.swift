import CoveCore
import CoveTesting
import Foundation
import Testing

/// The `cove` command line, run as a real subprocess against served fixtures.
@Suite("cove CLI", .serialized)
struct CLITests {
    /// The `cove` binary built next to the test bundle.
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cove")
    }

    static func cove(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(binary.path, arguments)
    }

    @Test func probeJSONReportsTheWholeSession() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let run = try await Self.cove(["probe", server.url(.ladder).absoluteString, "--json", "--fast"])
        #expect(run.status == 0, "\(run.errorOutput)")
        let json = try JSONValue.parse(Array(run.output.utf8))
        #expect(json["outcome"] == "ended")
        #expect(json["engine"] == "gstreamer")
        #expect(json["duration"]?.doubleValue == 20)
        #expect((json["finalPosition"]?.doubleValue ?? 0) > 19.9)
        #expect((json["bytesFetched"]?.int64Value ?? 0) > 100_000)
        let ttff = try #require(json["timeToFirstFrame"]?.doubleValue)
        #expect(ttff > 0 && ttff < 10)
        let names = json["events"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        for expected in ["SessionAdvanced", "Ready", "Play", "FirstFrame", "End"] { #expect(names.contains(expected), "\(expected)") }
        #expect(names.firstIndex(of: "Ready")! < names.firstIndex(of: "End")!)
        #expect(json["stalls"]?.arrayValue?.isEmpty == true)
        #expect(json["bitrateSwitches"]?.arrayValue != nil)
        #expect(json["events"]?.arrayValue?.contains { $0["mediaTime"]?.doubleValue != nil } == true)
    }

    @Test func probeJSONReportsATypedErrorWithoutSecrets() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let run = try await Self.cove(["probe", server.url("missing.m3u8?token=hunter22secret").absoluteString, "--json", "--fast"])
        #expect(run.status == 1)
        let json = try JSONValue.parse(Array(run.output.utf8))
        #expect(json["outcome"] == "failed")
        #expect(json["error"]?["code"] == "notFound")
        #expect(json["error"]?["httpStatus"] == 404)
        #expect(json["error"]?["url"]?.stringValue?.hasSuffix("missing.m3u8?token=REDACTED") == true)
        #expect(!run.output.contains("hunter22secret") && !run.errorOutput.contains("hunter22secret"))
    }

    @Test func probeTraceFollowsThePeerBenchContract() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let run = try await Self.cove(["probe", server.url(.ladder).absoluteString, "--trace", "--seek-at", "0.3", "--seek-to", "12", "--duration", "2.5"])
        let lines = run.output.split(separator: "\n").map(String.init)
        // Every line: <unix-epoch-seconds> <name> [key=value ...]
        for line in lines {
            let parts = line.split(separator: " ")
            #expect(parts.count >= 2, "\(line)")
            let time = Double(parts[0]) ?? 0
            #expect(time > 1_700_000_000, "\(line)")
            #expect(parts.dropFirst(2).allSatisfy { $0.contains("=") }, "\(line)")
        }
        let names = lines.map { String($0.split(separator: " ")[1]) }
        for expected in ["play", "firstFrame", "seek", "seekFrame"] { #expect(names.contains(expected), "\(names)") }
        #expect(names.firstIndex(of: "play")! < names.firstIndex(of: "firstFrame")!)
        #expect(names.firstIndex(of: "seek")! < names.firstIndex(of: "seekFrame")!)
        let time = { (name: String) in Double(lines[names.firstIndex(of: name)!].split(separator: " ")[0])! }
        #expect(time("firstFrame") >= time("play"))
        #expect(time("seekFrame") >= time("seek"))
    }

    @Test func playShowsEventsAndExitsAtTheEnd() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let run = try await Self.cove(["play", server.url(.mp4).absoluteString, "--fast"])
        #expect(run.status == 0, "\(run.errorOutput)")
        for expected in ["Session", "Ready", "Play", "First frame", "End"] { #expect(run.output.contains(expected), "\(expected) in \(run.output)") }
        let bad = try await Self.cove(["play", "/nonexistent/file.mp4"])
        #expect(bad.status != 0)
        #expect(bad.errorOutput.contains("neither a URL nor an existing file"))
    }
}

