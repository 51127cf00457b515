import CoveCore
import Foundation
import Testing

@Suite("Values")
struct ValueTests {
    @Test func mediaTimeOrdersSentinelsAroundFiniteTimes() {
        #expect(MediaTime.before < .zero)
        #expect(MediaTime.zero < .seconds(1))
        #expect(MediaTime.seconds(1e6) < .after)
        #expect(MediaTime.before < .after)
        #expect(!(MediaTime.after < .after))
        #expect(MediaTime.seconds(-.infinity) == .before)
        #expect(MediaTime.seconds(.infinity) == .after)
        #expect(MediaTime.seconds(.nan) == .zero)
        #expect(MediaTime.seconds(1.5).nanoseconds == 1_500_000_000)
        #expect(MediaTime(.milliseconds(250)) == .seconds(0.25))
        #expect(MediaTime.before.seconds == -.infinity)
        #expect(MediaTime.after.duration == nil)
        #expect(MediaTime.seconds(2).offset(from: .seconds(0.5)) == .milliseconds(1500))
        #expect(MediaTime.seconds(75.25).description == "1:15.250")
    }

    @Test func mediaTimeArithmeticSaturatesInsteadOfTrapping() {
        #expect(MediaTime(nanoseconds: .max).advanced(by: .seconds(1)) == .after)
        #expect(MediaTime(nanoseconds: .min).advanced(by: .seconds(-1)) == .before)
        #expect(MediaTime.milliseconds(.max) == .after)
        #expect(MediaTime.before.advanced(by: .seconds(5)) == .before)
    }

    @Test func seekToleranceKnowsWhenItMaySnap() {
        #expect(SeekTolerance.keyframe.allowsKeyframeSnap)
        #expect(!SeekTolerance.default.allowsKeyframeSnap)
        #expect(SeekTolerance(before: .seconds(-1), after: .zero) == .zero)
    }

    static let cues = CuePointCollection([
        CuePoint(type: .ad, position: .seconds(10)),
        .before(type: .adSlot),
        CuePoint(type: .code, position: .seconds(5), properties: ["name": "five"]),
        .after(type: .adSlot),
        CuePoint(type: .ad, position: .seconds(5)),
    ])

    @Test func cuePointCollectionKeepsTimelineOrderStably() {
        #expect(Self.cues.map(\.position) == [.before, .seconds(5), .seconds(5), .seconds(10), .after])
        #expect(Self.cues[1].type == .code)
    }

    @Test func cuePointRangeQueriesMatchTheSeed() {
        let c = Self.cues
        #expect(c.after(.seconds(5)).map(\.position) == [.seconds(10), .after])
        #expect(c.before(.seconds(5)).map(\.position) == [.before])
        #expect(c.at(.seconds(5)).count == 2)
        #expect(c.atOrAfter(.seconds(5)).count == 4)
        #expect(c.atOrBefore(.seconds(5)).count == 3)
        #expect(c.after(.seconds(5), before: .after).map(\.position) == [.seconds(10)])
        #expect(c.after(.zero, atOrBefore: .seconds(10)).count == 3)
        #expect(c.atOrAfter(.seconds(5), before: .seconds(10)).count == 2)
        #expect(c.atOrAfter(.before, atOrBefore: .zero).map(\.type) == [.adSlot])
        #expect(c.ofType(.adSlot).map(\.position) == [.before, .after])
        #expect(c.ofType(.code).first?.name == "five")
    }

    @Test func videoUpdateReturnsAModifiedCopy() throws {
        let original = Video(url: URL(string: "https://cdn.example/a.m3u8")!, properties: ["foo": "bar", "id": "42"])
        let changed = original.update { $0.properties["foo"] = "quux" }
        #expect(original.properties["foo"] == "bar")
        #expect(changed.properties["foo"] == "quux")
        #expect(original != changed)
        #expect(original == Video(url: URL(string: "https://cdn.example/a.m3u8")!, properties: ["id": "42", "foo": "bar"]))
        #expect(changed.id == "42")
        let withThumbs = original.update { $0.thumbnailVTTURL = URL(string: "https://cdn.example/thumbs.vtt") }
        #expect(withThumbs.thumbnailVTTURL?.absoluteString == "https://cdn.example/thumbs.vtt")
        #expect(original.thumbnailVTTURL == nil)
    }

    @Test func videoReadsCatalogFieldsWithTheirWireUnits() {
        let video = Video(
            sources: [],
            properties: [
                "id": .int(4084164751001), "name": "Chickadee", "duration": 8240, "tags": ["air", "bird"],
                "economics": "AD_SUPPORTED", "offline_enabled": true, "custom_fields": ["bumper_id": "123"],
                "text_tracks": [
                    ["src": "https://x/en.vtt", "srclang": "en", "label": "English", "kind": "captions", "default": true],
                    ["src": "https://x/thumbs.vtt", "kind": "metadata", "label": "thumbnails"],
                    ["srclang": "fr"],
                ],
            ])
        #expect(video.id == "4084164751001")
        #expect(video.duration == .milliseconds(8240))
        #expect(video.tags == ["air", "bird"])
        #expect(video.economics == .adSupported)
        #expect(video.canBeDownloaded)
        #expect(video.customFields["bumper_id"] == "123")
        #expect(video.textTracks.count == 2)
        #expect(video.textTracks.first?.kind == .captions)
        #expect(video.textTracks.first?.isDefault == true)
        #expect(video.thumbnailVTTURL?.absoluteString == "https://x/thumbs.vtt")
    }

    @Test func sourceDeliveryTypeComesFromTypeContainerOrExtension() {
        let hls = Source(url: URL(string: "https://x/master.m3u8?token=1")!)
        let mp4 = Source(url: URL(string: "http://x/clip")!, properties: ["container": "MP4"])
        let apple = Source(url: URL(string: "https://x/y")!, deliveryMethod: "application/vnd.apple.mpegurl")
        let once = Source(url: URL(string: "https://x/y")!, deliveryMethod: .once)
        #expect(hls.isHLS && !hls.isMP4)
        #expect(mp4.isMP4)
        #expect(apple.isHLS)
        #expect(once.isHLS)
        #expect(Source(url: URL(string: "https://x/manifest.mpd")!).isDASH)
        #expect(Source(url: URL(string: "https://x/a")!, properties: ["codecs": "avc1, mp4a"]).codecs == ["avc1", "mp4a"])
    }

    @Test func playlistSplitsPlayableAndFailedVideos() {
        let ok = Video(url: URL(string: "https://x/a.m3u8")!)
        let failed = Video(error: VideoError(code: VideoError.videoNotFound), properties: ["id": "9"])
        let playlist = Playlist(videos: [ok, failed], properties: ["name": "Mixed"])
        #expect(playlist.allPlayableVideos == [ok])
        #expect(playlist.allFailedVideos == [failed])
        #expect(playlist.count == 2)
        #expect(playlist.name == "Mixed")
        #expect(playlist.update { $0.videos.removeLast() }.count == 1)
    }
}

@Suite("Source selection")
struct SourceSelectionTests {
    func video(_ urls: [(String, DeliveryType?)]) -> Video {
        Video(sources: urls.map { Source(url: URL(string: $0.0)!, deliveryMethod: $0.1) })
    }

    @Test func defaultPrefersHLSOverHTTPS() {
        let v = video([("http://a/1.mp4", .mp4), ("http://a/2.m3u8", .hls), ("https://a/3.m3u8", .hls)])
        #expect(SourceSelectionPolicy.default(v)?.url.absoluteString == "https://a/3.m3u8")
    }

    @Test func defaultFallsBackToHLSOverHTTPThenDASHThenMP4ThenFirst() {
        #expect(SourceSelectionPolicy.default(video([("http://a/1.mp4", .mp4), ("http://a/2.m3u8", .hls)]))?.url.absoluteString == "http://a/2.m3u8")
        #expect(SourceSelectionPolicy.default(video([("http://a/1.mp4", .mp4), ("https://a/x.mpd", .dash)]))?.url.absoluteString == "https://a/x.mpd")
        #expect(SourceSelectionPolicy.default(video([("http://a/1.mp4", .mp4), ("http://a/x.webm", nil)]))?.url.absoluteString == "http://a/1.mp4")
        #expect(SourceSelectionPolicy.default(video([("http://a/x.webm", nil), ("http://a/y.ogv", nil)]))?.url.absoluteString == "http://a/x.webm")
        #expect(SourceSelectionPolicy.default(video([("https://a/x.mpd", .dash), ("https://a/y.mpd", .dash)]))?.url.absoluteString == "https://a/x.mpd")
        #expect(SourceSelectionPolicy.default(video([])) == nil)
    }

    @Test func schemeHelperPrefersTheGivenScheme() {
        let v = video([("https://a/1.m3u8", .hls), ("http://a/2.m3u8", .hls)])
        #expect(SourceSelectionPolicy.hls(preferringScheme: "http")(v)?.url.absoluteString == "http://a/2.m3u8")
    }

    /// Dynamic Delivery lists DRM sources first. The seed (on Apple devices, which have FairPlay) takes the
    /// first HLS; Cove has no key system, so the default skips sources needing one while a clear one
    /// exists, and takes the seed's choice only when none does (playing it then fails drmUnsupported).
    @Test func theDefaultSkipsSourcesNeedingAKeySystemTheDeviceLacks() {
        let fairplay = Source(
            url: URL(string: "https://a/fps.m3u8")!, deliveryMethod: .hls, properties: ["key_systems": ["com.apple.fps.1_0": ["key_request_url": "https://k"]]])
        let widevine = Source(
            url: URL(string: "https://a/wv.mpd")!, deliveryMethod: .dash, properties: ["key_systems": ["com.widevine.alpha": ["license_url": "https://l"]]])
        let clearHLS = Source(url: URL(string: "http://a/clear.m3u8")!, deliveryMethod: .hls)
        let clearDASH = Source(url: URL(string: "https://a/clear.mpd")!, deliveryMethod: .dash)
        let clearMP4 = Source(url: URL(string: "https://a/clear.mp4")!, deliveryMethod: .mp4)
        #expect(SourceSelectionPolicy.default(Video(sources: [fairplay, widevine, clearMP4, clearHLS])) == clearHLS)
        #expect(SourceSelectionPolicy.default(Video(sources: [fairplay, widevine, clearMP4, clearDASH])) == clearDASH)
        #expect(SourceSelectionPolicy.default(Video(sources: [fairplay, widevine])) == fairplay, "the seed's choice when nothing is playable")
        #expect(SourceSelectionPolicy.hls(preferringScheme: "https")(Video(sources: [fairplay, clearHLS])) == fairplay, "the seed's rule itself is unchanged")
        let withWidevine = SourceSelectionPolicy.capabilities(PlaybackCapabilities(formats: [.dash, .hls], keySystems: ["com.widevine.alpha"]))
        #expect(withWidevine(Video(sources: [fairplay, clearHLS, widevine])) == widevine)
        #expect(SourceSelectionPolicy.withoutDRM()(Video(sources: [fairplay, clearMP4, clearHLS])) == clearHLS)
        #expect(SourceSelectionPolicy.withoutDRM()(Video(sources: [fairplay])) == nil)
    }

    @Test func customClosureDecides() {
        let policy = SourceSelectionPolicy { $0.sources.last }
        let v = video([("https://a/1.m3u8", .hls), ("http://a/2.mp4", .mp4)])
        #expect(policy(v)?.url.absoluteString == "http://a/2.mp4")
    }
}

@Suite("JSON values")
struct JSONValueTests {
    @Test func parsesAndKeepsIntegersExact() throws {
        let value = try JSONValue.parse(Array(#"{"id": 57838016001, "d": 10.527, "s": "x", "n": null, "a": [true]}"#.utf8))
        #expect(value["id"] == .int(57838016001))
        #expect(value["d"]?.doubleValue == 10.527)
        #expect(value["n"]?.isNull == true)
        #expect(value["a"]?.arrayValue == [.bool(true)])
    }

    @Test func rejectsHostileInputWithTypedErrors() {
        #expect(throws: JSONParseError.tooDeep(limit: 64)) { try JSONValue.parse(Array(String(repeating: "[", count: 100).utf8)) }
        #expect(throws: JSONParseError.invalidUTF8) { try JSONValue.parse([0x7B, 0xFF, 0x7D]) }
        #expect(throws: JSONParseError.tooLarge(bytes: 11, limit: 10)) { try JSONValue.parse(Array("[1,2,3,4,5]".utf8), limits: JSONLimits(maxBytes: 10)) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array("{\"a\":".utf8)) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array("<html>502</html>".utf8)) }
    }

    @Test func bracketsInsideStringsDoNotCountAsDepth() throws {
        let value = try JSONValue.parse(Array(#"{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"]"}"#.utf8))
        #expect(value["a"]?.stringValue?.hasPrefix("[[[") == true)
    }

    @Test func roundTripsThroughSerialization() throws {
        let value: JSONValue = ["b": [1, 2.5, "x"], "a": nil, "c": ["d": false]]
        #expect(try JSONValue.parse(Array(value.serialized().utf8)) == value)
    }
}

@Suite("Redaction")
struct RedactionTests {
    @Test func credentialQueryValuesAreReplaced() {
        let url = "https://cdn.example/master.m3u8?bc_token=abc.def&fastly_token=zzz&quality=high&pk=BCpkADaw"
        let redacted = Redaction.redact(urlString: url)
        #expect(redacted == "https://cdn.example/master.m3u8?bc_token=REDACTED&fastly_token=REDACTED&quality=high&pk=REDACTED")
    }

    @Test func userInfoIsReplacedAndOddInputNeverTraps() {
        #expect(Redaction.redact(urlString: "https://user:pass@host/p") == "https://REDACTED@host/p")
        for odd in ["", "?", "%%%?a=%ZZ&&=", "http://[::1]:80/?token", "::::", "a?b=c#frag?token=x"] {
            _ = Redaction.redact(urlString: odd)
        }
        #expect(Redaction.redact(urlString: "a?token=x#frag") == "a?token=REDACTED#frag")
    }

    @Test func registeredSecretsAndBearerTokensVanishFromText() {
        Redaction.register(secret: "BCpkADawqM1secretPolicyKey")
        let text = Redaction.redactSecrets(in: "GET https://h/x?a=1 with key BCpkADawqM1secretPolicyKey and Authorization: Bearer eyJhbGciOi.payload.sig")
        #expect(!text.contains("BCpkADawqM1secretPolicyKey"))
        #expect(!text.contains("eyJhbGciOi"))
        #expect(text.contains("https://h/x?a=1"))
    }

    @Test func errorsRedactTheirURLs() {
        let error = PlaybackError(.notFound, "No media at https://h/a.m3u8?token=s3cr3t", url: "https://h/a.m3u8?token=s3cr3t")
        #expect(!error.description.contains("s3cr3t"))
        #expect(error.url == "https://h/a.m3u8?token=REDACTED")
    }
}
