import CoveCore
import CoveTesting
import Foundation
import Testing

/// `cove manifest`: the built binary over the project's own fixture manifests (HLS TS, fMP4, alternate audio,
/// AES-128, DASH in each addressing mode, live HLS and DASH) and hostile inputs. Every run is timed: each must
/// finish well inside a second on an idle machine; the bound asserted is generous for a loaded CI host.
@Suite("cove manifest", .serialized)
struct ManifestCLITests {
    static let bound = 5.0

    /// Runs `cove manifest ARGS` and checks it finished within `bound` (printing the time for the record).
    static func manifest(_ arguments: [String], _ name: String) async throws -> (run: ProcessRunner.Result, json: JSONValue?) {
        let start = ContinuousClock.now
        let run = try await CLITests.cove(["manifest"] + arguments)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("cove manifest timing: \(name) \(String(format: "%.3f", seconds)) s")
        #expect(seconds < bound, "\(name) took \(seconds) s")
        #expect(run.status < 128, "\(name) crashed: \(run.errorOutput)")
        #expect(!run.errorOutput.contains("Fatal error"), "\(name) crashed: \(run.errorOutput)")
        return (run, arguments.contains("--json") ? try? JSONValue.parse(Array(run.output.utf8)) : nil)
    }

    /// Each of `fields` has the value given (numbers compared as numbers).
    static func expect(_ value: JSONValue?, _ fields: [String: JSONValue], sourceLocation: SourceLocation = #_sourceLocation) {
        for (key, expected) in fields.sorted(by: { $0.key < $1.key }) {
            let actual = value?[key]
            let same = actual == expected || (actual?.doubleValue != nil && actual?.doubleValue == expected.doubleValue)
            #expect(same, "\(key): \(String(describing: actual)), expected \(expected) in \(String(describing: value))", sourceLocation: sourceLocation)
        }
    }

    static func folder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-manifest-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func anHLSLadderOnDiskIsReadWithItsMediaPlaylists() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let (run, json) = try await Self.manifest([fixtures.url(.ladder).path, "--json"], "hls-ts-ladder")
        #expect(run.status == 0, "\(run.errorOutput)")
        let document = try #require(json, "\(run.output)")
        Self.expect(document, ["format": "hls", "type": "hlsMaster", "version": 3, "duration": 20])
        #expect(document.objectValue?.keys.contains("live") == false)
        let variants = try #require(document["variants"]?.arrayValue)
        try #require(variants.count == 3)
        #expect(variants.map { $0["bandwidth"]?.int64Value } == [510_400, 1_280_400, 2_930_400])
        #expect(variants.map { $0["height"]?.int64Value } == [240, 480, 720])
        #expect(variants[0]["codecs"]?.arrayValue?.compactMap(\.stringValue) == ["avc1.42c015", "mp4a.40.2"])
        #expect(variants[0]["uri"] == "v0/index.m3u8")
        for variant in variants {
            Self.expect(variant["media"], ["read": true, "segments": 10, "duration": 20, "playlistType": "VOD"])
            #expect(variant["media"]?["initSections"]?.arrayValue?.isEmpty == true, "TS carries no init section")
        }
        #expect(document["keySystems"]?.arrayValue?.isEmpty == true)
        // The same facts as text.
        let (text, _) = try await Self.manifest([fixtures.url(.ladder).path], "hls-ts-ladder-text")
        #expect(text.status == 0)
        #expect(text.output.contains("HLS master playlist (version 3), 20.000 s"), "\(text.output)")
        for expected in ["3 variants:", "426x240", "10 segments, 20.000 s"] { #expect(text.output.contains(expected), "\(text.output)") }
        #expect(text.output.contains("key systems: none (clear)"))
    }

    @Test func fMP4InitSectionsAndAudioRenditions() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let (fmp4, fmp4JSON) = try await Self.manifest([fixtures.url(.fmp4).path, "--json"], "hls-fmp4")
        #expect(fmp4.status == 0, "\(fmp4.errorOutput)")
        let variant = try #require(fmp4JSON?["variants"]?.arrayValue?.first)
        #expect(variant["media"]?["initSections"]?.arrayValue?.first?["uri"] == "v0/init.mp4", "\(variant)")
        #expect(variant["media"]?["segments"] == 10)
        // The fixture's alternate audio (TS): two renditions in one group, each with its playlist read.
        let (audio, audioJSON) = try await Self.manifest([fixtures.url(.alternateAudio).path, "--json"], "hls-alternate-audio")
        #expect(audio.status == 0, "\(audio.errorOutput)")
        let renditions = try #require(audioJSON?["renditions"]?.arrayValue)
        try #require(renditions.count == 2)
        Self.expect(renditions[0], ["kind": "audio", "group": "group_aud", "language": "en", "isDefault": true])
        Self.expect(renditions[1], ["kind": "audio", "group": "group_aud", "language": "fr", "isDefault": false])
        // The audio playlists cut their segments at AAC frames: 11 segments over 20.032 s.
        for rendition in renditions {
            Self.expect(rendition["media"], ["read": true])
            let seconds = rendition["media"]?["duration"]?.doubleValue ?? 0
            #expect(abs(seconds - 20) < 0.1, "\(rendition)")
        }
        #expect(audioJSON?["variants"]?[0]?["audioGroup"] == "group_aud")
        // fMP4 with audio renditions: the fixture's fMP4 playlist as video and as two audio renditions.
        let folder = try Self.folder("fmp4-audio")
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try String(contentsOf: fixtures.root.appendingPathComponent("fmp4/v0/index.m3u8"), encoding: .utf8)
        for path in ["video/index.m3u8", "en/index.m3u8", "de/index.m3u8"] { try Self.write(media, to: folder.appendingPathComponent(path)) }
        try Self.write(
            """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="en/index.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",LANGUAGE="de",DEFAULT=NO,URI="de/index.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",LANGUAGE="en",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=1200000,AVERAGE-BANDWIDTH=1000000,RESOLUTION=854x480,FRAME-RATE=24.000,CODECS="avc1.42c01e,mp4a.40.2",AUDIO="aac",CLOSED-CAPTIONS="cc"
            video/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2400000,RESOLUTION=1280x720,CODECS="avc1.42c01f,mp4a.40.2",AUDIO="aac"
            missing/index.m3u8
            """, to: folder.appendingPathComponent("master.m3u8"))
        let (both, json) = try await Self.manifest([folder.appendingPathComponent("master.m3u8").path, "--json"], "hls-fmp4-audio-renditions")
        #expect(both.status == 0, "\(both.errorOutput)")
        let variants = try #require(json?["variants"]?.arrayValue)
        try #require(variants.count == 2)
        Self.expect(variants[0], ["frameRate": 24, "averageBandwidth": 1_000_000])
        #expect(variants[0]["media"]?["initSections"]?[0]?["uri"] == "video/init.mp4", "\(variants[0])")
        // A playlist the master names that is not on disk is said to be unread, not an error.
        Self.expect(variants[1]["media"], ["read": false])
        #expect(variants[1]["media"]?["notRead"]?.stringValue?.contains("not on disk") == true, "\(variants[1])")
        let all = try #require(json?["renditions"]?.arrayValue)
        let kinds: [String?] = all.map { $0["kind"]?.stringValue }
        try #require(kinds == ["audio", "audio", "closedCaptions"])
        #expect(all[0]["media"]?["initSections"]?[0]?["uri"] == "en/init.mp4")
        #expect(all[1]["name"] == "Deutsch")
        #expect(all[2]["instreamID"] == "CC1")
        #expect(all[2].objectValue?.keys.contains("media") == false)
    }

    @Test func aesKeysAreDescribedNeverShown() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let (run, json) = try await Self.manifest([fixtures.url(.aes).path, "--json"], "hls-aes128")
        #expect(run.status == 0, "\(run.errorOutput)")
        let media = try #require(json?["variants"]?[0]?["media"])
        #expect(media["encryptedSegments"] == 10)
        let expectedKey: JSONValue = ["iv": "explicit", "keyFormat": "identity", "method": "AES-128", "uri": "key.bin"]
        #expect(media["keys"]?.arrayValue == [expectedKey], "\(media)")
        #expect(json?["keySystems"]?.arrayValue?.compactMap(\.stringValue) == ["AES-128"])
        let key = try Data(contentsOf: fixtures.root.appendingPathComponent("aes/key.bin"))
        let hex = key.map { String(format: "%02x", $0) }.joined()
        #expect(!run.output.lowercased().contains(hex), "the key's bytes are never printed")
        // Key URIs with tokens, an inline key and a DRM key format: tokens redacted, the inline key never shown.
        let folder = try Self.folder("keys")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k?token=hunter2secret&id=7",IV=0x000102030405060708090a0b0c0d0e0f
            #EXTINF:4,
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="data:text/plain;base64,c2VjcmV0a2V5Ynl0ZXMxMjM0"
            #EXTINF:4,
            b.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://asset-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:4,
            c.ts
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            d.ts
            #EXT-X-ENDLIST
            """, to: folder.appendingPathComponent("keys.m3u8"))
        for arguments in [[folder.appendingPathComponent("keys.m3u8").path, "--json"], [folder.appendingPathComponent("keys.m3u8").path]] {
            let (keys, _) = try await Self.manifest(arguments, "hls-key-uris\(arguments.count == 1 ? "-text" : "")")
            #expect(keys.status == 0, "\(keys.errorOutput)")
            let all = keys.output + keys.errorOutput
            for expected in ["token=REDACTED", "id=7"] { #expect(all.contains(expected), "\(all)") }
            for secret in ["hunter2secret", "c2VjcmV0a2V5Ynl0ZXMxMjM0", "0x000102", "000102030405"] { #expect(!all.contains(secret), "\(secret) in \(all)") }
            #expect(all.contains("com.apple.streamingkeydelivery"))
        }
        let (keys, keysJSON) = try await Self.manifest([folder.appendingPathComponent("keys.m3u8").path, "--json"], "hls-key-uris-again")
        #expect(keys.status == 0)
        #expect(keysJSON?["type"] == "hlsMedia")
        #expect(keysJSON?["keySystems"]?.arrayValue?.compactMap(\.stringValue) == ["AES-128", "SAMPLE-AES (com.apple.streamingkeydelivery)"])
        Self.expect(keysJSON?["variants"]?[0]?["media"], ["discontinuities": 1, "encryptedSegments": 3])
    }

    @Test func dashInEveryAddressingMode() async throws {
        let fixture = try await DASHFixture.prepare()
        for asset in DASHFixture.Asset.allCases {
            let (run, json) = try await Self.manifest([fixture.url(asset).path, "--json"], "dash-\(asset)")
            #expect(run.status == 0, "\(asset): \(run.errorOutput)")
            let document = try #require(json, "\(asset): \(run.output)")
            Self.expect(document, ["format": "dash", "type": "dashStatic", "duration": 20])
            #expect(document["periods"]?.arrayValue?.count == 1)
            let variants = try #require(document["variants"]?.arrayValue)
            #expect(variants.map { $0["bandwidth"]?.int64Value } == [400_000, 2_000_000], "\(asset)")
            #expect(variants.map { $0["height"]?.int64Value } == [240, 720], "\(asset)")
            for variant in variants {
                // An indexed SegmentBase's segments come from its sidx, read from disk.
                #expect(variant["media"]?["segments"] == 10, "\(asset): \(variant)")
                let duration = variant["media"]?["duration"]?.doubleValue ?? 0
                #expect(abs(duration - 20) < 0.1, "\(asset): \(variant)")
                #expect(variant["media"]?["initSections"]?.arrayValue?.count == 1, "\(asset): \(variant)")
                #expect(variant["representationID"]?.stringValue != nil)
            }
            let audio = try #require(document["renditions"]?.arrayValue?.first { $0["kind"] == "audio" })
            let audioSegments = audio["media"]?["segments"]?.int64Value ?? 0
            #expect((9...11).contains(audioSegments), "\(asset): \(audio)")
            #expect(audio["representations"] == 1)
            if asset == .timeline {
                let text = document["renditions"]?.arrayValue?.first { $0["kind"] == "subtitles" }
                Self.expect(text, ["language": "en", "uri": "subs.vtt"])
                Self.expect(text?["media"], ["duration": 20, "segments": 1])
            }
        }
        let (text, _) = try await Self.manifest([fixture.url(.list).path], "dash-list-text")
        for expected in ["DASH static MPD, 20.000 s", "representation"] { #expect(text.output.contains(expected), "\(text.output)") }
        #expect(text.output.contains("byte ranges"), "SegmentList of byte ranges: \(text.output)")
    }

    @Test func dashProtectionIsDescribedAndItsKeySystemNamed() async throws {
        let folder = try Self.folder("drm")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(
            """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013" type="static" mediaPresentationDuration="PT10S">
              <Period id="p0">
                <AdaptationSet contentType="video" mimeType="video/mp4">
                  <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="10000000-1000-1000-1000-100000000001"/>
                  <ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"><cenc:pssh>AAAAsecretpssh</cenc:pssh></ContentProtection>
                  <SegmentTemplate media="v_$Number$.m4s" initialization="v_init.mp4" duration="2" startNumber="1"/>
                  <Representation id="v" bandwidth="1000000" width="640" height="360" codecs="avc1.4d401e"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """, to: folder.appendingPathComponent("drm.mpd"))
        let (run, json) = try await Self.manifest([folder.appendingPathComponent("drm.mpd").path, "--json"], "dash-widevine-only")
        #expect(run.status == 1, "Cove cannot play it: \(run.output)")
        #expect(json?["error"]?["kind"] == "drmUnsupported")
        let protection = try #require(json?["periods"]?[0]?["adaptationSets"]?[0]?["contentProtection"]?.arrayValue)
        let systems: [String?] = protection.map { $0["keySystem"]?.stringValue }
        try #require(systems == ["MPEG Common Encryption (cenc)", "Widevine"])
        #expect(protection[0]["defaultKID"] == "10000000-1000-1000-1000-100000000001")
        #expect(protection[1]["schemeIdUri"] == "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed")
        #expect(!run.output.contains("secretpssh"))
    }

    @Test func liveHLSAndDASHOverHTTP() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        // A master over HTTP: its media playlists fetched through Cove's transport.
        let (master, masterJSON) = try await Self.manifest([server.url(.ladder).absoluteString, "--json"], "hls-master-url")
        #expect(master.status == 0, "\(master.errorOutput)")
        #expect(masterJSON?["variants"]?.arrayValue?.allSatisfy { $0["media"]?["segments"] == 10 } == true, "\(master.output)")
        try server.addLiveStream(path: "live/index.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 6)
        let (live, liveJSON) = try await Self.manifest([server.url("live/index.m3u8?token=abc123secret").absoluteString, "--json"], "hls-live-url")
        #expect(live.status == 0, "\(live.errorOutput)")
        #expect(liveJSON?["type"] == "hlsMedia")
        #expect(liveJSON?["url"]?.stringValue?.hasSuffix("?token=REDACTED") == true, "\(live.output)")
        let window = try #require(liveJSON?["live"])
        Self.expect(window, ["targetDuration": 2, "windowSegments": 6, "windowLength": 12, "seekableWindow": 6, "dvr": false, "dvrMinimumWindow": 60])
        #expect(!live.output.contains("abc123secret"))
        let (liveText, _) = try await Self.manifest([server.url("live/index.m3u8").absoluteString], "hls-live-url-text")
        for expected in ["HLS media playlist (version 3), live", "DVR no"] { #expect(liveText.output.contains(expected), "\(liveText.output)") }

        let dash = try await DASHFixture.prepare()
        let dashServer = try await MediaServer.start(root: dash.root)
        defer { Task { await dashServer.stop() } }
        let vod = try String(contentsOf: dash.url(.timeline), encoding: .utf8)
        LiveDASH(vod: vod, availabilityStart: Date().addingTimeInterval(-15)).serve(on: dashServer, at: "/timeline/live.mpd")
        let (dynamic, dynamicJSON) = try await Self.manifest([dashServer.url("timeline/live.mpd").absoluteString, "--json"], "dash-live-url")
        #expect(dynamic.status == 0, "\(dynamic.errorOutput)")
        #expect(dynamicJSON?["type"] == "dashDynamic")
        let dashWindow = try #require(dynamicJSON?["live"])
        Self.expect(dashWindow, ["timeShiftBufferDepth": 30, "suggestedPresentationDelay": 4, "minimumUpdatePeriod": 2, "dvr": false])
        #expect(dashWindow["availabilityStartTime"]?.stringValue?.hasSuffix("Z") == true)
        let windowSegments = dashWindow["windowSegments"]?.int64Value ?? 0
        #expect(windowSegments >= 6, "\(dashWindow)")
    }

    @Test func hostileInputsAreTypedErrorsQuickly() async throws {
        let folder = try Self.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ bytes: Data) throws -> String {
            let url = folder.appendingPathComponent(name)
            try bytes.write(to: url)
            return url.path
        }
        func refused(_ path: String, _ name: String) async throws -> JSONValue {
            let (run, json) = try await Self.manifest([path, "--json"], name)
            #expect(run.status == 1, "\(name): \(run.output)")
            let error = try #require(json?["error"], "\(name): \(run.output) \(run.errorOutput)")
            #expect(error["message"]?.stringValue?.isEmpty == false)
            let (text, _) = try await Self.manifest([path], name + "-text")
            #expect(text.status == 1, "\(name)")
            #expect(text.errorOutput.hasPrefix("cove manifest: "), "\(name): \(text.errorOutput)")
            return error
        }
        let empty = try await refused(try file("empty.m3u8", Data()), "empty")
        #expect(empty["kind"] == "unrecognizedFormat")
        var random = SystemRandomNumberGenerator()
        let binary = try await refused(try file("binary.mpd", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) } + [0])), "binary")
        #expect(binary["kind"] == "unrecognizedFormat" || binary["reader"] == "dash" || binary["reader"] == "hls", "\(binary)")
        let truncated = try await refused(try file("truncated.m3u8", Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS=\"avc1".utf8)), "truncated-hls")
        Self.expect(truncated, ["reader": "hls", "line": 2])
        let cut = try await refused(
            try file("truncated.mpd", Data("<?xml version=\"1.0\"?>\n<MPD type=\"static\">\n  <Period>\n    <Adaptation".utf8)), "truncated-mpd")
        #expect(cut["reader"] == "dash", "\(cut)")
        let nested = try await refused(
            try file("nested.mpd", Data(("<MPD>" + String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000) + "</MPD>").utf8)),
            "deeply-nested-xml")
        Self.expect(nested, ["reader": "dash", "kind": "invalidXML.tooDeep", "line": 1])
        // A playlist over the HLS reader's 4 MiB limit, and a file over any manifest's 8 MiB.
        let big = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + String(repeating: "#EXTINF:2,\nsegment-with-a-long-name.ts\n", count: 5 << 20 / 38)
        let overLimit = try await refused(try file("big.m3u8", Data(big.utf8)), "hls-over-4MiB")
        Self.expect(overLimit, ["reader": "hls", "kind": "tooLarge"])
        let huge = try await refused(try file("huge.m3u8", Data(count: 64 << 20)), "huge-64MiB")
        #expect(huge["kind"] == "tooLarge", "\(huge)")
        // A master that lists itself, and two masters that list each other.
        let selfListing = try await refused(try file("self.m3u8", Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nself.m3u8\n".utf8)), "master-lists-itself")
        #expect(selfListing["kind"] == "invalidManifest", "\(selfListing)")
        _ = try file("b.m3u8", Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n".utf8))
        let (loop, loopJSON) = try await Self.manifest(
            [try file("a.m3u8", Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nb.m3u8\n".utf8)), "--json"], "masters-list-each-other")
        #expect(loop.status == 1, "\(loop.output)")
        Self.expect(loopJSON?["variants"]?[0]?["media"]?["error"], ["kind": "invalidManifest"])
        let media = try file("media-self.m3u8", Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nmedia-self.m3u8\n#EXT-X-ENDLIST\n".utf8))
        let (mediaLoop, mediaJSON) = try await Self.manifest([media, "--json"], "media-lists-itself")
        #expect(mediaLoop.status == 1, "\(mediaLoop.output)")
        Self.expect(mediaJSON?["variants"]?[0]?["media"]?["error"], ["kind": "invalidManifest"])
        // Not a file, not there, a folder, a pipe.
        let missing = try await refused(folder.appendingPathComponent("missing.m3u8").path, "missing-file")
        #expect(missing["kind"] == "fileUnreadable")
        let directory = try await refused(folder.path, "a-folder")
        #expect(directory["kind"] == "fileUnreadable")
        let scheme = try await refused("ftp://example.com/x.m3u8", "other-scheme")
        #expect(scheme["kind"] == "invalidSource")
    }

    @Test func urlsFailTypedAndWithinTheDeadline() async throws {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        let (missing, missingJSON) = try await Self.manifest([server.url("nothing.m3u8?sig=s3cr3tsig").absoluteString, "--json"], "url-404")
        #expect(missing.status == 1, "\(missing.output)")
        Self.expect(missingJSON?["error"], ["httpStatus": 404, "kind": "httpStatus"])
        #expect(!missing.output.contains("s3cr3tsig"))
        server.addRoute(prefix: "/portal.m3u8") { _ in
            MediaServerResponse(status: 200, contentType: "text/html", body: Data("<!doctype html><html><body>Log in</body></html>".utf8))
        }
        let (portal, portalJSON) = try await Self.manifest([server.url("portal.m3u8").absoluteString, "--json"], "url-html-page")
        #expect(portal.status == 1, "\(portal.output)")
        Self.expect(portalJSON?["error"], ["kind": "unrecognizedFormat"])
        #expect(portalJSON?["error"]?["message"]?.stringValue?.contains("an HTML page") == true, "\(portal.output)")
        // A server that takes 8 s to answer: the command gives up at its deadline.
        let slow = try await MediaServer.start(root: fixtures.root)
        defer { Task { await slow.stop() } }
        slow.setFirstByteDelay(.seconds(8))
        let (late, lateJSON) = try await Self.manifest([slow.url(.ladder).absoluteString, "--json", "--timeout", "1"], "url-deadline-1s")
        #expect(late.status == 1, "\(late.output)")
        let kind = lateJSON?["error"]?["kind"]?.stringValue
        #expect(kind == "timeout" || kind == "network", "\(late.output)")
    }
}

extension JSONValue {
    /// Array element lookup that is nil out of range (never traps).
    fileprivate subscript(_ index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
