import CoveCore
import CoveTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The test kit's fault-injecting media server, over real HTTP.
@Suite("Media server", .serialized)
struct MediaServerTests {
    static func get(_ url: URL, range: String? = nil, timeout: TimeInterval = 10) async throws -> (Int, Data, [String: String]) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        if let range { request.setValue(range, forHTTPHeaderField: "Range") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
        return (http.statusCode, data, headers)
    }

    @Test func servesFilesWithRangesAndLogsEveryRequest() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let (status, body, headers) = try await Self.get(server.url(.ladder))
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("#EXTM3U"))
        #expect(headers["content-type"] == "application/vnd.apple.mpegurl")
        let full = try Data(contentsOf: fixtures.url(.mp4))
        let (partial, slice, rangeHeaders) = try await Self.get(server.url(.mp4), range: "bytes=100-199")
        #expect(partial == 206)
        #expect(slice == full[100..<200])
        #expect(rangeHeaders["content-range"] == "bytes 100-199/\(full.count)")
        let (missing, _, _) = try await Self.get(server.url("../../etc/passwd"))
        #expect(missing == 404)
        let log = server.requests
        #expect(log.count == 3)
        #expect(Array(log.map(\.path).prefix(2)) == ["/ladder/master.m3u8", "/clip.mp4"])
        #expect(log[1].range == "bytes=100-199")
        #expect(log[1].bytesSent == 100)
        #expect(log[0].status == 200 && log[1].status == 206 && log[2].status == 404)
        #expect(server.bytesSent >= body.count + 100)
    }

    @Test func forcedStatusesApplyToMatchingPathsForAGivenCount() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.forceStatus(503, forPathsContaining: ".m3u8", count: 2)
        #expect(try await Self.get(server.url(.ladder)).0 == 503)
        #expect(try await Self.get(server.url(.mp4), range: "bytes=0-9").0 == 206)
        #expect(try await Self.get(server.url(.ladder)).0 == 503)
        #expect(try await Self.get(server.url(.ladder)).0 == 200)
        server.forceStatus(500)
        #expect(try await Self.get(server.url(.webVTT)).0 == 500)
        server.clearForcedStatuses()
        #expect(try await Self.get(server.url(.webVTT)).0 == 200)
    }

    @Test func bandwidthCapSlowsResponsesDown() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.setBandwidth(bitsPerSecond: 2_000_000)
        let start = ContinuousClock.now
        let (_, data, _) = try await Self.get(server.url(.mp4), range: "bytes=0-249999")
        let elapsed = ContinuousClock.now - start
        #expect(data.count == 250_000)
        // 250 kB at 250 kB/s: about a second (generous bounds: this checks the cap exists, not its precision).
        #expect(elapsed > .milliseconds(700), "\(elapsed)")
        server.setBandwidth(bitsPerSecond: nil)
        let fast = ContinuousClock.now
        _ = try await Self.get(server.url(.mp4), range: "bytes=0-249999")
        #expect(ContinuousClock.now - fast < .milliseconds(500))
    }

    @Test func anOutageRefusesConnectionsUntilItEnds() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        #expect(try await Self.get(server.url(.webVTT)).0 == 200)
        await server.beginOutage()
        #expect(server.isInOutage)
        await #expect(throws: (any Error).self) { try await Self.get(server.url(.webVTT), timeout: 2) }
        try await server.endOutage()
        #expect(try await Self.get(server.url(.webVTT)).0 == 200)
        #expect(server.url(.webVTT).port == server.port)
    }

    @Test func aScheduledOutageStartsOnItsTriggerAndHealsItself() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.scheduleOutage(whenPathContains: "seg002", lasting: .milliseconds(600))
        #expect(try await Self.get(server.url("ladder/v0/seg001.ts")).0 == 200)
        await #expect(throws: (any Error).self) { try await Self.get(server.url("ladder/v0/seg002.ts"), timeout: 2) }
        #expect(server.isInOutage)
        // Comes back by itself.
        await server.waitUntilServing()
        #expect(!server.isInOutage)
        #expect(try await Self.get(server.url("ladder/v0/seg002.ts")).0 == 200)
        #expect(server.requests.contains { $0.path.hasSuffix("seg002.ts") && $0.aborted })
    }

    @Test func customRoutesAnswerUnderTheirPrefix() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.addRoute(prefix: "/api/") { request in
            MediaServerResponse(status: 201, body: Data("{\"path\":\"\(request.path)\",\"q\":\"\(request.queryItems["q"] ?? "")\"}".utf8))
        }
        let (status, body, headers) = try await Self.get(server.url("api/thing?q=hello%20there"))
        #expect(status == 201)
        #expect(String(decoding: body, as: UTF8.self) == #"{"path":"/api/thing","q":"hello there"}"#)
        #expect(headers["content-type"] == "application/json")
    }

    @Test func liveStreamsSlideTheirWindowOverTime() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        try server.addLiveStream(path: "/live/test.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 4)
        let (status, body, _) = try await Self.get(server.url("live/test.m3u8"))
        let text = String(decoding: body, as: UTF8.self)
        #expect(status == 200)
        #expect(!text.contains("#EXT-X-ENDLIST"))
        #expect(text.components(separatedBy: "#EXTINF").count - 1 == 4)
        #expect(text.contains("/ladder/v0/seg000.ts"))
    }
}

@Suite("Fixture media")
struct FixtureMediaTests {
    @Test func everyAssetExistsAndTheLadderDeclaresItsVariants() async throws {
        let fixtures = try await FixtureMedia.prepare()
        for asset in FixtureMedia.Asset.allCases {
            #expect(FileManager.default.fileExists(atPath: fixtures.url(asset).path), "\(asset)")
        }
        let master = try String(contentsOf: fixtures.url(.ladder), encoding: .utf8)
        #expect(master.components(separatedBy: "#EXT-X-STREAM-INF").count - 1 == 3)
        for token in ["BANDWIDTH=", "RESOLUTION=426x240", "RESOLUTION=854x480", "RESOLUTION=1280x720", "CODECS=\"avc1."] {
            #expect(master.contains(token), "\(token)")
        }
        let variant = try String(contentsOf: fixtures.root.appendingPathComponent("ladder/v0/index.m3u8"), encoding: .utf8)
        #expect(variant.contains("#EXT-X-TARGETDURATION:2"))
        #expect(variant.components(separatedBy: "#EXTINF").count - 1 == 10)
        let aes = try String(contentsOf: fixtures.root.appendingPathComponent("aes/v0/index.m3u8"), encoding: .utf8)
        #expect(aes.contains("#EXT-X-KEY:METHOD=AES-128"))
        let alt = try String(contentsOf: fixtures.url(.alternateAudio), encoding: .utf8)
        #expect(alt.components(separatedBy: "TYPE=AUDIO").count - 1 == 2)
        let vtt = try String(contentsOf: fixtures.url(.webVTT), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT"))
        #expect(vtt.contains("00:00:04.000 --> 00:00:05.900\nCue 3 at 4s"))
        // Small media only: nothing here should ever be large enough to commit by accident.
        let size = try FileManager.default.attributesOfItem(atPath: fixtures.url(.mp4).path)[.size] as! Int
        #expect(size < 5_000_000)
    }

    @Test func preparingTwiceReusesTheCache() async throws {
        let first = try await FixtureMedia.prepare()
        let second = try await FixtureMedia.prepare()
        #expect(first.root == second.root)
    }
}

@Suite("Process runner")
struct ProcessRunnerTests {
    /// A child that outlives its time limit is a hang the test hears about: aborted (SIGABRT, so a Swift
    /// program prints its threads), its output kept, `timedOut` set; a child that ends in time is not.
    /// Children start with no signal blocked, whichever thread starts them.
    @Test func aProcessPastItsTimeLimitIsAbortedNotWaitedOn() async throws {
        let started = ContinuousClock.now
        let hung = try await ProcessRunner.run("/bin/bash", ["-c", "grep Sig /proc/self/status >&2; echo waiting; sleep 100"], timeLimit: .seconds(1))
        #expect(hung.timedOut, "\(hung.errorOutput)")
        #expect(hung.errorOutput.contains("SigBlk:\t0000000000000000"), "the child starts with no signal blocked: \(hung.errorOutput)")
        #expect(hung.status != 0)
        #expect(hung.output == "waiting\n")
        #expect(ContinuousClock.now - started < .seconds(30), "\(hung.errorOutput)")
        let quick = try await ProcessRunner.run("/bin/bash", ["-c", "exit 3"], timeLimit: .seconds(30))
        #expect(!quick.timedOut && quick.status == 3)
    }
}
