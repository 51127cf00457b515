import Clocks
import CoveCore
import CoveSSAI
import CoveTesting
import CoveText
import Foundation
import Synchronization
import Testing

/// An ad's own closed captions (VAST 4.1 `ClosedCaptionFiles`) offered as a text track while the ad
/// plays, against the scripted engine, a manual clock and an in-memory transport. The stream is
/// `SSAIFixture`'s with the captioned VMAP: `ad-pre` [0, 4) and `ad-mid-1` [14, 18) carry an SRT (not
/// read), a French TTML and an English WebVTT file; `ad-mid-2` [18, 22) has none. The content has its
/// own sidecar captions ("Content caption" throughout).
@Suite("SSAI ad captions (scripted engine)")
struct SSAIAdCaptionsTests {
    let engine: ScriptedEngine
    let clock = TestClock()
    let logs = LogCapture()
    let transport: ScriptedHTTPTransport
    /// Caption paths the transport answers 404 for.
    let missing = MissingPaths()
    static let base = URL(string: "https://ssai.example/")!
    static let vmapURL = URL(string: "https://ssai.example/ssai/captioned.vmap")!

    init() {
        var behavior = ScriptedEngine.Behavior()
        behavior.duration = .seconds(36)
        engine = ScriptedEngine(behavior: behavior)
        let missing = self.missing
        transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            let path = request.url.path
            let ok = { (type: String, body: String) in HTTPResponse(status: 200, headers: ["Content-Type": type], body: Data(body.utf8), url: request.url) }
            if missing.paths.withLock({ $0.contains(path) }) { return HTTPResponse(status: 404, headers: [:], body: Data(), url: request.url) }
            if path.hasSuffix(".vmap") { return ok("application/xml", SSAIVMAP.document(base: Self.base, mediaPrefix: "ssai/", adCaptions: true)) }
            if path == "/ssai/captions/content.en.vtt" { return ok("text/vtt", SSAIVMAP.contentCaptionTrack()) }
            if path == "/ssai/captions/content.fr.vtt" { return ok("text/vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:36.000\nSous-titre du contenu\n") }
            for id in SSAIVMAP.captionedAdIDs {
                if path == "/ssai/captions/\(id).en.vtt" { return ok("text/vtt", SSAIVMAP.adCaptionTrack(adID: id)) }
                if path == "/ssai/captions/\(id).fr.ttml" { return ok("application/ttml+xml", SSAIVMAP.adCaptionTTML(adID: id)) }
            }
            return HTTPResponse(status: path.hasPrefix("/ssai/captions/") ? 404 : 204, headers: [:], body: Data(), url: request.url)
        }
    }

    func makeController() -> PlaybackController {
        PlayerSDKManager.shared.makeSSAIPlaybackController(
            engine: engine, transport: transport, upstream: SidecarSubtitlesProvider(transport: transport),
            configuration: PlaybackControllerConfiguration(progressInterval: .milliseconds(500), clock: clock, logger: logs.logger())
        )
    }

    /// The captioned SSAI video with content captions in `language`.
    func video(contentCaptions language: String) -> Video {
        let track: JSONValue = [
            "src": .string("https://ssai.example/ssai/captions/content.\(language).vtt"), "srclang": .string(language), "kind": "captions",
            "label": "Content",
        ]
        return Video(sources: [Source(url: Self.vmapURL)], properties: ["text_tracks": [track]])
    }

    /// Loads the video, optionally selects the content's captions (`sidecar:0`), then plays.
    func start(
        _ controller: PlaybackController, recorder: EventRecorder, contentCaptions language: String, captionsOn: Bool
    ) async throws -> ScriptedPlayer {
        controller.setVideos([video(contentCaptions: language)])
        try await recorder.waitFor(.ready)
        let session = try #require(controller.currentSession)
        if captionsOn {
            let content = try #require(session.textTrackGroup.tracks.first { $0.id == "sidecar:0" })
            session.selectTextTrack(content)
            try await recorder.waitFor { if case .textTrackSelected(_, let t) = $0 { t?.id == "sidecar:0" } else { false } }
        }
        controller.play()
        try await recorder.waitFor(.play)
        return await engine.player(number: 1)
    }

    /// Moves the playhead and ticks the clock until the shown cues are exactly `texts` (reported after
    /// `from`, by default after the move).
    @discardableResult
    func move(
        _ player: ScriptedPlayer, to stream: Double, recorder: EventRecorder, showing texts: [String], from: Int? = nil
    ) async throws -> TextCueChange {
        let mark = from ?? recorder.count
        player.setPosition(.seconds(stream))
        let event = try await recorder.advance({ await clock.advance(by: .milliseconds(250)) }, from: mark) {
            if case .textCuesChanged(_, let change) = $0 { change.cues.map(\.text) == texts } else { false }
        }
        guard case .textCuesChanged(_, let change) = event else { throw CancellationError() }
        return change
    }

    static func isAdTrack(_ track: MediaTrack?) -> Bool { track?.id.hasPrefix("sidecar:ad-") == true }

    /// Captions on: each captioned ad's English WebVTT cues show during the ad, placed at the ad's start and
    /// cut at its end; the track is listed only while the ad plays; the content's captions come back after
    /// each ad and show during an ad without captions. The files come through the app's transport; the SRT
    /// file is never asked for.
    @Test func anAdsCaptionsShowDuringTheAdWhenCaptionsAreOnAndTheContentsComeBackAfter() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let player = try await start(controller, recorder: recorder, contentCaptions: "en", captionsOn: true)
        let session = try #require(controller.currentSession)

        // The pre-roll [0, 4): its captions, in the content's language, in place of the content's.
        let first = try await move(player, to: 1, recorder: recorder, showing: ["ad-pre caption one"], from: 0)
        #expect(Self.isAdTrack(first.track) && first.track.language == "en" && first.track.title == "Ad captions", "\(first.track)")
        #expect(first.cues.first?.start == .zero && first.cues.first?.end == .seconds(2))
        #expect(Self.isAdTrack(session.selectedTextTrack))
        #expect(Set(session.textTrackGroup.tracks.compactMap(\.language)) == ["en", "fr"], "\(session.textTrackGroup.tracks)")
        #expect(session.textTrackGroup.tracks.count == 3, "content + the ad's English and French: \(session.textTrackGroup.tracks)")
        // The second cue runs past the ad's end in the file: cut at 4 s.
        let second = try await move(player, to: 3, recorder: recorder, showing: ["ad-pre caption two"])
        #expect(second.cues.first?.end == .seconds(4))

        // Content: the ad's track is gone, the content's selection and cues are back.
        let content = try await move(player, to: 6, recorder: recorder, showing: ["Content caption"])
        #expect(content.track.id == "sidecar:0")
        #expect(session.selectedTextTrack?.id == "sidecar:0")
        #expect(!session.textTrackGroup.tracks.contains { Self.isAdTrack($0) }, "\(session.textTrackGroup.tracks)")

        // The mid-roll's first ad [14, 18): its cues placed at 14 s on the stream.
        let mid = try await move(player, to: 15, recorder: recorder, showing: ["ad-mid-1 caption one"])
        #expect(mid.cues.first?.start == .seconds(14) && mid.cues.first?.end == .seconds(16), "\(mid.cues)")
        try await move(player, to: 17, recorder: recorder, showing: ["ad-mid-1 caption two"])
        // ad-mid-2 has no captions: the content's show during it.
        try await move(player, to: 19, recorder: recorder, showing: ["Content caption"])
        #expect(session.selectedTextTrack?.id == "sidecar:0")

        let selections = recorder.events.compactMap { if case .textTrackSelected(_, let t) = $0 { t?.id ?? "none" } else { nil } }
        #expect(
            selections == ["sidecar:0", "sidecar:ad-0-0-1", "sidecar:0", "sidecar:ad-1-0-1", "sidecar:0"], "\(selections)")
        let captionRequests = transport.requests.map(\.url.path).filter { $0.hasPrefix("/ssai/captions/ad") }
        #expect(Set(captionRequests) == Set(SSAIVMAP.captionedAdIDs.flatMap { ["/ssai/captions/\($0).en.vtt", "/ssai/captions/\($0).fr.ttml"] }))
        #expect(captionRequests.count == 4, "each file fetched once: \(captionRequests)")
        #expect(!recorder.errors.contains { $0.code == .ssaiAdCaptionsFailed }, "\(recorder.errors)")
        controller.shutdown()
    }

    /// A viewer watching with French captions gets the ad's French file (TTML) rather than the first.
    @Test func theAdTrackInTheViewersLanguageIsShownEvenInTTML() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let player = try await start(controller, recorder: recorder, contentCaptions: "fr", captionsOn: true)
        let change = try await move(player, to: 1, recorder: recorder, showing: ["ad-pre sous-titre un"], from: 0)
        #expect(change.track.language == "fr" && Self.isAdTrack(change.track))
        try await move(player, to: 3, recorder: recorder, showing: ["ad-pre sous-titre deux"])
        try await move(player, to: 6, recorder: recorder, showing: ["Sous-titre du contenu"])
        controller.shutdown()
    }

    /// Captions off: the ad's tracks are offered (listed) but nothing shows until the viewer picks one;
    /// picking it shows its cues, is not remembered, and after the ad captions are off again.
    @Test func withCaptionsOffTheAdTrackIsOfferedAndShowsOnlyWhenPicked() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let player = try await start(controller, recorder: recorder, contentCaptions: "en", captionsOn: false)
        let session = try #require(controller.currentSession)
        player.setPosition(.seconds(1))
        try await recorder.advance({ await clock.advance(by: .milliseconds(250)) }) {
            if case .adProgressed(_, let p) = $0 { p.time >= .seconds(1) } else { false }
        }
        await controller.settle()
        let offered = session.textTrackGroup.tracks.filter { Self.isAdTrack($0) }
        #expect(offered.count == 2, "\(session.textTrackGroup.tracks)")
        #expect(session.selectedTextTrack == nil)
        #expect(!recorder.events.contains { if case .textCuesChanged = $0 { true } else { false } })

        let english = try #require(offered.first { $0.language == "en" })
        session.selectTextTrack(english)
        try await move(player, to: 2.5, recorder: recorder, showing: ["ad-pre caption two"])
        #expect(session.selectedTextTrack == english)

        let after = try await move(player, to: 6, recorder: recorder, showing: [])
        #expect(after.track == english, "the ad's cues are cleared")
        await controller.settle()
        #expect(session.selectedTextTrack == nil)
        #expect(!session.textTrackGroup.tracks.contains { Self.isAdTrack($0) })
        controller.shutdown()
    }

    /// A caption file that cannot be fetched is a typed, recoverable warning; the ad's other file is shown
    /// instead, and playback goes on into the content.
    @Test func aCaptionFileThatFailsIsAWarningAndTheOtherFileIsShown() async throws {
        missing.paths.withLock { $0 = ["/ssai/captions/ad-pre.en.vtt"] }
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let player = try await start(controller, recorder: recorder, contentCaptions: "en", captionsOn: true)
        let change = try await move(player, to: 1, recorder: recorder, showing: ["ad-pre sous-titre un"], from: 0)
        #expect(change.track.language == "fr")
        let warning = try #require(recorder.errors.first { $0.code == .ssaiAdCaptionsFailed })
        #expect(warning.httpStatus == 404 && warning.severity == .recoverable, "\(warning)")
        #expect(warning.url?.contains("ad-pre.en.vtt") == true)
        #expect(!recorder.lifecycleNames.contains("Fail"))
        try await move(player, to: 6, recorder: recorder, showing: ["Content caption"])
        controller.shutdown()
    }

    /// The captioned VMAP's ads carry their three files in the ad model; the plain VMAP's carry none.
    @Test func theCaptionedVMAPCarriesTheFilesAndThePlainOneNone() throws {
        let xml = SSAIVMAP.document(base: Self.base, mediaPrefix: "ssai/", adCaptions: true)
        let document = try VMAP.parse(Array(xml.utf8))
        let timeline = try AdTimeline.make(from: document)
        let pre = try #require(timeline.ads.first)
        #expect(pre.linear.closedCaptionFiles.count == 3)
        let plain = try AdTimeline.make(from: VMAP.parse(Array(SSAIVMAP.document(base: Self.base, mediaPrefix: "ssai/").utf8)))
        #expect(plain.ads.allSatisfy { $0.linear.closedCaptionFiles.isEmpty })
    }
}

/// Paths a test's transport answers 404 for.
final class MissingPaths: Sendable {
    let paths = Mutex<Set<String>>([])
}
