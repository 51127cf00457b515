import Clocks
import CoveCore
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Bumpers on the scripted engine: the content player is created first (number 1) and preloads
/// paused; the bumper gets its own player (number 2) and plays first.
@Suite("Bumpers (scripted engine)")
struct BumperTests {
    let engine = ScriptedEngine()
    let clock = TestClock()
    let logs = LogCapture()

    func makeController(output: VideoOutput = .headless) -> PlaybackController {
        PlayerSDKManager.shared.makePlaybackController(
            engine: engine,
            configuration: PlaybackControllerConfiguration(
                progressInterval: .milliseconds(500), videoOutput: output, bumperStallTimeout: .seconds(8), clock: clock, logger: logs.logger())
        )
    }

    /// Advances the manual clock step by step until `predicate` matches an event: a timer task may

    static let bumper = Video(url: URL(string: "https://media.example/bumper/master.m3u8")!, properties: ["id": "bumper"])
    static let content = Video(url: URL(string: "https://media.example/a/master.m3u8")!, properties: ["id": "a"]).update { $0.bumper = bumper }
    static let second = Video(url: URL(string: "https://media.example/b/master.m3u8")!, properties: ["id": "b"]).update { $0.bumper = bumper }

    @Test func theBumperPlaysFirstWhileTheContentPreloadsPausedThenTheContentPlays() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let delegate = BumperDelegate()
        let consumer = BumperConsumer()
        controller.delegate = delegate
        controller.addSessionConsumer(consumer)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        let content = await engine.player(number: 1)
        let bumper = await engine.player(number: 2)
        #expect(content.configuration.url == Self.content.sources[0].url)
        #expect(bumper.configuration.url == Self.bumper.sources[0].url)
        try await recorder.waitFor { $0.lifecycleEvent?.kind == .ready }
        await controller.settle()
        #expect(bumper.calls == [.load(playWhenReady: true)])
        #expect(content.calls == [.load(playWhenReady: false)])
        #expect(controller.currentSession?.bumper == Self.bumper)

        bumper.setPosition(.seconds(1.5))
        try await clock.advance(by: .milliseconds(500), until: recorder) { if case .lifecycle(_, .bumperProgress(.seconds(1.5))) = $0 { true } else { false } }
        #expect(!recorder.names.contains("Progress"), "content progress must not be reported while the bumper plays")
        #expect(!recorder.lifecycleNames.contains("Play"))

        bumper.emit(.firstFrame(wallTime: 1))
        try await recorder.waitFor { if case .framePresented(_, let f) = $0 { f.cause == .bumper } else { false } }
        bumper.emit(.endOfStream)
        try await recorder.waitFor(.play)
        #expect(bumper.isClosed)
        #expect(content.calls.last == .play)
        let names = recorder.lifecycleNames
        #expect(names.firstIndex(of: "BumperEnter")! < names.firstIndex(of: "BumperExit")!)
        #expect(names.firstIndex(of: "BumperExit")! < names.firstIndex(of: "Play")!)
        #expect(!names.contains("End"), "the bumper's end is not the content's end")
        await controller.settle()
        #expect(delegate.calls.first == "enter bumper" && delegate.calls.last == "exit bumper")
        #expect(Set(delegate.calls.dropFirst().dropLast()) == ["progress 1.5"])
        #expect(consumer.calls == delegate.calls)
        // The bumper's first frame is its own; the content's first frame is still reported as the start.
        content.emit(.firstFrame(wallTime: 2))
        try await recorder.waitFor { if case .framePresented(_, let f) = $0 { f.cause == .start } else { false } }
        let frames = recorder.events.compactMap { if case .framePresented(_, let f) = $0 { f.cause } else { nil } }
        #expect(frames.last == .start)
        controller.shutdown()
    }

    @Test func seekingIsRefusedDuringTheBumperAndAllowedAfter() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        #expect(await controller.seekAndWait(to: .seconds(5)) == false)
        let content = await engine.player(number: 1)
        let bumper = await engine.player(number: 2)
        #expect(!(content.calls + bumper.calls).contains { if case .seek = $0 { true } else { false } })
        #expect(logs.text.contains("seeking is not allowed while the bumper plays"))
        bumper.emit(.endOfStream)
        try await recorder.waitFor(.bumperExit)
        #expect(await controller.seekAndWait(to: .seconds(5)))
        #expect(content.calls.contains { if case .seek(.seconds(5), _) = $0 { true } else { false } })
        controller.shutdown()
    }

    @Test func pauseAndPlayDuringTheBumperReportBumperPauseAndResume() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let delegate = BumperDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        let content = await engine.player(number: 1)
        let bumper = await engine.player(number: 2)
        controller.pause()
        try await recorder.waitFor(.bumperPause)
        controller.play()
        try await recorder.waitFor(.bumperResume)
        #expect(bumper.calls == [.load(playWhenReady: true), .pause, .play])
        #expect(content.calls == [.load(playWhenReady: false)], "the content stays paused under the bumper")
        // Paused at the bumper's end: the content stays paused until play().
        let beforeSecondPause = await recorder.cursor()
        controller.pause()
        try await recorder.waitFor(.bumperPause, from: beforeSecondPause)
        let cursor = await recorder.cursor()
        bumper.emit(.endOfStream)
        try await recorder.waitFor(.bumperExit, from: cursor)
        await controller.settle()
        #expect(!content.calls.contains(.play))
        controller.play()
        try await recorder.waitFor(.play, from: cursor)
        await controller.settle()
        #expect(delegate.calls == ["enter bumper", "pause bumper", "resume bumper", "pause bumper", "exit bumper"])
        controller.shutdown()
    }

    @Test func theBumperPlaysOncePerQueue() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos([Self.content, Self.second])
        try await recorder.waitFor(.bumperEnter)
        await engine.player(number: 2).emit(.endOfStream)
        try await recorder.waitFor(.play)
        let beforeEnd = await recorder.cursor()
        await engine.player(number: 1).emit(.endOfStream)
        try await recorder.waitFor(from: beforeEnd) { event in
            if case .sessionAdvanced(let session) = event { session.video.id == "b" } else { false }
        }
        try await recorder.waitFor(.play, from: beforeEnd)
        await controller.settle()
        #expect(engine.players.count == 3, "the second video plays without the bumper")
        #expect(recorder.lifecycleNames.filter { $0 == "BumperEnter" }.count == 1)
        #expect(controller.currentSession?.bumper == nil)
        // A new queue plays the bumper again.
        controller.setVideos([Self.second])
        try await recorder.waitFor { event in
            if case .lifecycle(let session, .bumperEnter) = event { session.video.id == "b" } else { false }
        }
        #expect(engine.players.count == 5)
        controller.shutdown()
    }

    @Test func aFailingBumperIsReportedAndTheContentPlaysAnyway() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let consumer = BumperConsumer()
        controller.addSessionConsumer(consumer)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        let bumper = await engine.player(number: 2)
        bumper.emit(.failed(PlaybackError(.httpStatus, "segment 3 answered 500", httpStatus: 500)))
        try await recorder.waitFor(.play)
        let names = recorder.lifecycleNames
        let failed = try #require(names.firstIndex(of: "BumperFailedToPlayToEndTime"))
        #expect(failed < names.firstIndex(of: "BumperExit")!)
        #expect(!names.contains("Fail") && !names.contains("FailedToPlayToEndTime"))
        let error = try #require(recorder.events.compactMap { $0.lifecycleEvent }.first { $0.kind == .bumperFailedToPlayToEndTime }?.error)
        #expect(error.httpStatus == 500)
        #expect(error.severity == .recoverable, "the content plays anyway")
        await controller.settle()
        #expect(consumer.calls == ["enter bumper", "exit bumper"])
        controller.shutdown()
    }

    @Test func aBumperWithoutAPlayableSourceIsAnErrorEventAndTheContentPlaysDirectly() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        let broken = Video(sources: [], properties: ["id": "bumper"])
        controller.setVideos([Self.content.update { $0.bumper = broken }])
        try await recorder.waitFor(.play)
        #expect(engine.players.count == 1)
        #expect(!recorder.lifecycleNames.contains("BumperEnter"))
        let error = try #require(recorder.events.compactMap { $0.lifecycleEvent }.first { $0.kind == .error }?.error)
        #expect(error.message.contains("bumper"))
        controller.shutdown()
    }

    @Test func terminatingDuringTheBumperExitsItAndClosesBothPlayers() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        controller.currentSession?.terminate()
        try await recorder.waitFor(.terminate)
        #expect(Array(recorder.lifecycleNames.suffix(2)) == ["BumperExit", "Terminate"])
        #expect(await engine.player(number: 1).isClosed)
        #expect(await engine.player(number: 2).isClosed)
        controller.shutdown()
    }

    @Test func advancingDuringTheBumperExitsItFirst() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content, Self.second])
        try await recorder.waitFor(.bumperEnter)
        controller.advanceToNext()
        try await recorder.waitFor { if case .sessionAdvanced(let s) = $0 { s.video.id == "b" } else { false } }
        let names = recorder.names
        let exit = try #require(names.firstIndex(of: "BumperExit"))
        #expect(names[exit + 1] == "Terminate")
        // The app skipped it: the bumper does not follow to the next video.
        try await recorder.waitFor(.play)
        #expect(recorder.lifecycleNames.filter { $0 == "BumperEnter" }.count == 1)
        controller.shutdown()
    }

    @Test func contentThatFailsDuringTheBumperEndsItAndTheBumperPlaysBeforeTheNextVideo() async throws {
        engine.behavior.prerollsOnLoad = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos([Self.content, Video(url: URL(string: "https://media.example/b/master.m3u8")!, properties: ["id": "b"])])
        try await recorder.waitFor(.bumperEnter)
        let content = await engine.player(number: 1)
        let bumper = await engine.player(number: 2)
        bumper.emit(.playing)
        content.emit(.failed(PlaybackError(.notFound, "master.m3u8 answered 404", httpStatus: 404)))
        try await recorder.waitFor(failOn: []) { if case .sessionAdvanced(let s) = $0 { s.video.id == "b" } else { false } }
        try await recorder.waitFor(.bumperEnter, from: recorder.events.lastIndex { $0.name == "SessionAdvanced" } ?? 0, failOn: [])
        let names = recorder.lifecycleNames
        #expect(names.firstIndex(of: "BumperExit")! < names.firstIndex(of: "Fail")!, "\(names)")
        #expect(names.filter { $0 == "BumperEnter" }.count == 2, "the bumper plays before the next video instead")
        #expect(!recorder.names.contains("PlaylistCompleted"))
        #expect(bumper.isClosed)
        #expect(await engine.player(number: 4).configuration.url == Self.bumper.sources[0].url)
        controller.shutdown()
    }

    @Test func theBumperFollowsRateAndBitrateChanges() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        controller.playbackRate = 1.5
        controller.setPreferredPeakBitRate(800_000)
        await controller.settle()
        let bumper = await engine.player(number: 2)
        #expect(bumper.calls.contains(.setRate(1.5)))
        #expect(bumper.calls.contains(.setMaxBitrate(800_000)))
        controller.shutdown()
    }

    @Test func pausingABumperThatHasNotStartedReportsBumperPause() async throws {
        engine.behavior.prerollsOnLoad = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        controller.pause()
        try await recorder.waitFor(.bumperPause)
        let bumper = await engine.player(number: 2)
        bumper.preroll()
        controller.play()
        try await recorder.waitFor(.bumperResume)
        #expect(
            Array(recorder.lifecycleNames.filter { $0.hasPrefix("Bumper") || $0.hasSuffix("Request") }) == [
                "PlayRequest", "BumperEnter", "PauseRequest", "BumperPause", "PlayRequest", "BumperResume",
            ])
        controller.shutdown()
    }

    @Test func aStalledBumperIsSkippedAfterTheStallTimeout() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        let bumper = await engine.player(number: 2)
        try await recorder.waitFor(.ready)
        await controller.settle()
        var known = bumper.calls.count
        bumper.emit(.buffering(percent: 0))
        #expect(await bumper.nextCall(after: known) == .pause, "a dry bumper waits paused")
        // A stall that recovers in time changes nothing.
        await clock.advance(by: .seconds(4))
        known = bumper.calls.count
        bumper.emit(.buffering(percent: 100))
        #expect(await bumper.nextCall(after: known) == .play)
        #expect(!recorder.lifecycleNames.contains("BumperExit"))
        // One that does not is skipped.
        known = bumper.calls.count
        bumper.emit(.buffering(percent: 0))
        #expect(await bumper.nextCall(after: known) == .pause)
        try await clock.advance(by: .seconds(1), until: recorder) { $0.lifecycleEvent?.kind == .bumperExit }
        let names = recorder.lifecycleNames
        #expect(names.firstIndex(of: "BumperFailedToPlayToEndTime")! < names.firstIndex(of: "BumperExit")!)
        try await recorder.waitFor(.play)
        let error = try #require(recorder.events.compactMap(\.lifecycleEvent).first { $0.kind == .bumperFailedToPlayToEndTime }?.error)
        #expect(error.message.contains("stalled"))
        controller.shutdown()
    }

    @Test func seeksBeforeTheBumperStartsAreRefusedToo() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        #expect(await controller.seekAndWait(to: .seconds(5)) == false)
        try await recorder.waitFor(.bumperEnter)
        #expect(await engine.player(number: 1).configuration.startPosition == nil)
        controller.shutdown()
    }

    @Test func withAVisibleOutputTheContentLoadsOnlyAfterTheBumper() async throws {
        let controller = makeController(output: .window)
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.content])
        try await recorder.waitFor(.bumperEnter)
        await controller.settle()
        let content = await engine.player(number: 1)
        let bumper = await engine.player(number: 2)
        #expect(content.calls.isEmpty, "two windows must not show at once")
        bumper.emit(.endOfStream)
        try await recorder.waitFor(.play)
        #expect(content.calls == [.load(playWhenReady: true)])
        controller.shutdown()
    }
}

final class BumperDelegate: PlaybackControllerDelegate {
    private let state = Mutex<[String]>([])
    var calls: [String] { state.withLock { $0 } }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterBumper bumper: Video) {
        state.withLock { $0.append("enter \(bumper.id ?? "?")") }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitBumper bumper: Video) {
        state.withLock { $0.append("exit \(bumper.id ?? "?")") }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, bumper: Video, didProgressTo progress: MediaTime) {
        state.withLock { $0.append("progress \(progress.seconds)") }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPauseBumper bumper: Video) {
        state.withLock { $0.append("pause \(bumper.id ?? "?")") }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didResumeBumper bumper: Video) {
        state.withLock { $0.append("resume \(bumper.id ?? "?")") }
    }
}

final class BumperConsumer: PlaybackSessionConsumer {
    private let state = Mutex<[String]>([])
    var calls: [String] { state.withLock { $0 } }
    func playbackSession(_ session: PlaybackSession, didEnterBumper bumper: Video) { state.withLock { $0.append("enter \(bumper.id ?? "?")") } }
    func playbackSession(_ session: PlaybackSession, didExitBumper bumper: Video) { state.withLock { $0.append("exit \(bumper.id ?? "?")") } }
    func playbackSession(_ session: PlaybackSession, bumper: Video, didProgressTo progress: MediaTime) {
        state.withLock { $0.append("progress \(progress.seconds)") }
    }
    func playbackSession(_ session: PlaybackSession, didPauseBumper bumper: Video) { state.withLock { $0.append("pause \(bumper.id ?? "?")") } }
    func playbackSession(_ session: PlaybackSession, didResumeBumper bumper: Video) { state.withLock { $0.append("resume \(bumper.id ?? "?")") } }
}
