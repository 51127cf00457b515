import Clocks
import CoveCore
import CoveSSAI
import CoveTesting
import Foundation
import Testing

/// The SSAI plugin inside the controller, against the scripted engine, a manual clock and an
/// in-memory HTTP transport: positions are set by hand, so every mapping and rule is checked at
/// exact times. The stream is `SSAIFixture`'s: pre-roll [0, 4), content 0–10 at [4, 14), a mid-roll
/// of two 4 s ads [14, 22), content 10–20 at [22, 32), post-roll [32, 36).
@Suite("SSAI in the controller (scripted engine)")
struct SSAIControllerTests {
    let engine: ScriptedEngine
    let clock = TestClock()
    let logs = LogCapture()
    let transport: ScriptedHTTPTransport
    static let base = URL(string: "https://ssai.example/")!
    static let vmapURL = URL(string: "https://ssai.example/ssai/content.vmap")!

    init() {
        var behavior = ScriptedEngine.Behavior()
        behavior.duration = .seconds(36)
        engine = ScriptedEngine(behavior: behavior)
        transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            if request.url.path.hasSuffix(".vmap") {
                let body = SSAIVMAP.document(base: Self.base, mediaPrefix: "ssai/")
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/xml"], body: Data(body.utf8), url: request.url)
            }
            return HTTPResponse(status: 204, headers: [:], body: Data(), url: request.url)
        }
    }

    func makeController() -> PlaybackController {
        PlayerSDKManager.shared.makeSSAIPlaybackController(
            engine: engine, transport: transport,
            configuration: PlaybackControllerConfiguration(progressInterval: .milliseconds(500), clock: clock, logger: logs.logger())
        )
    }

    /// Moves the scripted playhead and waits for the progress tick that reports it.
    func move(_ player: ScriptedPlayer, to stream: Double, recorder: EventRecorder, reporting content: Double) async throws {
        player.setPosition(.seconds(stream))
        let mark = recorder.count
        try await recorder.advance({ await clock.advance(by: .milliseconds(500)) }, from: mark) {
            if case .progress(_, let t) = $0 { abs(t.seconds - content) < 0.001 } else { false }
        }
    }

    func beaconPaths() -> [String] {
        transport.requests.map(\.url.path).filter { $0.hasPrefix("/beacons/") }
    }

    @Test func progressDurationAndAdEventsFollowTheStitchedStream() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: Self.vmapURL)])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        #expect(player.configuration.url.absoluteString == "https://ssai.example/ssai/stream/master.m3u8")
        #expect(recorder.duration == .some(.seconds(20)))

        try await move(player, to: 1, recorder: recorder, reporting: 0)
        #expect(controller.currentSession?.ssai?.adStatus?.ad.adID == "ad-pre")
        #expect(controller.currentSession?.ssai?.canSeek == false)
        #expect(await controller.seekAndWait(to: .seconds(5)) == false)
        try await move(player, to: 6, recorder: recorder, reporting: 2)
        try await move(player, to: 15, recorder: recorder, reporting: 10)
        // Inside the break the content clock stands at 10 (no new progress); ad progress moves on.
        player.setPosition(.seconds(19))
        let inBreak = recorder.count
        try await recorder.advance({ await clock.advance(by: .milliseconds(500)) }, from: inBreak) {
            if case .adProgressed(_, let p) = $0 { p.ad.adID == "ad-mid-2" && p.time == .seconds(1) } else { false }
        }
        #expect(!recorder.events[inBreak...].contains { if case .progress = $0 { true } else { false } })
        try await move(player, to: 23, recorder: recorder, reporting: 11)
        #expect(
            recorder.events.compactMap(\.adTraceLine).filter { $0 != "End" } == [
                "WillPauseForAd", "SequenceEnter 0", "AdEnter ad-pre", "AdExit ad-pre", "SequenceExit 0",
                "WillPauseForAd", "SequenceEnter 1", "AdEnter ad-mid-1", "AdExit ad-mid-1", "AdEnter ad-mid-2", "AdExit ad-mid-2", "SequenceExit 1",
            ])
        // A pre-roll ad reported its progress in ad time.
        let adProgress = recorder.events.compactMap { if case .adProgressed(_, let p) = $0 { p } else { nil } }
        // From Play on: the pre-roll starts at 0 (entered when playing starts), then 1 s in.
        #expect(adProgress.prefix(2).map(\.time) == [.zero, .seconds(1)])
        #expect(adProgress.dropFirst().first?.ad.adID == "ad-pre")
        #expect(adProgress.dropFirst().first?.remaining == .seconds(3))
        // Beacons: each ad's complete once the playhead was past its end, each impression once.
        await controller.settle()
        try await #require(controller.currentSession?.ssai).drainBeacons()
        let paths = beaconPaths()
        for ad in ["ad-pre", "ad-mid-1", "ad-mid-2"] {
            for event in ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
                #expect(paths.filter { $0 == "/beacons/\(ad)/\(event)" }.count == 1, "\(ad)/\(event): \(paths)")
            }
        }
        #expect(!paths.contains { $0.hasPrefix("/beacons/ad-post/") })
        // The pre-roll's AdChoices icon: its view beacon once, at the ad's start, with its macro filled.
        let iconViews = transport.requests.map(\.url).filter { $0.path.hasSuffix("/iconView") }
        #expect(iconViews.map(\.path) == ["/beacons/ad-pre/iconView"], "\(paths)")
        #expect(iconViews.first?.query?.hasPrefix("cb=") == true && iconViews.first?.query?.contains("[") == false)
    }

    /// Ads play at 1× whatever the app's rate (as the seed plays them): the rate is set aside when a
    /// break starts, a rate set during the break waits for its end, and content resumes at the rate.
    @Test func adBreaksPlayAtNormalSpeedAndTheRateComesBackAfter() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.playbackRate = 2
        controller.isAutoPlay = true
        controller.setVideos([Video(url: Self.vmapURL)])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        #expect(player.configuration.rate == 2)
        // The pre-roll [0, 4) starts at once: 1×.
        try await move(player, to: 1, recorder: recorder, reporting: 0)
        await controller.settle()
        #expect(player.calls.filter { if case .setRate = $0 { true } else { false } } == [.setRate(1)], "\(player.calls)")
        try await move(player, to: 6, recorder: recorder, reporting: 2)
        await controller.settle()
        #expect(player.calls.last { if case .setRate = $0 { true } else { false } } == .setRate(2), "content at the app's rate again")
        // The mid-roll: 1×; the app changes the rate meanwhile; content comes back at the new rate.
        try await move(player, to: 15, recorder: recorder, reporting: 10)
        await controller.settle()
        #expect(player.calls.last { if case .setRate = $0 { true } else { false } } == .setRate(1))
        controller.playbackRate = 1.5
        await controller.settle()
        #expect(player.calls.last { if case .setRate = $0 { true } else { false } } == .setRate(1), "not applied during the break")
        try await move(player, to: 23, recorder: recorder, reporting: 11)
        await controller.settle()
        #expect(player.calls.last { if case .setRate = $0 { true } else { false } } == .setRate(1.5))
        controller.shutdown()
    }

    @Test func seeksMapContentTimeAndPlayTheCrossedBreakFirst() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: Self.vmapURL)])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        try await move(player, to: 6, recorder: recorder, reporting: 2)

        // Backward in content: the engine seeks to the stream time of content 1 (after the pre-roll).
        #expect(await controller.seekAndWait(to: .seconds(1)))
        #expect(player.calls.contains { if case .seek(.seconds(5), _) = $0 { true } else { false } })

        // Forward across the mid-roll: the engine goes to the break's start; the completion waits.
        let done = CompletionProbe()
        controller.seek(to: .seconds(15), completion: done.callback)
        try await recorder.waitFor { if case .progress(_, .seconds(10)) = $0 { true } else { false } }
        #expect(player.calls.contains { if case .seek(.seconds(14), _) = $0 { true } else { false } })
        #expect(controller.currentSession?.ssai?.canSeek == false)
        #expect(await controller.seekAndWait(to: .seconds(3)) == false)
        let mark = recorder.count
        player.setPosition(.seconds(22.2))
        // Leaving the break sends the engine on to the target: content 15 = stream 27.
        try await recorder.advance({ await clock.advance(by: .milliseconds(500)) }, from: mark) {
            if case .progress(_, .seconds(15)) = $0 { true } else { false }
        }
        #expect(player.calls.contains { if case .seek(.seconds(27), _) = $0 { true } else { false } })
        #expect(await done.value(timeout: .seconds(5)) == true)

        // adsDisabled: a seek to the end plays no post-roll and lands on the stream's end.
        controller.adsDisabled = true
        #expect(await controller.seekAndWait(to: .seconds(20)))
        #expect(player.calls.contains { if case .seek(.seconds(36), _) = $0 { true } else { false } })
        #expect(!recorder.events.compactMap(\.adTraceLine).filter { $0 != "End" }.contains("SequenceEnter 2"))
    }

    /// A setting is a command like any other: `adsDisabled` set just after a seek applies after that seek
    /// (which still plays the break it crosses), and to the next one.
    @Test func aSettingIssuedAfterASeekAppliesAfterIt() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: Self.vmapURL)])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        try await move(player, to: 6, recorder: recorder, reporting: 2)

        // Across the mid-roll, then adsDisabled: the seek was asked first, so it goes to the break's start.
        controller.seek(to: .seconds(15))
        controller.adsDisabled = true
        await controller.settle()
        #expect(player.calls.contains { if case .seek(.seconds(14), _) = $0 { true } else { false } }, "\(player.calls)")
        #expect(!player.calls.contains { if case .seek(.seconds(27), _) = $0 { true } else { false } }, "the break was not skipped")
        #expect(controller.adsDisabled)
    }

    /// The plugin's say in `availableCommands`: no seeking and no rate change during an ad, skipping once
    /// the skippable ad is past its offset, everything back in content.
    @Test func availableCommandsFollowTheAds() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: Self.vmapURL)])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        func commands(at stream: Double, reporting content: Double) async throws -> Set<PlayerCommand> {
            try await move(player, to: stream, recorder: recorder, reporting: content)
            await controller.settle()
            return controller.availableCommands
        }
        let preRoll = try await commands(at: 1, reporting: 0)
        #expect(!preRoll.contains(.seek) && !preRoll.contains(.changeRate) && !preRoll.contains(.skipAd) && preRoll.contains(.pause), "\(preRoll)")
        let content = try await commands(at: 6, reporting: 2)
        #expect(content.contains(.seek) && content.contains(.changeRate) && !content.contains(.skipAd), "\(content)")
        let skippableEarly = try await commands(at: 15, reporting: 10)
        #expect(!skippableEarly.contains(.seek) && !skippableEarly.contains(.skipAd), "ad-mid-1 is 1 s in, its offset is 2 s: \(skippableEarly)")
        // Inside the break the content clock waits at 10 s: ad progress moves instead.
        player.setPosition(.seconds(16.5))
        let mark = recorder.count
        try await recorder.advance({ await clock.advance(by: .milliseconds(500)) }, from: mark) {
            if case .adProgressed(_, let p) = $0 { p.time >= .seconds(2.5) } else { false }
        }
        await controller.settle()
        let skippable = controller.availableCommands
        #expect(skippable.contains(.skipAd) && !skippable.contains(.seek), "\(skippable)")
        let after = try await commands(at: 23, reporting: 11)
        #expect(after.contains(.seek) && !after.contains(.skipAd), "\(after)")
        #expect(recorder.events.contains { if case .availableCommandsChanged(let c) = $0 { c.contains(.skipAd) } else { false } })
        controller.shutdown()
    }

    @Test func aVMAPThatFailsIsAnErrorEventAndPlainSourcesStillPlay() async throws {
        transport.answer { request throws(HTTPTransportError) in
            HTTPResponse(status: request.url.path.hasSuffix(".vmap") ? 500 : 204, headers: [:], body: Data(), url: request.url)
        }
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        let stream = URL(string: "https://media.example/plain/master.m3u8")!
        controller.setVideos([
            Video(source: Source(url: stream, deliveryMethod: .hls, properties: [Source.PropertyKey.vmap: .string(Self.vmapURL.absoluteString)]))
        ])
        try await recorder.waitFor(.play)
        let error = try #require(recorder.errors.first)
        #expect(error.code == .ssaiVMAPLoadFailed && error.httpStatus == 500)
        #expect(await engine.player(number: 1).configuration.url == stream)
        // No timeline: content time is stream time.
        try await move(await engine.player(number: 1), to: 3, recorder: recorder, reporting: 3)

        // Hostile VMAP bytes: a typed invalid-VMAP error; a video that is only a VMAP URL fails with it.
        transport.answer { request throws(HTTPTransportError) in
            HTTPResponse(status: 200, headers: [:], body: Data("<!DOCTYPE x [<!ENTITY a 'b'>]><vmap:VMAP/>".utf8), url: request.url)
        }
        let mark = recorder.count
        controller.setVideos([Video(url: Self.vmapURL)])
        let failed = try await recorder.waitFor(from: mark, failOn: []) { $0.lifecycleEvent?.kind == .fail }
        #expect(failed.lifecycleEvent?.error?.code == .ssaiVMAPInvalid)
        #expect(failed.lifecycleEvent?.error?.message.contains("DOCTYPE") == true)
    }

    /// The legacy Once UX flavour: its content impressions fire once each when content time passes
    /// theirs — not during the pre-roll, where content time also reads 0.
    @Test func legacyContentImpressionsFireWhenTheirContentTimeIsReached() async throws {
        let controller = PlayerSDKManager.shared.makeSSAIPlaybackController(
            engine: engine, transport: transport,
            configuration: PlaybackControllerConfiguration(progressInterval: .milliseconds(500), clock: clock, logger: logs.logger())
        )
        transport.answer { request throws(HTTPTransportError) in
            let body = request.url.path.hasSuffix(".vmap") ? Data(BrightcoveVMAP.onceUX.utf8) : Data()
            return HTTPResponse(status: request.url.path.hasSuffix(".vmap") ? 200 : 204, headers: [:], body: body, url: request.url)
        }
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: Self.vmapURL)])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        #expect(player.configuration.url.absoluteString.hasPrefix("https://once.example.net/now/stitched/mp4/"))
        let impressions = { transport.requests.map(\.url.absoluteString).filter { $0.hasPrefix("https://once.example.net/content-") } }
        // In the 30 s pre-roll: content time reads 0, but no content has been seen.
        try await move(player, to: 10, recorder: recorder, reporting: 0)
        try await #require(controller.currentSession?.ssai).drainBeacons()
        #expect(impressions().isEmpty)
        try await move(player, to: 31, recorder: recorder, reporting: 31 - 30.0666666)
        try await move(player, to: 130, recorder: recorder, reporting: 130 - 72.0666666)
        try await move(player, to: 150, recorder: recorder, reporting: 150 - 72.0666666)
        try await #require(controller.currentSession?.ssai).drainBeacons()
        #expect(impressions() == ["https://once.example.net/content-start?ctx=8d3b56e6", "https://once.example.net/content-half?ctx=8d3b56e6"])
    }

    /// Bad timelines are typed error events and playback goes on: overlapping breaks (merged),
    /// a negative offset (dropped), ads that run past the stream's real end; a VMAP that times out
    /// is a load failure.
    @Test func badTimelinesAndTimeoutsAreTypedErrorEvents() async throws {
        let ad = { (id: String, seconds: Int) in
            "<Ad id=\"\(id)\"><InLine><AdSystem>t</AdSystem><AdTitle>\(id)</AdTitle><Impression>https://b.example/\(id)</Impression><Creatives><Creative><Linear><Duration>00:00:\(String(format: "%02d", seconds)).000</Duration></Linear></Creative></Creatives></InLine></Ad>"
        }
        let adBreak = { (offset: String, id: String, seconds: Int) in
            "<vmap:AdBreak timeOffset=\"\(offset)\" breakType=\"linear\" breakId=\"\(id)\"><vmap:AdSource id=\"\(id)\"><vmap:VASTAdData><VAST version=\"3.0\">\(ad(id, seconds))</VAST></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>"
        }
        let xml = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:bc="bc" version="1.0"><vmap:Extensions>
            <bc:Brightcove contenturi="https://media.example/stitched/master.m3u8" contentlength="30.0" payloadlength="55.0"/></vmap:Extensions>
            \(adBreak("00:00:10.000", "a", 5))\(adBreak("00:00:10.000", "b", 5))\(adBreak("-00:00:05.000", "c", 5))\(adBreak("end", "d", 15))
            </vmap:VMAP>
            """
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([Video(source: .ssai(vmapXML: xml))])
        try await recorder.waitFor(.ready)
        // The scripted stream is 36 s; the timeline needs 30 + 5 + 5 + 15 = 55 s.
        try await recorder.waitFor { $0.lifecycleEvent?.error?.message.contains("run past the end of the stream") == true }
        let adjusted = recorder.errors.filter { $0.code == .ssaiTimelineAdjusted }
        #expect(adjusted.contains { $0.message.contains("merged") || $0.message.lowercased().contains("share") }, "\(adjusted)")
        #expect(adjusted.contains { $0.message.lowercased().contains("offset") }, "\(adjusted)")
        #expect(!recorder.lifecycleNames.contains("Fail"))
        #expect(controller.currentSession?.ssai?.timeline.breaks.count == 2)

        transport.answer { request throws(HTTPTransportError) in
            throw HTTPTransportError(.timeout, url: request.url, detail: "no answer within 10 s")
        }
        let mark = recorder.count
        controller.setVideos([Video(url: Self.vmapURL)])
        let failed = try await recorder.waitFor(from: mark, failOn: []) { $0.lifecycleEvent?.kind == .fail }
        #expect(failed.lifecycleEvent?.error?.code == .ssaiVMAPLoadFailed)
        #expect(failed.lifecycleEvent?.error?.message.contains("no answer within 10 s") == true)
    }

    @Test func vmapXMLDataAndURLVariablesWork() async throws {
        let xml = SSAIVMAP.document(base: Self.base, mediaPrefix: "ssai/")
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([Video(source: .ssai(vmapXML: xml))])
        try await recorder.waitFor(.ready)
        #expect(await engine.player(number: 1).configuration.url.absoluteString == "https://ssai.example/ssai/stream/master.m3u8")
        #expect(transport.requests.isEmpty)
        #expect(controller.currentSession?.ssai?.timeline.breaks.count == 3)
        #expect(controller.currentSession?.ssai?.thumbnailsURL?.absoluteString == "https://ssai.example/ssai/thumbnails.vtt")

        let templated = Video(
            source: Source(
                url: URL(string: "https://media.example/x.m3u8")!,
                properties: [Source.PropertyKey.vmap: "https://ssai.example/ssai/content.vmap?device={{url.device}}"]))
        let provider = SSAISessionProvider(transport: transport, options: SSAISessionProviderOptions(urlVariables: ["device": "stb-42"]))
        _ = try await provider.prepareSession(for: templated, context: SessionPreparationContext(logger: logs.logger()))
        #expect(transport.requests.last?.url.absoluteString == "https://ssai.example/ssai/content.vmap?device=stb-42")
    }
}
