import CoveCore
import CoveTesting
import Foundation
import Testing

/// `cove fetch`, `cove serve` and `cove demo`, run as real subprocesses.
@Suite("cove CLI: catalog commands", .serialized)
struct CatalogCLITests {
    static func cove(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await CLITests.cove(arguments)
    }

    static func catalog() async throws -> CatalogServer {
        try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
    }

    static func fetchArguments(_ server: CatalogServer, _ rest: [String], policyKey: String = SampleCatalog.policyKey) -> [String] {
        ["fetch"] + rest + ["--account", server.accountID, "--policy-key", policyKey, "--base-url", server.baseURL.absoluteString]
    }

    @Test func fetchVideoJSONUsesWireNamesWithTimesInSeconds() async throws {
        let server = try await Self.catalog()
        defer { Task { await server.stop() } }
        let run = try await Self.cove(
            Self.fetchArguments(server, ["video", SampleCatalog.VideoID.ladder, "--json", "--bumper-id", SampleCatalog.VideoID.bumper]))
        #expect(run.status == 0, "\(run.errorOutput)")
        let json = try JSONValue.parse(Array(run.output.utf8))
        #expect(json["id"] == .string(SampleCatalog.VideoID.ladder))
        #expect(json["duration"]?.doubleValue == 20)
        #expect(json["reference_id"] == "adaptive-ladder")
        #expect(json["custom_fields"]?["genre"] == "test pattern")
        let sources = try #require(json["sources"]?.arrayValue)
        #expect(sources.count == 2)
        #expect(sources.allSatisfy { $0["src"]?.stringValue?.hasPrefix(server.media.baseURL.absoluteString) == true })
        #expect(sources.first?["duration"]?.doubleValue == 20)
        #expect(json["cue_points"]?.arrayValue?.compactMap { $0["time"]?.doubleValue } == [5, 10.5])
        // English and French captions, and the thumbnails track (Brightcove's metadata track labelled "thumbnails").
        #expect(json["text_tracks"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["tt-en", "tt-fr", "tt-thumbnails"])
        #expect(json["bumper"]?["id"] == .string(SampleCatalog.VideoID.bumper))
        #expect(json["bumper"]?["duration"]?.doubleValue == 4)
    }

    @Test func fetchPlaylistByReferenceWithParametersAndASummary() async throws {
        let server = try await Self.catalog()
        defer { Task { await server.stop() } }
        let page = try await Self.cove(
            Self.fetchArguments(server, ["playlist", SampleCatalog.playlistReferenceID, "--ref", "--param", "limit=2", "--param", "offset=2", "--json"]))
        #expect(page.status == 0, "\(page.errorOutput)")
        let json = try JSONValue.parse(Array(page.output.utf8))
        #expect(json["videos"]?.arrayValue?.map { $0["id"] } == [.string(SampleCatalog.VideoID.subtitles), .string(SampleCatalog.VideoID.missing)])
        #expect(json["videos"]?.arrayValue?.last?["error_code"] == "VIDEO_NOT_FOUND")
        let summary = try await Self.cove(Self.fetchArguments(server, ["playlist", SampleCatalog.playlistID]))
        #expect(summary.status == 0)
        #expect(summary.output.contains("4 videos (1 unavailable)"))
        #expect(summary.output.contains("✗ \(SampleCatalog.VideoID.missing): VIDEO_NOT_FOUND"))
        #expect(summary.output.contains("cue points: CODE@0:05.000, AD@0:10.500"))
        #expect(server.media.requests.contains { $0.query == "limit=2&offset=2" })
    }

    @Test func fetchFailuresPrintTheTypedErrorWithoutTheKey() async throws {
        let server = try await Self.catalog()
        defer { Task { await server.stop() } }
        let wrongKey = "BCpkADawqM-wrong-cli-key-0005"
        let run = try await Self.cove(Self.fetchArguments(server, ["video", SampleCatalog.VideoID.ladder, "--json"], policyKey: wrongKey))
        #expect(run.status == 1)
        let json = try JSONValue.parse(Array(run.output.utf8))
        #expect(json["error"] == "apiError")
        #expect(json["code"] == 3)
        #expect(json["httpStatus"] == 401)
        #expect(json["errors"]?.arrayValue?.first?["error_code"] == "INVALID_POLICY_KEY")
        #expect(json["message"]?.stringValue?.contains("policy key was rejected") == true)
        #expect(!run.output.contains(wrongKey) && !run.errorOutput.contains(wrongKey))

        let missing = try await Self.cove(Self.fetchArguments(server, ["video", "404"]))
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("No video '404'"))

        let badParameter = try await Self.cove(Self.fetchArguments(server, ["playlist", SampleCatalog.playlistID, "--param", "limit=ten"]))
        #expect(badParameter.status != 0)
        #expect(badParameter.errorOutput.contains("limit"))
        #expect(server.media.requests.filter { $0.path.contains("/playlists/") }.isEmpty, "a bad parameter is caught before any request")
    }

    /// A catalog whose only source URL carries a CDN token, to see where it is printed.
    static func tokenCatalog(token: String, policyKey: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-token-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("videos"), withIntermediateDirectories: true)
        try Data(#"{"account_id": "77", "policy_keys": ["\#(policyKey)"]}"#.utf8).write(to: root.appendingPathComponent("catalog.json"))
        let video =
            #"{"id": "v1", "name": "Tokenised", "duration": 1000, "sources": [{"src": "https://cdn.example.com/v1/master.m3u8?bcov_auth=\#(token)&rendition=hd", "type": "application/x-mpegURL"}]}"#
        try Data(video.utf8).write(to: root.appendingPathComponent("videos/v1.json"))
        return root
    }

    @Test func fetchRedactsURLTokensUnlessAskedAndTakesThePolicyKeyFromTheEnvironment() async throws {
        let token = "cdn-token-SECRET-4711"
        let policyKey = "BCpkADawqM-env-only-key-0042"
        let server = try await CatalogServer.start(catalog: try Self.tokenCatalog(token: token, policyKey: policyKey))
        defer { Task { await server.stop() } }
        func fetch(_ extra: [String]) async throws -> ProcessRunner.Result {
            // The key comes only from the environment: it is never on the command line, where `ps` shows it.
            try await ProcessRunner.run(
                CLITests.binary.path, ["fetch", "video", "v1", "--account", "77", "--base-url", server.baseURL.absoluteString] + extra,
                environment: ["COVE_POLICY_KEY": policyKey])
        }
        for extra in [["--json"], []] {
            let run = try await fetch(extra)
            #expect(run.status == 0, "\(run.errorOutput)")
            #expect(run.output.contains("bcov_auth=REDACTED&rendition=hd"), "\(extra): \(run.output)")
            #expect(!run.output.contains(token) && !run.errorOutput.contains(token), "\(extra)")
            #expect(!run.output.contains(policyKey) && !run.errorOutput.contains(policyKey), "\(extra)")
        }
        let shown = try await fetch(["--json", "--show-secrets"])
        #expect(shown.status == 0, "\(shown.errorOutput)")
        let json = try JSONValue.parse(Array(shown.output.utf8))
        #expect(json["sources"]?.arrayValue?.first?["src"]?.stringValue == "https://cdn.example.com/v1/master.m3u8?bcov_auth=\(token)&rendition=hd")

        let noKey = try await ProcessRunner.run(
            CLITests.binary.path, ["fetch", "video", "v1", "--account", "77", "--base-url", server.baseURL.absoluteString],
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "COVE_POLICY_KEY" && $0.key != "COVE_AUTH_TOKEN" })
        #expect(noKey.status != 0)
        #expect(noKey.errorOutput.contains("COVE_POLICY_KEY"), "the error says where a key can come from: \(noKey.errorOutput)")
    }

    @Test func fetchWithTheServiceDownIsAConnectionError() async throws {
        // Down for sure: a stopped server's port could be taken by a server another test starts meanwhile.
        let refusing = try RefusingPort()
        let base = refusing.url("playback/v1").absoluteString
        let run = try await Self.cove(["fetch", "video", "1", "--account", "1", "--policy-key", "k-0000000", "--base-url", base, "--json"])
        #expect(run.status == 1)
        let json = try JSONValue.parse(Array(run.output.utf8))
        #expect(json["error"] == "connectionError")
        #expect(json["cause"] == "connectionFailed")
        withExtendedLifetime(refusing) {}
    }

    @Test func serveAnswersThePlaybackAPIUntilInterrupted() async throws {
        let running = try ProcessRunner.start(CLITests.binary.path, ["serve"])
        // If the server never prints its address, or never exits on SIGINT, the watchdog ends it so the
        // test fails instead of hanging; on every exit path the process is gone afterwards.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            running.kill()
        }
        defer {
            watchdog.cancel()
            running.kill()
        }
        var baseURL: URL?
        var policyKey: String?
        for await line in running.lines {
            if line.hasPrefix("Sample policy key: ") { policyKey = String(line.dropFirst("Sample policy key: ".count)) }
            if let range = line.range(of: " at http") { baseURL = URL(string: "http" + line[range.upperBound...]) }
            if line.hasPrefix("Ctrl-C") { break }
        }
        let base = try #require(baseURL)
        #expect(policyKey == SampleCatalog.policyKey)
        let run = try await Self.cove([
            "fetch", "playlist", SampleCatalog.playlistID, "--account", SampleCatalog.accountID, "--policy-key", SampleCatalog.policyKey, "--base-url",
            base.absoluteString, "--json",
        ])
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(try JSONValue.parse(Array(run.output.utf8))["videos"]?.arrayValue?.count == 4)
        running.interrupt()
        #expect(await running.status() == 0)
    }

    @Test func serveRejectsAFolderThatIsNotACatalog() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("cove-not-a-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let run = try await Self.cove(["serve", "--catalog", empty.path])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("catalog.json is missing"))
    }

    @Test func demoPlaysTheSamplePlaylistBumperFirst() async throws {
        let run = try await Self.cove(["demo", "--fast"])
        #expect(run.status == 0, "\(run.errorOutput)")
        let lines = run.output.split(separator: "\n").map(String.init)
        func index(_ text: String) -> Int? { lines.firstIndex { $0.hasSuffix("] " + text) || $0 == text } }
        let enter = try #require(index("BumperEnter"), "\(run.output)")
        let exit = try #require(index("BumperExit"))
        let play = try #require(index("Play"))
        #expect(enter < exit && exit < play)
        #expect(lines.filter { $0.hasSuffix("] BumperEnter") }.count == 1)
        #expect(lines.filter { $0.hasSuffix("] End") }.count == 3)
        #expect(run.output.contains("skipping \(SampleCatalog.VideoID.missing)"))
        #expect(run.output.contains("PlaylistCompleted(3)"))
        #expect(lines.last == "Demo finished.")
    }
}
