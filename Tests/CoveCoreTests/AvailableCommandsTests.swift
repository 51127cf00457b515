import Clocks
import CoveTesting
import Foundation
import Testing

@testable import CoveCore

/// `availableCommands` (Media3's `Player.availableCommands`): what the controller can do now, published
/// after each input and reported by `availableCommandsChanged` when it changes.
@Suite("Available commands")
struct AvailableCommandsTests {
    let engine = ScriptedEngine()
    let clock = TestClock<Duration>()

    func makeController() -> PlaybackController {
        PlaybackController(engine: engine, configuration: PlaybackControllerConfiguration(clock: clock))
    }

    static func changes(_ recorder: EventRecorder) -> [Set<PlayerCommand>] {
        recorder.events.compactMap { if case .availableCommandsChanged(let c) = $0 { c } else { nil } }
    }

    @Test func aVideoOnDemandGainsSeekingAndRateOnceLoadedAndAQueueCanAdvance() async throws {
        engine.behavior.tracks += [EngineTrack(id: "audio-fr", kind: .audio, language: "fr", title: "French")]
        let controller = makeController()
        let recorder = EventRecorder(controller)
        #expect(controller.availableCommands.isEmpty, "nothing to play yet")
        controller.setVideos([ControllerTests.hls, ControllerTests.hls2])
        try await recorder.waitFor(.ready)
        await controller.settle()
        #expect(controller.availableCommands == [.play, .pause, .setVolume, .seek, .changeRate, .selectAudioTrack, .advanceToNext])
        let changes = Self.changes(recorder)
        #expect(changes.first == [.play, .pause, .setVolume, .advanceToNext], "while the video is prepared: play is remembered")
        #expect(changes.last == controller.availableCommands)
        // Each change is reported once: no two equal sets in a row.
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0 != $1 }, "\(changes)")
        // The last video of the queue has no next.
        controller.advanceToNext()
        try await recorder.waitFor(.ready, from: recorder.count)
        await controller.settle()
        #expect(!controller.availableCommands.contains(.advanceToNext))
        controller.shutdown()
    }

    @Test func liveWithoutADVRWindowCannotSeek() async throws {
        engine.behavior.isLive = true
        engine.behavior.seekableRanges = [TimeRange(start: .zero, end: .seconds(30))]
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([ControllerTests.hls])
        try await recorder.waitFor(.ready)
        await controller.settle()
        #expect(!controller.availableCommands.contains(.seek), "a 30 s window is below the 60 s a DVR needs")
        #expect(controller.availableCommands.contains(.play))
        controller.shutdown()
    }

    @Test func aFailedVideoOffersNothing() async throws {
        engine.behavior.loadFailure = PlaybackError(.notFound, "gone")
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([ControllerTests.hls])
        try await recorder.waitFor(.fail)
        await controller.settle()
        #expect(controller.availableCommands.isEmpty, "\(controller.availableCommands)")
        #expect(Self.changes(recorder).last == [])
        controller.shutdown()
    }

    /// A plugin's hooks take commands away and add their own.
    @Test func hooksAdjustTheCommands() async throws {
        let controller = PlaybackController(engine: engine, sessionProvider: NoSeekingProvider(), configuration: PlaybackControllerConfiguration(clock: clock))
        let recorder = EventRecorder(controller)
        controller.setVideos([ControllerTests.hls])
        try await recorder.waitFor(.ready)
        await controller.settle()
        #expect(!controller.availableCommands.contains(.seek))
        #expect(controller.availableCommands.contains(.skipAd))
        controller.shutdown()
    }
}

/// A provider whose hooks forbid seeking and offer a skip.
private struct NoSeekingProvider: PlaybackSessionProvider {
    final class Hooks: PlaybackSessionHooks {
        func sessionStarted(_ session: PlaybackSession, control: SessionControl) -> [PlaybackEvent] { [] }
        func reportedTime(forEngineTime position: MediaTime) -> MediaTime { position }
        func engineTime(forReportedTime time: MediaTime) -> MediaTime { time }
        func reportedDuration(forEngineDuration duration: MediaTime?) -> MediaTime? { duration }
        func playheadMoved(to position: MediaTime, jumped: Bool, ended: Bool) -> [PlaybackEvent] { [] }
        func playingChanged(_ playing: Bool, at position: MediaTime) -> [PlaybackEvent] { [] }
        func seekRequested(to time: MediaTime, from position: MediaTime, adsDisabled: Bool, completion: (@Sendable (Bool) -> Void)?) -> HookedSeek {
            .refuse(reason: "no")
        }
        func sessionEnded() {}
        func availableCommands(adjusting commands: Set<PlayerCommand>) -> Set<PlayerCommand> {
            commands.subtracting([.seek]).union([.skipAd])
        }
    }

    func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
        var plan = try await BasicSessionProvider().prepareSession(for: video, context: context)
        plan.hooks = Hooks()
        return plan
    }
}
