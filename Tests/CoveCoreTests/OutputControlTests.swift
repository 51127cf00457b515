import Clocks
import CoveCore
import CoveTesting
import Foundation
import Testing

/// The controller's audio volume and captions-on-picture, against the scripted engine: what reaches the
/// engine, when, and what is reported back. (The real engine's side is in `OutputTests`.)
@Suite("Volume and captions on the picture (scripted engine)")
struct OutputControlTests {
    let engine = ScriptedEngine()
    let clock = TestClock()

    func makeController(captionsOnPicture: Bool = false) -> PlaybackController {
        PlayerSDKManager.shared.makePlaybackController(
            engine: engine, sessionProvider: nil,
            configuration: PlaybackControllerConfiguration(
                progressInterval: .milliseconds(500), random: { 0.5 }, clock: clock, captionsOnPicture: captionsOnPicture)
        )
    }

    static let hls = Video(url: URL(string: "https://media.example/a/master.m3u8")!, properties: ["id": "a"])
    static let hls2 = Video(url: URL(string: "https://media.example/b/master.m3u8")!, properties: ["id": "b"])

    @Test func volumeAndMuteGoToThePlayerAndComeBackAsEvents() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        #expect(player.configuration.volume == .full)
        controller.volume = 0.25
        controller.isMuted = true
        await controller.settle()
        #expect(player.calls.suffix(2) == [.setVolume(AudioVolume(level: 0.25, isMuted: false)), .setVolume(AudioVolume(level: 0.25, isMuted: true))])
        try await recorder.waitFor { if case .volumeChanged(_, let v) = $0 { v.isMuted } else { false } }
        let reported = recorder.events.compactMap { if case .volumeChanged(_, let v) = $0 { v } else { nil } }
        #expect(reported == [AudioVolume(level: 0.25, isMuted: false), AudioVolume(level: 0.25, isMuted: true)])
        #expect(controller.volume == 0.25 && controller.isMuted)
        // Out of range is clamped; NaN is the full level.
        controller.volume = 3
        #expect(controller.volume == 1)
        controller.volume = .nan
        #expect(controller.volume == 1)
        controller.shutdown()
    }

    /// The next video's pipeline starts at the controller's volume; a session's own volume overrides it
    /// and survives the controller's changes until cleared.
    @Test func newSessionsStartAtTheVolumeAndASessionMayHaveItsOwn() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.volume = 0.5
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        #expect(player.configuration.volume == AudioVolume(level: 0.5, isMuted: false))
        let session = try #require(controller.currentSession)
        session.setVolume(AudioVolume(level: 0.1, isMuted: false))
        controller.volume = 0.9
        await controller.settle()
        #expect(!player.calls.contains(.setVolume(AudioVolume(level: 0.9, isMuted: false))), "the session keeps its own volume: \(player.calls)")
        session.setVolume(nil)
        await controller.settle()
        #expect(player.calls.last == .setVolume(AudioVolume(level: 0.9, isMuted: false)), "cleared: the controller's again")
        controller.setVideos([Self.hls2])
        let second = await engine.player(number: 2)
        #expect(second.configuration.volume == AudioVolume(level: 0.9, isMuted: false))
        controller.shutdown()
    }

    /// With captions on the picture, the engine is given exactly the cues the events report, when they
    /// report them; without it, never.
    @Test func captionsOnThePictureFollowTheCueEvents() async throws {
        for onPicture in [true, false] {
            let controller = makeController(captionsOnPicture: onPicture)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Self.hls])
            try await recorder.waitFor(.play)
            let player = await engine.player(number: engine.players.count)
            #expect(player.configuration.captionsOnPicture == onPicture)
            player.emit(.tracksChanged([EngineTrack(id: "v", kind: .video), EngineTrack(id: "t", kind: .text, language: "en")]))
            player.emit(.tracksSelected(["v", "t"]))
            player.emit(.textCue(TextCue(start: .seconds(0), end: .seconds(1), text: "Hello")))
            player.setPosition(.seconds(0.5))
            await clock.advance(by: .milliseconds(500))
            try await recorder.waitFor { if case .textCuesChanged(_, let c) = $0 { c.cues.map(\.text) == ["Hello"] } else { false } }
            await controller.settle()
            let shown = player.calls.compactMap { if case .showCaptions(let texts) = $0 { texts } else { nil } }
            #expect(shown == (onPicture ? [["Hello"]] : []), "\(player.calls)")
            controller.shutdown()
        }
    }

    @Test func placementReadsTheSimpleWebVTTSettings() {
        #expect(CaptionPlacement(settings: "") == .bottomCenter)
        let top = CaptionPlacement(settings: "line:10% position:25% align:start")
        #expect(top.line == 0.1 && top.position == 0.25 && top.alignment == .start)
        #expect(CaptionPlacement(settings: "line:0").line == 0)
        #expect(abs((CaptionPlacement(settings: "line:-1").line ?? 0) - 1) < 0.001, "the last line is the bottom")
        #expect(CaptionPlacement(settings: "line:50%,center align:right").alignment == .end)
        // Malformed or out-of-range settings are ignored, never trusted.
        #expect(CaptionPlacement(settings: "line:140% position:-3% align:sideways vertical:rl size:") == .bottomCenter)
        #expect(CaptionPlacement(settings: "line:99999999999999999999 position:nan%") == .bottomCenter)
    }
}
