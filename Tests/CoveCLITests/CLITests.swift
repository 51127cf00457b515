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
        // The shape only: whether a fast (unsynchronised) run on a loaded machine stalls is not this test's point.
        #expect(json["stalls"]?.arrayValue != nil)
        #expect(json["bitrateSwitches"]?.arrayValue != nil)
        #expect(json["events"]?.arrayValue?.contains { $0["mediaTime"]?.doubleValue != nil } == true)
        // The QoE figures: startup and its parts, what played and at which bitrates, every byte fetched.
        let qoe = try #require(json["qoe"])
        #expect(qoe["bytesFetched"]?.int64Value == json["bytesFetched"]?.int64Value)
        // Fast mode: the playhead at the first frame follows the clock, a second or so in.
        #expect((qoe["mediaPlayedSeconds"]?.doubleValue ?? 0) > 17, "\(qoe)")
        #expect(qoe["startup"]?["totalSeconds"]?.doubleValue.map { abs($0 - ttff) < 0.002 } == true, "\(qoe)")
        for part in ["manifestSeconds", "firstSegmentSeconds", "decodeSeconds"] { #expect(qoe["startup"]?[part]?.doubleValue != nil, "\(part)") }
        #expect((qoe["averageBitrate"]?.int64Value ?? 0) >= 400_000)
        #expect(qoe["timeAtVariant"]?.arrayValue?.isEmpty == false)
        // Frame counts from the headless output (fast mode drops nothing: no clock to be late for).
        #expect((qoe["renderedFrames"]?.int64Value ?? 0) > 17 * 24 && qoe["droppedFrames"]?.int64Value == 0, "\(qoe)")
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

    /// The trace's variant and retry lines: the start on the lowest variant with its reason, and a
    /// short outage's retries (with kind, attempt, delay and error code) before playback carries on.
    @Test func probeTraceReportsVariantsRetriesAndStalls() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.scheduleOutage(whenPathContains: "seg004", lasting: .seconds(2))
        let run = try await Self.cove(["probe", server.url(.ladder).absoluteString, "--trace", "--fast"])
        #expect(run.status == 0, "\(run.errorOutput)")
        let lines = run.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let named = { (name: String) in lines.filter { $0.count >= 2 && $0[1] == name } }
        let first = try #require(named("variant").first, "\(run.output)")
        #expect(first.contains("reason=initial"), "\(first)")
        #expect(first.contains { $0.hasPrefix("bandwidth=") } && first.contains { $0.hasPrefix("height=") })
        let retries = named("retry")
        #expect(!retries.isEmpty, "\(run.output)")
        for retry in retries {
            for key in ["kind=playback", "attempt=", "delay=", "code="] { #expect(retry.contains { $0.hasPrefix(key) }, "\(retry)") }
        }
        #expect(named("stallBegin").count == 1 && named("stallEnd").count == 1, "\(run.output)")
        // The failed downloads are reported (error lines) and recovered from: playback reaches the end.
        #expect(named("end").count == 1, "\(run.output)")
    }

    @Test func playShowsTheCaptionsOfASidecarTrack() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.addRoute(prefix: "/captions/en.vtt") { _ in
            MediaServerResponse(
                status: 200, contentType: "text/vtt", body: Data("WEBVTT\n\n00:00:00.000 --> 00:00:20.000\nWhole <i>clip</i> &amp; caption\n".utf8))
        }
        let subtitles = server.url("captions/en.vtt").absoluteString + "=en"
        let run = try await Self.cove(["play", server.url(.ladder).absoluteString, "--fast", "--subtitles", subtitles, "--captions", "en"])
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.output.contains("[caption 0:"), "\(run.output)")
        #expect(run.output.contains("Whole clip & caption"), "\(run.output)")
        // A broken track never stops playback.
        let broken = try await Self.cove([
            "play", server.url(.ladder).absoluteString, "--fast", "--subtitles", server.url("captions/missing.vtt").absoluteString + "=de", "--captions", "de",
        ])
        #expect(broken.status == 0, "\(broken.errorOutput)")
        #expect(broken.output.contains("End"))
        #expect(!broken.output.contains("[caption"))
    }

    static let smallVMAP = """
        <?xml version="1.0" encoding="UTF-8"?>
        <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:bc="bc" version="1.0">
          <vmap:Extensions>
            <bc:Brightcove contenturi="https://cdn.example/content.m3u8?bc_token=secret123" contentlength="30.0" payloadlength="45.0"/>
          </vmap:Extensions>
          <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
            <vmap:AdSource id="pre"><vmap:VASTAdData><VAST version="3.0"><Ad id="a1"><InLine>
              <AdSystem>t</AdSystem><AdTitle>First</AdTitle><Impression>https://b.example/imp?a=1</Impression>
              <Creatives><Creative><Linear><Duration>00:00:05.000</Duration>
                <TrackingEvents><Tracking event="start">https://b.example/start?a=1</Tracking><Tracking event="complete">https://b.example/complete?a=1</Tracking></TrackingEvents>
              </Linear></Creative></Creatives></InLine></Ad></VAST></vmap:VASTAdData></vmap:AdSource>
          </vmap:AdBreak>
          <vmap:AdBreak timeOffset="00:00:10.000" breakType="linear" breakId="mid">
            <vmap:AdSource id="mid"><vmap:VASTAdData><VAST version="3.0"><Ad id="a2"><InLine>
              <AdSystem>t</AdSystem><AdTitle>Second</AdTitle><Impression>https://b.example/imp?a=2</Impression>
              <Creatives><Creative><Linear><Duration>00:00:10.000</Duration></Linear></Creative></Creatives></InLine></Ad></VAST></vmap:VASTAdData></vmap:AdSource>
          </vmap:AdBreak>
        </vmap:VMAP>
        """

    @Test func vmapPrintsTheAdTimelineAndTypedErrors() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-vmap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ads.vmap")
        try Data(Self.smallVMAP.utf8).write(to: file)
        let run = try await Self.cove(["vmap", file.path, "--json"])
        #expect(run.status == 0, "\(run.errorOutput)")
        let json = try JSONValue.parse(Array(run.output.utf8))
        #expect(json["contentDuration"]?.doubleValue == 30 && json["streamDuration"]?.doubleValue == 45)
        #expect(json["stream"]?["contentURL"]?.stringValue?.contains("secret123") == false, "tokens are redacted")
        let breaks = try #require(json["breaks"]?.arrayValue)
        #expect(breaks.count == 2)
        #expect(breaks[1]["contentOffset"]?.doubleValue == 10)
        #expect(breaks[1]["streamStart"]?.doubleValue == 15 && breaks[1]["streamEnd"]?.doubleValue == 25)
        let first = try #require(breaks[0]["ads"]?.arrayValue?.first)
        #expect(first["title"] == "First")
        #expect(first["beacons"]?["start"]?.arrayValue?.first == "https://b.example/start?a=1")
        #expect(first["beacons"]?["impression"]?.arrayValue?.first == "https://b.example/imp?a=1")
        #expect(first["quartiles"]?["midpoint"]?.doubleValue == 2.5)
        // Hostile: entity declarations are refused before any XML parser sees them.
        let hostile = folder.appendingPathComponent("hostile.vmap")
        try Data("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><vmap:VMAP/>".utf8).write(to: hostile)
        let refused = try await Self.cove(["vmap", hostile.path, "--json"])
        #expect(refused.status == 1)
        #expect(try JSONValue.parse(Array(refused.output.utf8))["error"]?["kind"] == "forbiddenDeclaration")
    }

    /// Waiting out a dead server (retries with backoff) costs next to no CPU: no busy loop. Measured
    /// on a child process, so the parallel tests in this one do not count.
    @Test func waitingForADeadServerIsNoBusyLoop() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let url = server.url(.ladder).absoluteString
        await server.beginOutage()
        // `times` prints the children's user and system CPU seconds after 6 s of wall time.
        let run = try await ProcessRunner.run("/bin/bash", ["-c", "\"$0\" probe \"$1\" --json --duration 6 >/dev/null 2>&1; times", Self.binary.path, url])
        let children = run.output.split(separator: "\n").last.map(String.init) ?? ""
        let cpu = children.split(separator: " ").compactMap { field -> Double? in
            // "0m0.512s" → 0.512
            let parts = field.replacingOccurrences(of: "s", with: "").split(separator: "m")
            guard parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) else { return nil }
            return minutes * 60 + seconds
        }.reduce(0, +)
        #expect(!children.isEmpty, "\(run.output)")
        // Start-up (runtime, GStreamer, plugins) is ~0.5 s of CPU; a busy loop would burn ~6 s.
        #expect(cpu < 2.0, "child CPU \(cpu) s over 6 s of waiting: \(children)")
    }

    @Test func vttPrintsCuesAndTypedErrors() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-vtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.vtt")
        try Data("WEBVTT\n\nintro\n00:00:01.000 --> 00:00:03.500 align:start\n<v Ann>Hi &amp; <i>welcome</i>\n\n00:00:xx.000 --> 00:00:05.000\nbroken\n".utf8)
            .write(to: good)
        let parsed = try await Self.cove(["vtt", good.path, "--json"])
        #expect(parsed.status == 0, "\(parsed.errorOutput)")
        let json = try JSONValue.parse(Array(parsed.output.utf8))
        let cue = try #require(json["cues"]?.arrayValue?.first)
        #expect(cue["id"] == "intro" && cue["text"] == "Hi & welcome" && cue["settings"] == "align:start")
        #expect(cue["start"]?.doubleValue == 1 && cue["end"]?.doubleValue == 3.5)
        #expect(json["skippedCues"] == 1)
        #expect(json["warnings"]?.arrayValue?.first?["line"] == 7)
        // The engine's own in-manifest subtitle segments, over HTTP.
        let served = try await Self.cove(["vtt", server.url("subtitles/vEnglish/index1.vtt").absoluteString, "--json"])
        #expect(served.status == 0, "\(served.errorOutput)")
        #expect(try JSONValue.parse(Array(served.output.utf8))["cues"]?.arrayValue != nil)
        // Binary data: a typed error, exit status 1.
        let binary = folder.appendingPathComponent("binary.vtt")
        try Data([0, 1, 2, 3]).write(to: binary)
        let refused = try await Self.cove(["vtt", binary.path, "--json"])
        #expect(refused.status == 1)
        #expect(try JSONValue.parse(Array(refused.output.utf8))["error"]?["kind"] == "binaryData")
        // A missing URL is an HTTP error, not an empty caption file.
        let missing = try await Self.cove(["vtt", server.url("missing.vtt").absoluteString])
        #expect(missing.status == 1 && missing.errorOutput.contains("HTTP 404"), "\(missing.errorOutput)")
    }

    /// `cove play` on a VMAP URL plays the stitched stream through the SSAI plugin and shows the ad
    /// breaks and the seed's countdown ("Ad 1 of 2 · 0:04 left").
    @Test func playShowsAdBreaksAndTheAdCountdown() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let title = try await SSAITitle.install(on: server)
        let run = try await Self.cove(["play", title.vmapURL.absoluteString, "--fast"])
        #expect(run.status == 0, "\(run.errorOutput)")
        for expected in [
            "Ad break 1: 1 ad", "Ad 1 of 1 · 0:04 left", "Ad break 2: 2 ads", "Ad 1 of 2 · 0:04 left  (skippable)", "Ad 2 of 2 · 0:04 left", "Ad break 3: 1 ad",
            "Duration 0:20", "End",
        ] {
            #expect(run.output.contains(expected), "\(expected) in \(run.output)")
        }
        try await title.beaconLog.waitUntil(describing: "the post-roll's complete") { $0.contains { $0.adID == "ad-post" && $0.event == "complete" } }
    }

    /// The terminal control bar, driven from the keyboard inside tmux: each key's effect is read
    /// back from the captured screen (pause, seek, the captions menu, the bitrate menu, quit).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func theControlBarIsDrivenFromTheKeyboard() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.addRoute(prefix: "/captions/en.vtt") { _ in
            MediaServerResponse(status: 200, contentType: "text/vtt", body: Data("WEBVTT\n\n00:00:00.000 --> 00:00:20.000\nEvery word\n".utf8))
        }
        let tmux = try await Self.playInTmux([server.url(.ladder).absoluteString, "--subtitles", server.url("captions/en.vtt").absoluteString + "=en"])
        defer { tmux.stop() }
        let paused = try await Self.pause(tmux)
        let before = try #require(Self.shownTime(paused))
        try await tmux.send("Right")
        try await tmux.waitForScreen("a 10 s seek") { Self.shownTime($0).map { $0 >= before + 9 && $0 <= before + 11 } == true }
        try await tmux.send("c")
        try await tmux.waitForScreen("the captions menu") { $0.contains("Captions:  1 Off") && $0.contains("2 English") }
        try await tmux.send("2")
        try await tmux.waitForScreen("English captions chosen") { $0.contains("Captions: English") && $0.contains("CC") }
        try await tmux.send("b")
        try await tmux.waitForScreen("the bitrate menu") { $0.contains("Bitrate:  1 Auto") && $0.contains("720p · 2.9 Mbit/s") }
        try await tmux.send("4")
        try await tmux.waitForScreen("240p chosen") { $0.contains("Bitrate: 240p") && $0.contains(" 240p ") }
        try await tmux.send("+")
        try await tmux.waitForScreen("a faster rate") { $0.contains("1.25×") }
        try await tmux.send("-")
        try await tmux.send("-")
        try await tmux.waitForScreen("a slower rate") { $0.contains("0.75×") }
        try await tmux.send("q")
        try await tmux.waitForScreen("the player exited, quitting being a normal way out") { $0.contains("EXIT=0") }
    }

    /// Scrubbing with `.`/`,` previews a position with its thumbnail (time and image name; inline
    /// images only on terminals that draw them) without seeking; Enter seeks there.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func scrubbingShowsTheThumbnailPreviewAndEnterSeeks() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        server.addRoute(prefix: "/thumbs.vtt") { _ in
            MediaServerResponse(
                status: 200, contentType: "text/vtt",
                body: Data("WEBVTT\n\n00:00:00.000 --> 00:00:10.000\nfirst.jpg\n\n00:00:10.000 --> 00:00:20.000\nsecond.jpg\n".utf8))
        }
        let tmux = try await Self.playInTmux([server.url(.ladder).absoluteString, "--thumbnails", server.url("thumbs.vtt").absoluteString])
        defer { tmux.stop() }
        let paused = try await Self.pause(tmux)
        let before = try #require(Self.shownTime(paused))
        try await tmux.send(".")
        let preview = try await tmux.waitForScreen("the preview") { $0.contains("Position 0:") && $0.contains("second.jpg") }
        // Previewing does not seek.
        #expect(Self.shownTime(preview) == before)
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the seek to the preview") {
            Self.shownTime($0).map { $0 >= before + 9 && $0 <= before + 11 } == true && !$0.contains("Position 0:")
        }
        try await tmux.send("q")
        try await tmux.waitForScreen("the player exited") { $0.contains("EXIT=") }
    }

    /// During an SSAI ad the bar becomes the ad bar ("Ad 1 of 1, 0:0x left", "Learn more"), seeking is
    /// refused with the seed's "your video will resume" message, and `l` shows the click-through URL.
    /// Arabic draws the same bar right to left.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func adsTurnTheBarIntoTheAdBar() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let title = try await SSAITitle.install(on: server)
        let tmux = try await Self.playInTmux([title.vmapURL.absoluteString])
        defer { tmux.stop() }
        try await tmux.waitForScreen("the ad bar") { $0.contains("Ad 1 of 1, 0:0") && $0.contains("Learn more") }
        try await tmux.send("Right")
        try await tmux.waitForScreen("seeking refused") { $0.contains("Your video will resume in") }
        try await tmux.send("l")
        try await tmux.waitForScreen("the click-through") { $0.contains("Learn more: https://advertiser.example.com/ad-pre?from=cove") }
        try await tmux.send("q")
        try await tmux.waitForScreen("the player exited") { $0.contains("EXIT=") }

        let arabic = try await Self.playInTmux([title.vmapURL.absoluteString], language: "ar")
        defer { arabic.stop() }
        let bar = try await arabic.waitForScreen("the Arabic ad bar") { $0.contains("إعلان 1 من 1") }
        // Right to left: the ad countdown, first in the ad bar's order, is drawn at the right end.
        let line = try #require(bar.split(separator: "\n").first { $0.contains("إعلان 1 من 1") })
        let countdown = try #require(line.range(of: "إعلان 1 من 1"))
        #expect(line.distance(from: line.startIndex, to: countdown.lowerBound) > line.count / 2, "\(line)")
        try await arabic.send("q")
    }

    /// A live stream with a DVR window: the bar reads "● Live" at the edge; seeking back turns it into
    /// "Go to live", and `g` goes back to the edge.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func liveDVRGoesBackToLive() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        // 35 two-second segments: a 70 s window, over the 60 s that makes a live stream a DVR one.
        try server.addLiveStream(path: "/live/dvr.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 35)
        let tmux = try await Self.playInTmux([server.url("live/dvr.m3u8").absoluteString])
        defer { tmux.stop() }
        // The slider covers the 66 s window; playing live is a few seconds short of its end (1:0x).
        try await Self.goesBehindTheLiveEdgeAndBack(tmux) { $0.range(of: #"  1:0\d "#, options: .regularExpression) != nil }
    }

    /// From the live DVR bar at the edge (`atEdge` adds what the stream's own bar shows there): `Left` seeks back
    /// and the live control reads "Go to live"; `g` goes back and it reads "● Live"; `q` exits cleanly.
    static func goesBehindTheLiveEdgeAndBack(_ tmux: TmuxSession, atEdge: @escaping (String) -> Bool) async throws {
        let live = try await tmux.waitForScreen("the live DVR bar at the edge") {
            $0.contains("VideoType(LiveDVR)") && $0.contains("● Live") && $0.contains("❚❚") && atEdge($0)
        }
        #expect(live.contains("↺10") && !live.contains("Go to live"), "\(live)")
        try await tmux.send("Left")
        try await tmux.waitForScreen("behind the edge") { $0.contains("Go to live") && !$0.contains("● Live") }
        try await tmux.send("g")
        try await tmux.waitForScreen("back at the edge") { $0.contains("● Live") && !$0.contains("Go to live") }
        try await tmux.send("q")
        let exited = try await tmux.waitForScreen("the player exited") { $0.contains("EXIT=") }
        #expect(exited.contains("EXIT=0"), "a clean exit after seeking in the live window: \(exited)")
    }

    /// The captions menu lists the audio tracks too when there is a choice (as the seed's does), and
    /// choosing one switches the audio; 9/0 step the volume and m mutes.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func theCaptionsMenuListsAudioTracksAndKeysSetTheVolume() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let tmux = try await Self.playInTmux([server.url(.alternateAudio).absoluteString])
        defer { tmux.stop() }
        _ = try await Self.pause(tmux)
        try await tmux.send("c")
        try await tmux.waitForScreen("the menu with both audio tracks before the captions") {
            $0.contains("1 Audio: English ✓") && $0.contains("2 Audio: French") && $0.contains("3 Off")
        }
        try await tmux.send("2")
        try await tmux.waitForScreen("French audio chosen") { $0.contains("Audio: French") && !$0.contains("1 Audio: English") }
        try await tmux.send("c")
        try await tmux.waitForScreen("French ticked now") { $0.contains("2 Audio: French ✓") && !$0.contains("English ✓") }
        try await tmux.send("Escape")
        try await tmux.send("9")
        try await tmux.waitForScreen("the volume a step down") { $0.contains("90 %") }
        try await tmux.send("m")
        try await tmux.waitForScreen("muted") { $0.contains("🔇 90 %") }
        try await tmux.send("q")
        try await tmux.waitForScreen("the player exited") { $0.contains("EXIT=0") }
    }

    /// The same control bar on a DASH video (issue 16: the UI works on DASH as on HLS): seeking, the captions
    /// menu listing the MPD's WebVTT text set, and the bitrate menu listing its video representations.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func theControlBarDrivesADASHVideo() async throws {
        let fixture = try await DASHFixture.prepare()
        let server = try await MediaServer.start(root: fixture.root)
        defer { Task { await server.stop() } }
        let tmux = try await Self.playInTmux([server.url(DASHFixture.Asset.timeline.rawValue).absoluteString])
        defer { tmux.stop() }
        let paused = try await Self.pause(tmux)
        let before = try #require(Self.shownTime(paused))
        try await tmux.send("Right")
        try await tmux.waitForScreen("a 10 s seek") { Self.shownTime($0).map { $0 >= before + 9 && $0 <= before + 11 } == true }
        try await tmux.send("c")
        try await tmux.waitForScreen("the captions menu with the text set") { $0.contains("Captions:  1 Off") && $0.contains("2 English") }
        try await tmux.send("1")
        try await tmux.waitForScreen("captions off") { $0.contains("Captions: Off") }
        try await tmux.send("b")
        try await tmux.waitForScreen("the bitrate menu with both representations") {
            $0.contains("Bitrate:  1 Auto") && $0.contains("720p · ") && $0.contains("240p · ")
        }
        try await tmux.send("3")
        try await tmux.waitForScreen("240p chosen") { $0.contains("Bitrate: 240p") && $0.contains(" 240p ") }
        try await tmux.send("q")
        let exited = try await tmux.waitForScreen("the player exited") { $0.contains("EXIT=") }
        #expect(exited.contains("EXIT=0"), "\(exited)")
        #expect(!server.requests.contains { $0.path.hasSuffix(".m3u8") }, "it played the MPD")
    }

    /// A live DASH stream with a 70 s time-shift window shows the live DVR bar as HLS does: "● Live" at the edge,
    /// "Go to live" after seeking back, and `g` returns to the edge.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func liveDASHWithADVRWindowGoesBackToLive() async throws {
        let fixture = try await DASHFixture.prepare(duration: 96)
        let server = try await MediaServer.start(root: fixture.root)
        defer { Task { await server.stop() } }
        let vod = try String(contentsOf: fixture.url(.timeline), encoding: .utf8)
        // 70 s published now: a window over the 60 s that makes a live stream a DVR one once the 4 s presentation
        // delay is taken off its edge; 26 s more to come.
        LiveDASH(vod: vod, availabilityStart: Date().addingTimeInterval(-70)).serve(on: server, at: "/timeline/live.mpd", timeShiftBufferDepth: 120)
        let tmux = try await Self.playInTmux([server.url("timeline/live.mpd").absoluteString])
        defer { tmux.stop() }
        // The slider shows a playhead (a clock before the bar) once playback has reported where it is.
        try await Self.goesBehindTheLiveEdgeAndBack(tmux) { $0.range(of: #"\d:\d\d ━"#, options: .regularExpression) != nil }
    }

    /// The bumper look in the terminal (`cove demo` plays the sample catalog's 4 s bumper first): the
    /// bar follows the bumper's clock with no playhead and no jump back, and the seek keys do nothing.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func aBumperHasNoSeekingAndNoJumpBack() async throws {
        let tmux = try await TmuxSession.start(command: [Self.binary.path, "demo", "--ui-language", "en"], width: 110, height: 18)
        defer { tmux.stop() }
        let bumper = try await tmux.waitForScreen("the bumper's bar") { $0.contains("BumperEnter") && $0.contains("/  0:04") && !$0.contains("BumperExit") }
        #expect(!bumper.contains("↺") && !bumper.contains("●"), "\(bumper)")
        try await tmux.send("Right")
        try await tmux.send("j")
        try await tmux.send("Left")
        // The content's own first frame, not just its bar: a seek before that has no frame to report.
        let content = try await tmux.waitForScreen("the content's bar after the bumper") {
            $0.contains("BumperExit") && $0.contains("↺10") && $0.contains("/  0:20") && $0.contains("First frame")
        }
        #expect(!content.contains("Frame at seek target"), "no key seeked the bumper: \(content)")
        // The same keys seek once the content plays.
        try await tmux.send("Right")
        try await tmux.waitForScreen("a seek in the content") { $0.contains("Frame at seek target") }
        try await tmux.send("q")
        try await tmux.waitForScreen("the demo exited") { $0.contains("EXIT=") }
    }

    /// Thumbnails by default, as in the seed: `cove demo` plays catalog videos with no thumbnail set-up
    /// of its own, and the ladder video's catalog thumbnails track previews a scrub (`.`) after the bumper.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func aCatalogVideoScrubsWithItsThumbnailsWithoutSetUp() async throws {
        let tmux = try await TmuxSession.start(command: [Self.binary.path, "demo", "--ui-language", "en"], width: 110, height: 18)
        defer { tmux.stop() }
        try await tmux.waitForScreen("the content after the bumper") { $0.contains("BumperExit") && $0.contains("❚❚") && $0.contains("/  0:20") }
        try await tmux.send(" ")
        try await tmux.waitForScreen("paused") { $0.split(separator: "\n").contains { $0.hasPrefix(" ▶ ") } }
        try await tmux.send(".")
        let preview = try await tmux.waitForScreen("the thumbnail preview") { $0.contains("Position 0:") && $0.contains("thumbnails.jpg") }
        #expect(!preview.contains("ThumbnailAssetFailedToLoad"), "\(preview)")
        try await tmux.send("q")
        try await tmux.waitForScreen("the demo exited") { $0.contains("EXIT=") }
    }

    /// `--hide-controls 2`: the bar goes two seconds after the last key while playing (the caption line
    /// stays), any key brings it back, and pausing keeps it up. Nonsense intervals are refused up front.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func theControlsHideWhilePlayingAndAnyKeyBringsThemBack() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        for bad in ["0", "-1", "inf", "nan"] {
            let run = try await Self.cove(["play", server.url(.ladder).absoluteString, "--hide-controls=\(bad)"])
            #expect(run.status != 0 && run.errorOutput.contains("--hide-controls takes seconds"), "\(bad): \(run.errorOutput)")
        }
        let tmux = try await Self.playInTmux([server.url(.ladder).absoluteString, "--hide-controls", "2"])
        defer { tmux.stop() }
        let hasBar = { (screen: String) in screen.contains("/  0:20") }
        try await tmux.waitForScreen("playing with the bar") { hasBar($0) && $0.contains("❚❚") }
        try await tmux.waitForScreen("the bar hidden") { !hasBar($0) }
        try await tmux.send("x")  // no key of its own: only shows the controls
        try await tmux.waitForScreen("the bar back after a key") { hasBar($0) && $0.contains("❚❚") }
        try await tmux.waitForScreen("hidden again") { !hasBar($0) }
        try await tmux.send(" ")
        try await tmux.waitForScreen("paused, with the bar") { hasBar($0) && $0.split(separator: "\n").contains { $0.hasPrefix(" ▶ ") } }
        try await tmux.send("q")
        try await tmux.waitForScreen("the player exited") { $0.contains("EXIT=") }
    }

    /// `cove play --window` under Xvfb shows the video in an X window: a grab of the screen while it
    /// plays is not black.
    @Test(.enabled(if: XServer.isAvailable, "Xvfb is not installed"))
    func playWindowRendersVideoUnderXvfb() async throws {
        let x = try await XServer.start()
        defer { x.stop() }
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let player = try ProcessRunner.start(
            Self.binary.path, ["play", server.url(.ladder).absoluteString, "--window", "--no-controls", "--peak-bitrate", "600000"],
            environment: ["DISPLAY": x.display])
        defer { player.kill() }
        var sawFrame = false
        for await line in player.lines {
            if line.contains("First frame") { sawFrame = true }
            // A second of playback after the first frame: the window shows moving video by then.
            if sawFrame, line.contains("▶ 0:01") || line.contains("▶ 0:02") { break }
        }
        #expect(sawFrame)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("cove-cli-x-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: shot) }
        try await x.run("import", "-window", "root", shot.path)
        #expect(try await ImageProbe.meanBrightness(ofFile: shot.path) > 0.02)
        player.interrupt()
    }

    /// `cove play --window-id` draws into a window someone else created (here the test, as an app
    /// would): a grab of that window while it plays is not black; a malformed ID is refused up front.
    @Test(.enabled(if: XServer.isAvailable, "Xvfb is not installed"))
    func playWindowIDDrawsIntoAnExistingWindow() async throws {
        let x = try await XServer.start()
        defer { x.stop() }
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let window = try XTestWindow(display: x.display, width: 480, height: 270)
        defer { window.close() }
        let hex = "0x" + String(window.id, radix: 16)
        let player = try ProcessRunner.start(
            Self.binary.path, ["play", server.url(.ladder).absoluteString, "--window-id", hex, "--no-controls", "--peak-bitrate", "600000"],
            environment: ["DISPLAY": x.display])
        defer { player.kill() }
        var sawFrame = false
        for await line in player.lines {
            if line.contains("First frame") { sawFrame = true }
            if sawFrame, line.contains("▶ 0:01") || line.contains("▶ 0:02") { break }
        }
        #expect(sawFrame)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("cove-cli-embed-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: shot) }
        try await x.run("timeout", "20", "import", "-window", hex, shot.path)
        #expect(try await ImageProbe.meanBrightness(ofFile: shot.path) > 0.05)
        player.interrupt()
        _ = await player.status()

        let refused = try await Self.cove(["play", server.url(.ladder).absoluteString, "--window-id", "main-window"])
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("is not an X11 window ID"), "\(refused.errorOutput)")
    }

    /// The example app opens its own window and embeds Cove in it: the window it names shows the video.
    @Test(.enabled(if: XServer.isAvailable, "Xvfb is not installed"))
    func theEmbeddingExampleShowsTheVideoInItsOwnWindow() async throws {
        let x = try await XServer.start()
        defer { x.stop() }
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let example = Self.binary.deletingLastPathComponent().appendingPathComponent("EmbedInWindow")
        let app = try ProcessRunner.start(example.path, [server.url(.ladder).absoluteString, "--seconds", "6"], environment: ["DISPLAY": x.display])
        defer { app.kill() }
        var window: String?
        var playing = false
        var controls: String?
        for await line in app.lines {
            if line.hasPrefix("window 0x") { window = String(line.dropFirst("window ".count)) }
            if line == "Play" { playing = true }
            if line.hasPrefix("play/pause drawn at ") { controls = line }
            if playing, controls != nil { break }
        }
        // The player view's controls inside the app's 640×360 window: play/pause at its bottom left.
        let place = controls.map { $0.dropFirst("play/pause drawn at ".count).split(separator: ",").compactMap { Int($0) } } ?? []
        #expect(place.count == 2 && place[0] < 60 && place[1] > 300 && place[1] < 360, "\(controls ?? "none")")
        let id = try #require(window)
        #expect(playing)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("cove-example-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: shot) }
        // (`timeout`: ImageMagick's grab never returns if the window goes away under it.)
        try await x.run("timeout", "20", "import", "-window", id, shot.path)
        let names = try await x.run("xwininfo", "-id", id)
        #expect(names.contains("Cove embedded"), "\(names)")
        #expect(await app.status() == 0)
        #expect(try await ImageProbe.meanBrightness(ofFile: shot.path) > 0.05)
    }

    /// `cove play ARGUMENTS` with its control bar, in a 110×18 tmux pane.
    static func playInTmux(_ arguments: [String], language: String = "en") async throws -> TmuxSession {
        try await TmuxSession.start(command: [binary.path, "play"] + arguments + ["--ui-language", language], width: 110, height: 18)
    }

    /// Waits for the bar to show playback, pauses with space, and returns the paused screen.
    static func pause(_ tmux: TmuxSession) async throws -> String {
        try await tmux.waitForScreen("playing") { $0.contains("❚❚") && $0.contains("/  0:20") }
        try await tmux.send(" ")
        return try await tmux.waitForScreen("paused") { $0.split(separator: "\n").contains { $0.hasPrefix(" ▶ ") } }
    }

    /// The clock shown as the current time on the bar ("0:12 /"), in seconds.
    static func shownTime(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"(\d+):(\d\d)  /"#, options: .regularExpression) else { return nil }
        let parts = screen[range].dropLast(3).split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }

    /// `--accessible` reads state changes out as sentences instead of drawing a bar.
    @Test func accessibleModeSpeaksInSentences() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let run = try await Self.cove(["play", server.url(.mp4).absoluteString, "--fast", "--accessible", "--ui-language", "de"])
        #expect(run.status == 0, "\(run.errorOutput)")
        for expected in ["Wiedergabe läuft", "Wiedergabe beendet"] { #expect(run.output.contains(expected), "\(expected) in \(run.output)") }
        #expect(!run.output.contains("\u{1B}["), "no terminal escapes in accessible mode")
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
