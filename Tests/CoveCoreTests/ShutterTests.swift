import Clocks
import CoveTesting
import Foundation
import Testing

@testable import CoveCore

/// The seed's shutter (`shutter`, `shutterFadeTime`): the picture held black before a resume seek and
/// faded in afterwards — the state machine's steps, then the controller applying them to its players.
@Suite("Shutter")
struct ShutterTests {
    // MARK: The state machine

    @Test func closingAtOnceCoversAndOpeningFadesInEqualSteps() {
        var shutter = ShutterFade()
        #expect(shutter.set(closed: true, fade: .zero) == [.apply(opacity: 1)])
        #expect(shutter.isClosed && shutter.opacity == 1)
        // 99 ms at 33 ms a tick: three steps.
        #expect(shutter.set(closed: false, fade: .milliseconds(99)) == [.startTicking(interval: ShutterFade.tick)])
        #expect(shutter.opacity == 1, "nothing moves before the first tick")
        #expect(shutter.tick() == [.apply(opacity: 2.0 / 3)])
        #expect(shutter.tick() == [.apply(opacity: 1.0 / 3)])
        #expect(shutter.tick() == [.apply(opacity: 0), .stopTicking])
        #expect(!shutter.isFading && shutter.tick() == [.stopTicking])
    }

    @Test func aChangeMidFadeStartsFromWhereTheFadeHadGot() {
        var shutter = ShutterFade()
        _ = shutter.set(closed: true, fade: .zero)
        _ = shutter.set(closed: false, fade: .milliseconds(99))
        _ = shutter.tick()
        #expect(shutter.set(closed: true, fade: .milliseconds(66)) == [.startTicking(interval: ShutterFade.tick)])
        let halfWayBack: Double = 1 + (2.0 / 3 - 1) / 2
        #expect(shutter.tick() == [.apply(opacity: halfWayBack)])
        #expect(shutter.tick() == [.apply(opacity: 1), .stopTicking])
        // Closing at once during a fade ends the fade there.
        _ = shutter.set(closed: false, fade: .milliseconds(99))
        _ = shutter.tick()
        #expect(shutter.set(closed: true, fade: .zero) == [.apply(opacity: 1), .stopTicking])
    }

    @Test func repeatingTheStateDoesNothingAndFinishJumpsToTheEnd() {
        var shutter = ShutterFade()
        #expect(shutter.set(closed: false, fade: .zero) == [])
        _ = shutter.set(closed: true, fade: .seconds(1))
        #expect(shutter.finish() == [.apply(opacity: 1), .stopTicking])
        #expect(shutter.finish() == [])
        #expect(shutter.set(closed: true, fade: .zero) == [])
    }

    // MARK: The controller

    let engine = ScriptedEngine()
    let clock = TestClock<Duration>()

    func shutterCalls(_ player: ScriptedPlayer) -> [Double] {
        player.calls.compactMap { if case .setShutter(let opacity) = $0 { opacity } else { nil } }
    }

    /// The SSAI plugin's recipe: shutter closed before `setVideos`, the resume seek, then opened with a
    /// fade once the seek completes.
    @Test func aShutterClosedBeforeSetVideosCoversTheFirstFrameAndFadesOpenOnTheClock() async throws {
        let controller = PlaybackController(engine: engine, configuration: PlaybackControllerConfiguration(clock: clock))
        let recorder = EventRecorder(controller)
        controller.shutterFadeTime = .zero
        controller.shutter = true
        controller.setVideos([ControllerTests.hls])
        try await recorder.waitFor(.ready)
        #expect(await controller.seekAndWait(to: .seconds(30)))
        let player = try #require(engine.players.last)
        #expect(player.calls.first == .setShutter(1), "covered before the player loads: \(player.calls)")
        controller.shutterFadeTime = .milliseconds(99)
        controller.shutter = false
        await controller.settle()
        #expect(shutterCalls(player) == [1], "the fade moves on the clock only")
        for _ in 0..<3 {
            await clock.advance(by: ShutterFade.tick)
            await controller.settle()
        }
        let fade: [Double] = [1, 2.0 / 3, 1.0 / 3, 0]
        #expect(shutterCalls(player) == fade)
        await clock.advance(by: .seconds(1))
        await controller.settle()
        #expect(shutterCalls(player).count == 4, "the fade's timer stopped")
        #expect(!controller.shutter && controller.shutterFadeTime == .milliseconds(99))
        controller.shutter = true
        await controller.settle()
        #expect(shutterCalls(player).count == 4, "closing takes the new fade time too: nothing before a tick")
        controller.shutdown()
    }

    @Test func theNextVideoStartsUnderTheShutterAndAnOpenShutterCostsNothing() async throws {
        let controller = PlaybackController(engine: engine, configuration: PlaybackControllerConfiguration(clock: clock))
        let recorder = EventRecorder(controller)
        controller.setVideos([ControllerTests.hls, ControllerTests.hls2])
        try await recorder.waitFor(.ready)
        let first = try #require(engine.players.last)
        #expect(shutterCalls(first).isEmpty, "an open shutter is never sent")
        controller.shutter = true
        await controller.settle()
        #expect(shutterCalls(first) == [1])
        controller.advanceToNext()
        try await recorder.waitFor(.ready, from: recorder.count)
        let second = try #require(engine.players.last)
        #expect(second !== first && second.calls.first == .setShutter(1))
        controller.shutdown()
    }
}
