import Clocks
import CoveCore
import CoveTesting
import Foundation
import Testing

/// Retries, resume, the buffer optimizer, bitrate caps and preloading against the scripted engine and
/// a manual clock. Each behaviour also has a real-engine test in CoveGStreamerTests.
@Suite("Resilience and QoE (scripted engine)")
struct ResilienceTests {
    let engine = ScriptedEngine()
    let clock = TestClock()
    let logs = LogCapture()

    static let fastRetry = RetryPolicy(maximumAttempts: 2, initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(4), jitter: 0)

    func makeController(retry: RetryPolicy = fastRetry, provider: (any PlaybackSessionProvider)? = nil) -> PlaybackController {
        PlayerSDKManager.shared.makePlaybackController(
            engine: engine, sessionProvider: provider,
            configuration: PlaybackControllerConfiguration(
                progressInterval: .milliseconds(500), retryPolicy: retry, random: { 0.5 }, clock: clock, logger: logs.logger())
        )
    }

    static let video = Video(url: URL(string: "https://media.example/a/master.m3u8")!, properties: ["id": "a"])
        .update { $0.cuePoints = CuePointCollection([CuePoint(type: "AD", position: .seconds(4))]) }
    static let second = Video(url: URL(string: "https://media.example/b/master.m3u8")!, properties: ["id": "b"])

    /// Plays the video until its progress reports `position`; returns its player.
    func play(_ controller: PlaybackController, _ recorder: EventRecorder, to position: MediaTime) async throws -> ScriptedPlayer {
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        player.setPosition(position)
        try await clock.advance(by: .milliseconds(500), until: recorder) { if case .progress(_, let t) = $0 { t == position } else { false } }
        return player
    }

    /// Plays to `position`, then the engine reports a dead network and an empty buffer.
    func playThenLoseTheNetwork(
        _ controller: PlaybackController, _ recorder: EventRecorder, at position: MediaTime, status: Int? = nil
    ) async throws -> ScriptedPlayer {
        let player = try await play(controller, recorder, to: position)
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "segments stopped", httpStatus: status)))
        player.emit(.buffering(percent: 0))
        return player
    }

    @Test func aStallAfterDownloadsDiedIsRetriedByRebuildingThePipelineAtThePosition() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(6))
        let retry = try await recorder.waitFor { $0.name == "Retry" }
        guard case .retry(_, let attempt) = retry else { return }
        #expect(attempt.kind == .playback && attempt.attempt == 1 && attempt.maximumAttempts == 2 && attempt.delay == .seconds(1))
        #expect(engine.players.count == 1, "nothing is rebuilt before the delay")
        await clock.advance(by: .seconds(1))
        let rebuilt = await engine.player(number: 2)
        #expect(rebuilt.configuration.startPosition == .seconds(6))
        #expect(rebuilt.configuration.forwardBufferDuration == BufferOptimizer.default.minimum, "the optimizer's target carries over")
        try await recorder.waitFor(.recovered)
        await controller.settle()
        // One stall, one recovery; nothing the app saw before repeats.
        #expect(recorder.lifecycleNames.filter { $0 == "Ready" }.count == 1)
        #expect(recorder.lifecycleNames.filter { $0 == "Play" }.count == 1)
        #expect(recorder.lifecycleNames.filter { $0 == "PlaybackStalled" }.count == 1)
        #expect(!recorder.lifecycleNames.contains("FailedToPlayToEndTime"))
        #expect(await engine.player(number: 1).isClosed)
    }

    @Test func retriesBackOffThenGiveUpWithOneFailedToPlayToEndTime() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(3))
        // Every rebuilt pipeline fails to load too.
        engine.behavior.loadFailure = PlaybackError(.networkUnreachable, "refused")
        try await clock.advance(by: .milliseconds(500), until: recorder) { $0.lifecycleEvent?.kind == .failedToPlayToEndTime }
        await controller.settle()
        let attempts = recorder.events.compactMap { if case .retry(_, let r) = $0 { r } else { nil } }
        #expect(attempts.map(\.attempt) == [1, 2])
        #expect(attempts.map(\.delay) == [.seconds(1), .seconds(2)])
        #expect(engine.players.count == 3)
        #expect(recorder.lifecycleNames.filter { $0 == "FailedToPlayToEndTime" }.count == 1)
        #expect(!recorder.lifecycleNames.contains("Fail"))
    }

    @Test func clientErrorsAreNeverRetried() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(3), status: 403)
        let failure = try #require(try await recorder.waitFor(.failedToPlayToEndTime).lifecycleEvent?.error)
        await controller.settle()
        #expect(!recorder.names.contains("Retry"))
        // Fatal, and caused by the download failure the engine reported (a chain of errors, not text).
        #expect(failure.code == .failedToPlayToEnd && failure.severity == .fatal)
        guard case .playback(let cause) = failure.cause else { Issue.record("no cause: \(failure)"); return }
        #expect(cause.code == .downloadFailed && cause.httpStatus == 403)
        #expect(failure.rootCause == failure.cause && failure.causeChain.count == 1)
        #expect(engine.players.count == 1)
    }

    @Test func resumeVideoRebuildsAndCompletesWithoutRepeatingReadyPlayOrCuePoints() async throws {
        let controller = makeController(retry: .none)
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(5))
        try await recorder.waitFor(.failedToPlayToEndTime)
        let mark = await recorder.cursor()
        controller.resumeVideo(at: .seconds(2), autoPlay: true)
        controller.resumeVideo(at: .seconds(2), autoPlay: true)
        try await recorder.waitFor(.resumeComplete, from: mark)
        let rebuilt = await engine.player(number: 2)
        #expect(rebuilt.configuration.startPosition == .seconds(2))
        rebuilt.setPosition(.seconds(4.5))
        try await clock.advance(by: .milliseconds(500), until: recorder, from: mark) { if case .progress(_, let t) = $0 { t == .seconds(4.5) } else { false } }
        await controller.settle()
        let after = recorder.events.dropFirst(mark)
        let names = after.compactMap { $0.lifecycleEvent?.name }
        #expect(Array(names.prefix(2)) == ["ResumeBegin", "Error"], "the second call is refused while the first runs")
        #expect(after.compactMap { $0.lifecycleEvent?.error?.code }.first == .invalidState)
        #expect(after.compactMap { $0.lifecycleEvent?.error?.severity }.first == .recoverable, "a refused call leaves playback going")
        #expect(names.contains("ResumeComplete"))
        #expect(!names.contains("Ready") && !names.contains("Play") && !names.contains("PlayRequest"))
        #expect(!after.contains { $0.name == "CuePoints" }, "the cue point at 4 s was reported before the failure")
        #expect(engine.players.count == 2, "the refused call built nothing")
    }

    /// The first answer on `answers`, or nil when none comes within `timeout` (real time).
    static func first(of answers: AsyncStream<Bool>, within timeout: Duration = .seconds(5)) async -> Bool? {
        await withTaskGroup(of: Bool?.self) { group in
            group.addTask {
                for await answer in answers { return answer }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// A play asked while a `resumeVideo(at:autoPlay: false)` loads is the app's newest wish and is kept: the
    /// rebuilt pipeline plays and no Pause is reported. (The resume's autoPlay used to overwrite it when the
    /// rebuilt pipeline loaded: Pause was reported and the video stayed paused. Issue 33's chaos run found
    /// it.) A pause asked while a resume with autoPlay loads is kept the same way.
    @Test(arguments: [false, true])
    func aPlayOrPauseAskedWhileAResumeLoadsOutranksItsAutoPlay(autoPlay: Bool) async throws {
        let wish = autoPlay ? "pause" : "play"
        do {
            let controller = makeController(retry: .none)
            let recorder = EventRecorder(controller)
            _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(5))
            try await recorder.waitFor(.failedToPlayToEndTime)
            let mark = await recorder.cursor()
            controller.resumeVideo(at: .seconds(2), autoPlay: autoPlay)
            if wish == "play" { controller.play() } else { controller.pause() }
            try await recorder.waitFor(.resumeComplete, from: mark)
            await controller.settle()
            let rebuilt = await engine.player(number: 2)
            let names = recorder.events.dropFirst(mark).compactMap { $0.lifecycleEvent?.name }
            let lastCall = rebuilt.calls.last { $0 == .play || $0 == .pause || $0 == .load(playWhenReady: true) || $0 == .load(playWhenReady: false) }
            if wish == "play" {
                // Play was reported before the failure and no Pause since: playback simply goes on.
                #expect(!names.contains("Pause"), "\(names)")
                #expect(lastCall == .play || lastCall == .load(playWhenReady: true), "\(rebuilt.calls)")
            } else {
                #expect(!names.contains("Play"), "\(names)")
                #expect(lastCall == .pause || lastCall == .load(playWhenReady: false), "\(rebuilt.calls)")
            }
            controller.shutdown()
            await controller.settle()
        }
    }

    /// A download that fails (after its retries) while a seek waits for its target's media — on a pipeline
    /// that already had a failure, so the stall watch says nothing new — rebuilds the pipeline at the seek's
    /// target, and the seek is answered once it loads. (The seek stayed unanswered forever: issue 33's chaos
    /// run, seeds 1 and 20261127.)
    @Test func aDownloadFailureDuringASeekRebuildsAtTheTargetAndAnswersTheSeek() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        // The first pipeline never finishes a seek by itself; the retry's does.
        engine.behavior.completesSeeks = false
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        // A first failure while playing on: reported, and nothing else happens (the buffer carries on).
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "one segment failed", httpStatus: 503)))
        try await recorder.waitFor(.error)
        let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
        controller.seek(to: .seconds(12)) { answer.yield($0) }
        await controller.settle()
        engine.behavior.completesSeeks = true
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "the target's segment failed", httpStatus: 503)))
        let retry = try await recorder.waitFor { $0.name == "Retry" }
        guard case .retry(_, let attempt) = retry else { return }
        await clock.advance(by: attempt.delay)
        let rebuilt = await engine.player(number: 2)
        #expect(rebuilt.configuration.startPosition == .seconds(12))
        #expect(await Self.first(of: answers) == true, "the seek was never answered")
    }

    /// A download that fails while playback is wanted but has not started (the engine's clock never ran:
    /// its own flushing seek for the rate was prerolling) retries by rebuilding: nothing would ever run dry
    /// to report a stall. (Chaos, seed 1: an AES-128 video at rate 0.5 whose first segment met an outage
    /// never played.)
    @Test func aDownloadFailureBeforePlaybackStartedRetries() async throws {
        engine.behavior.reportsStateChanges = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        try await recorder.waitFor(.ready)
        await controller.settle()
        #expect(!recorder.lifecycleNames.contains("Play"))
        let player = await engine.player(number: 1)
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "the first segment failed", httpStatus: 503)))
        let retry = try await recorder.waitFor { $0.name == "Retry" }
        guard case .retry(_, let attempt) = retry else { return }
        engine.behavior.reportsStateChanges = true
        await clock.advance(by: attempt.delay)
        let rebuilt = await engine.player(number: 2)
        #expect(rebuilt.calls.contains(.load(playWhenReady: true)), "\(rebuilt.calls)")
    }

    /// Downloads that die before the media loaded (a first load whose segments fail after some bytes were
    /// pushed, or a retry's rebuilt pipeline) are a load failure: retried by the policy, then Fail — never a
    /// load that waits forever. (Chaos, seed 1: a live retry whose segments came back as junk.)
    @Test func downloadsThatDieBeforeTheMediaLoadedFailTheLoad() async throws {
        engine.behavior.prerollsOnLoad = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        let first = await engine.player(number: 1)
        await first.waitForCalls(count: 1)
        first.emit(.downloadFailed(PlaybackError(.downloadFailed, "segments stopped", httpStatus: 503)))
        let retry = try await recorder.waitFor { $0.name == "Retry" }
        guard case .retry(_, let attempt) = retry else { return }
        #expect(attempt.kind == .load)
        // Every retry's pipeline loses its downloads too: the policy's attempts run out, and the load fails.
        var number = 2
        await clock.advance(by: attempt.delay)
        while !recorder.lifecycleNames.contains("Fail"), number <= 4 {
            let next = await engine.player(number: number)
            await next.waitForCalls(count: 1)
            next.emit(.downloadFailed(PlaybackError(.downloadFailed, "segments stopped again", httpStatus: 503)))
            await controller.settle()
            await clock.advance(by: .seconds(4))
            await controller.settle()
            number += 1
        }
        #expect(recorder.lifecycleNames.contains("Fail"), "\(recorder.lifecycleNames)")
        #expect(!recorder.lifecycleNames.contains("Ready"))
    }

    /// A seek asked while a resume's rebuilt pipeline loads goes to the rebuilt pipeline once it has loaded,
    /// and is answered. (It stayed queued, never performed and never answered until the session ended:
    /// issue 33's chaos run found it, seed 1.)
    @Test func aSeekAskedWhileAResumeLoadsIsPerformedOnceItHasLoaded() async throws {
        let controller = makeController(retry: .none)
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(5))
        try await recorder.waitFor(.failedToPlayToEndTime)
        let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
        controller.resumeVideo(at: .seconds(2), autoPlay: true)
        controller.seek(to: .seconds(8)) { answer.yield($0) }
        try await recorder.waitFor(.resumeComplete)
        #expect(await Self.first(of: answers) == true, "the seek was never answered")
        let rebuilt = await engine.player(number: 2)
        #expect(rebuilt.calls.contains { if case .seek(let to, _) = $0 { to == .seconds(8) } else { false } }, "\(rebuilt.calls)")
        #expect(rebuilt.position == .seconds(8))
    }

    /// A seek asked while a resume loads is answered false when the resume fails.
    @Test func aSeekAskedWhileAResumeLoadsIsAnsweredWhenTheResumeFails() async throws {
        let controller = makeController(retry: .none)
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(5))
        try await recorder.waitFor(.failedToPlayToEndTime)
        engine.behavior.loadFailure = PlaybackError(.networkUnreachable, "still down")
        let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
        controller.resumeVideo(at: .seconds(2), autoPlay: true)
        controller.seek(to: .seconds(8)) { answer.yield($0) }
        try await recorder.waitFor(.resumeFail)
        #expect(await Self.first(of: answers) == false, "the seek was never answered")
    }

    /// A seek in flight when a stalled pipeline dies goes to the retry's pipeline, which opens at the seek's
    /// target, and is answered once that has loaded. (The retry opened at the old position and the seek was
    /// never answered: issue 33's chaos run found it, seed 1.)
    @Test func aSeekInFlightWhenThePipelineDiesLandsOnTheRetrysPipeline() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        // The first pipeline never finishes a seek; the retry's does.
        engine.behavior.completesSeeks = false
        let player = try await play(controller, recorder, to: .seconds(3))
        player.emit(.buffering(percent: 0))
        try await recorder.waitFor(.stalled)
        let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
        controller.seek(to: .seconds(12)) { answer.yield($0) }
        await controller.settle()
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "segments stopped")))
        try await recorder.waitFor { $0.name == "Retry" }
        engine.behavior.completesSeeks = true
        let mark = await recorder.cursor()
        try await clock.advance(by: .milliseconds(500), until: recorder, from: mark) { if case .progress = $0 { true } else { false } }
        #expect(await Self.first(of: answers) == true, "the seek was never answered")
        let rebuilt = await engine.player(number: 2)
        #expect(rebuilt.configuration.startPosition == .seconds(12))
    }

    /// The retry's pipeline opened at the target of the seek in flight, but its position is not known yet
    /// when it has loaded (GStreamer's query fails until a buffer reaches the sinks): the seek's landing is
    /// reported at the target, where that pipeline starts, not at 0. (Issue 33's chaos run: a seek on HLS
    /// with alternate audio, its audio segment junk, "landed" at 0.000 s.)
    @Test func aSeekCarriedIntoARetryLandsAtItsTargetWhileTheNewPositionIsUnknown() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        engine.behavior.completesSeeks = false
        let player = try await play(controller, recorder, to: .seconds(3))
        let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
        controller.seek(to: .seconds(12)) { answer.yield($0) }
        await controller.settle()
        engine.behavior.completesSeeks = true
        engine.behavior.positionUnknownUntilSet = true
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "the target's audio segment was junk")))
        let retry = try await recorder.waitFor { $0.name == "Retry" }
        guard case .retry(_, let attempt) = retry else { return }
        let mark = await recorder.cursor()
        await clock.advance(by: attempt.delay)
        #expect(await Self.first(of: answers) == true, "the seek was never answered")
        let landing = try await recorder.waitFor(from: mark) { if case .progress = $0 { true } else { false } }
        guard case .progress(_, let position) = landing else { return }
        #expect(position == .seconds(12), "the seek's landing was reported at \(position)")
    }

    /// A segment that fails while the video loads schedules a load retry; when the pipeline loads anyway
    /// on what it has and later runs dry where that segment begins, the stall knows downloads died and
    /// hands over to the retries, which rebuild the pipeline. (Issue 33's chaos run, AES-128 HLS: the
    /// failure went to the load retry only, the load succeeded, and the stall waited for good.)
    @Test func aDownloadFailureWhileLoadingIsRememberedForTheStallAfterTheLoadSucceeds() async throws {
        engine.behavior.prerollsOnLoad = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        let player = await engine.player(number: 1)
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "segment 4 came back as an HTML page")))
        try await recorder.waitFor { $0.name == "Retry" }
        player.emit(.tracksChanged(engine.behavior.tracks))
        player.preroll()
        try await recorder.waitFor(.ready)
        player.emit(.playing)
        try await recorder.waitFor(.play)
        player.setPosition(.seconds(2))
        try await clock.advance(by: .milliseconds(500), until: recorder) { if case .progress(_, let t) = $0 { t == .seconds(2) } else { false } }
        let mark = await recorder.cursor()
        player.emit(.buffering(percent: 0))
        try await recorder.waitFor(.stalled, from: mark)
        let retry = try await recorder.waitFor(from: mark) { $0.name == "Retry" }
        guard case .retry(_, let attempt) = retry else { return }
        #expect(attempt.kind == .playback)
        await clock.advance(by: attempt.delay)
        let rebuilt = await engine.player(number: 2)
        #expect(rebuilt.configuration.startPosition == .seconds(2))
    }

    @Test func aResumeThatCannotLoadReportsResumeFailAndCanBeCalledAgain() async throws {
        let controller = makeController(retry: .none)
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(5))
        try await recorder.waitFor(.failedToPlayToEndTime)
        engine.behavior.loadFailure = PlaybackError(.networkUnreachable, "still down")
        controller.resumeVideo(at: .seconds(5), autoPlay: true)
        let fail = try #require(try await recorder.waitFor(.resumeFail).lifecycleEvent?.error)
        #expect(fail.message.contains("resumeVideo(at:autoPlay:) again"))
        #expect(fail.severity == .fatal && fail.cause == .playback(PlaybackError(.networkUnreachable, "still down")))
        engine.behavior.loadFailure = nil
        controller.resumeVideo(at: .seconds(5), autoPlay: true)
        try await recorder.waitFor(.resumeComplete)
        #expect(engine.players.count == 3)
    }

    @Test func automaticResumeProbesUntilTheNetworkIsBack() async throws {
        let policy = RetryPolicy(maximumAttempts: 0, automaticResume: .init(interval: .seconds(2)))
        let controller = makeController(retry: policy)
        let recorder = EventRecorder(controller)
        _ = try await playThenLoseTheNetwork(controller, recorder, at: .seconds(5))
        try await recorder.waitFor(.failedToPlayToEndTime)
        engine.behavior.loadFailure = PlaybackError(.networkUnreachable, "still down")
        try await clock.advance(by: .seconds(1), until: recorder) { $0.lifecycleEvent?.kind == .resumeFail }
        engine.behavior.loadFailure = nil
        try await clock.advance(by: .seconds(1), until: recorder) { $0.lifecycleEvent?.kind == .resumeComplete }
        let automatic = recorder.events.compactMap { if case .retry(_, let r) = $0, r.kind == .automaticResume { r } else { nil } }
        #expect(automatic.map(\.attempt) == [1, 2])
    }

    @Test func theForwardBufferStartsAtTheMinimumAndGrowsWithTimeWatched() async throws {
        let controller = makeController()
        controller.bufferOptimizer = BufferOptimizer(minimum: .seconds(2), maximum: .seconds(5))
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        #expect(player.configuration.forwardBufferDuration == .seconds(2))
        // Half a second of buffer per second watched (counted from the first position, 1 s): 3 s after
        // 6 s watched, 5 s (the cap) after 10 s.
        for second in 1...11 {
            player.setPosition(.seconds(Double(second)))
            try await clock.advance(by: .milliseconds(500), until: recorder) {
                if case .progress(_, let t) = $0 { t == .seconds(Double(second)) } else { false }
            }
        }
        await controller.settle()
        let targets = recorder.events.compactMap { if case .forwardBufferChanged(_, let d) = $0 { d } else { nil } }
        #expect(targets == [.seconds(2), .seconds(3), .seconds(4), .seconds(5)])
        let applied: [Duration?] = player.calls.compactMap { call -> Duration?? in if case .setForwardBufferDuration(let d) = call { .some(d) } else { nil } }
        #expect(applied == [.seconds(3), .seconds(4), .seconds(5)])
        #expect(controller.currentSession?.forwardBufferTarget == .seconds(5))
        // A seek does not count as watching.
        let before = player.calls.count
        player.setPosition(.seconds(15))
        _ = await controller.seekAndWait(to: .seconds(15))
        await controller.settle()
        #expect(player.calls.dropFirst(before).allSatisfy { if case .setForwardBufferDuration = $0 { false } else { true } })
    }

    @Test func methodNoneLeavesTheEngineAlone() async throws {
        let controller = makeController()
        controller.bufferOptimizer = .none
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        #expect(player.configuration.forwardBufferDuration == nil)
        #expect(!recorder.names.contains("ForwardBuffer"))
    }

    @Test func aResolutionCapBecomesABitrateCapFromTheLadderAndSwitchesSayWhy() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.video])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        let ladder = [
            Variant(bandwidth: 500_000, width: 426, height: 240, url: "v0"), Variant(bandwidth: 1_300_000, width: 854, height: 480, url: "v1"),
            Variant(bandwidth: 3_000_000, width: 1280, height: 720, url: "v2"),
        ]
        player.emit(.variantsDiscovered(ladder))
        player.emit(.variantChanged(bandwidth: 500_000, url: "v0"))
        player.emit(.variantChanged(bandwidth: 3_000_000, url: "v2"))
        try await recorder.waitFor { if case .variantChanged(_, let v) = $0 { v.to.bandwidth == 3_000_000 } else { false } }
        controller.setMaximumResolution(width: nil, height: 480)
        await controller.settle()
        #expect(player.calls.last == .setMaxBitrate(1_300_000))
        player.emit(.variantChanged(bandwidth: 1_300_000, url: "v1"))
        try await recorder.waitFor { if case .variantChanged(_, let v) = $0 { v.to.bandwidth == 1_300_000 } else { false } }
        controller.setPreferredPeakBitRate(600_000)
        await controller.settle()
        #expect(player.calls.last == .setMaxBitrate(600_000), "the lower cap wins")
        let changes = recorder.events.compactMap { if case .variantChanged(_, let v) = $0 { v } else { nil } }
        #expect(changes.map(\.reason) == [.initial, .adaptive, .cap])
        #expect(changes.last?.from?.height == 720 && changes.last?.to.height == 480)
        #expect(controller.currentSession?.variants.variants.count == 3)
        #expect(controller.currentSession?.activeVariant?.bandwidth == 1_300_000)
        controller.setMaximumResolution(width: nil, height: nil)
        controller.setPreferredPeakBitRate(nil)
        await controller.settle()
        #expect(player.calls.last == .setMaxBitrate(nil))
    }

    @Test func preloadingPreparesTheNextVideoPausedAndTakesItOverAtTheEnd() async throws {
        let provider = BasicSessionProvider(options: BasicSessionProviderOptions(sessionPreloadingPolicy: .withProgressPercentage(50)))
        let controller = makeController(provider: provider)
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos([Self.video, Self.second])
        try await recorder.waitFor(.play)
        let first = await engine.player(number: 1)
        first.setPosition(.seconds(9))
        try await clock.advance(by: .milliseconds(500), until: recorder) { if case .progress(_, let t) = $0 { t == .seconds(9) } else { false } }
        await controller.settle()
        #expect(engine.players.count == 1, "not before 50 %")
        first.setPosition(.seconds(10))
        try await clock.advance(by: .milliseconds(500), until: recorder) { if case .progress(_, let t) = $0 { t == .seconds(10) } else { false } }
        let next = await engine.player(number: 2)
        await next.waitForCalls(count: 1)
        #expect(next.calls == [.load(playWhenReady: false)])
        #expect(next.configuration.url == Self.second.sources[0].url)
        #expect(recorder.events.filter { $0.name == "SessionAdvanced" }.count == 1, "the preloaded session is not announced early")
        let mark = await recorder.cursor()
        first.emit(.endOfStream)
        try await recorder.waitFor(.play, from: mark)
        #expect(next.calls.prefix(2) == [.load(playWhenReady: false), .play])
        #expect(engine.players.count == 2, "the second video was not built again")
        let names = recorder.events.dropFirst(mark).map(\.name)
        #expect(names.contains("SessionAdvanced") && names.contains("Ready"))
        #expect(first.isClosed)
    }

    @Test func invalidPreloadPercentagesMeanNever() {
        #expect(SessionPreloadingPolicy.withProgressPercentage(-1) == .never)
        #expect(SessionPreloadingPolicy.withProgressPercentage(101) == .never)
        #expect(SessionPreloadingPolicy.withProgressPercentage(.nan) == .never)
        #expect(SessionPreloadingPolicy.withProgressPercentage(100) != .never)
        #expect(BasicSessionProviderOptions().sessionPreloadingPolicy == .never)
    }

    @Test func policyValuesValidateTheirInputs() throws {
        #expect(BufferOptimizer(minimum: .milliseconds(100), maximum: .zero) == BufferOptimizer(minimum: .seconds(1), maximum: .seconds(1)))
        let fromOptions = try BufferOptimizer(options: [
            BufferOptimizer.OptionKey.method: "default", BufferOptimizer.OptionKey.minimumDuration: 4, BufferOptimizer.OptionKey.maximumDuration: 20.5,
        ])
        #expect(fromOptions == BufferOptimizer(minimum: .seconds(4), maximum: .milliseconds(20_500)))
        #expect(throws: PlaybackError.self) { try BufferOptimizer(options: [BufferOptimizer.OptionKey.minimumDuration: 0.5]) }
        #expect(throws: PlaybackError.self) { try BufferOptimizer(options: [BufferOptimizer.OptionKey.method: "fast"]) }
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(5), jitter: 0.5)
        #expect(policy.delay(beforeAttempt: 1, random: 0.5) == .seconds(1))
        #expect(policy.delay(beforeAttempt: 4, random: 0.5) == .seconds(5), "capped")
        #expect(policy.delay(beforeAttempt: 1, random: 0) == .milliseconds(500))
        #expect(policy.delay(beforeAttempt: 1, random: 1) == .milliseconds(1500))
        #expect(policy.isRetryable(PlaybackError(.downloadFailed, "x", httpStatus: 503)))
        #expect(policy.isRetryable(PlaybackError(.networkUnreachable, "x")))
        #expect(policy.isRetryable(PlaybackError(.httpStatus, "x", httpStatus: 429)))
        #expect(!policy.isRetryable(PlaybackError(.downloadFailed, "x", httpStatus: 404)))
        #expect(!policy.isRetryable(PlaybackError(.corruptMedia, "x")))
    }
}
