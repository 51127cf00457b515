import Clocks
import CoveCore
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Controller behaviour against the scripted engine and a manual clock: fast and deterministic.
@Suite("Playback controller (scripted engine)")
struct ControllerTests {
    let engine = ScriptedEngine()
    let clock = TestClock()
    let logs = LogCapture()

    func makeController(provider: (any PlaybackSessionProvider)? = nil, retry: RetryPolicy = .default) -> PlaybackController {
        PlayerSDKManager.shared.makePlaybackController(
            engine: engine, sessionProvider: provider,
            configuration: PlaybackControllerConfiguration(
                progressInterval: .milliseconds(500), retryPolicy: retry, random: { 0.5 }, clock: clock, logger: logs.logger())
        )
    }

    static let hls = Video(url: URL(string: "https://media.example/a/master.m3u8")!, properties: ["id": "a"])
    static let hls2 = Video(url: URL(string: "https://media.example/b/master.m3u8")!, properties: ["id": "b"])
    static let hls3 = Video(url: URL(string: "https://media.example/c/master.m3u8")!, properties: ["id": "c"])

    @Test func autoPlayDeliversTheSeedLifecycleInOrder() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        #expect(
            recorder.names == [
                "SessionAdvanced", "ForwardBuffer", "PlayRequest", "PlaybackBufferEmpty", "AudioTrack",
                "DurationChanged", "SeekableRanges", "MediaType", "VideoType", "Codecs", "Ready", "PlaybackLikelyToKeepUp", "Play",
            ])
        let player = await engine.player(number: 1)
        #expect(player.calls == [.load(playWhenReady: true)])
        #expect(player.configuration.url == Self.hls.sources[0].url)
        guard case .durationChanged(_, let duration) = recorder.events.first(where: { $0.name == "DurationChanged" }) else {
            Issue.record("no duration"); return
        }
        #expect(duration == .seconds(20))
        guard case .codecsDetermined(_, let codecs) = recorder.events.first(where: { $0.name == "Codecs" }) else { Issue.record("no codecs"); return }
        #expect(codecs == ["avc1.42c015", "mp4a.40.2"])
        guard case .mediaTypeDetermined(_, let media) = recorder.events.first(where: { $0.name == "MediaType" }) else { Issue.record("no media type"); return }
        #expect(media == .audioVideo)
    }

    /// An engine shows a play's first frame at preroll, before its clock runs: the controller reports
    /// it right after Play, with the time it was shown — unless a pause came in between, when it is
    /// stamped as playback really starts.
    @Test func aStartFrameShownBeforePlayingIsReportedAfterPlay() async throws {
        engine.behavior.reportsStateChanges = false
        for pausesInBetween in [false, true] {
            let controller = makeController()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Self.hls])
            try await recorder.waitFor(.ready)
            let player = await engine.player(number: engine.players.count)
            player.emit(.firstFrame(wallTime: 100))
            // Engine events are handled in order: once this one is seen, the frame is held.
            player.emit(.durationChanged(.seconds(30)))
            try await recorder.waitFor { if case .durationChanged(_, let d) = $0 { d == .seconds(30) } else { false } }
            if pausesInBetween {
                controller.pause()
                controller.play()
            }
            await controller.settle()
            #expect(!recorder.names.contains("FirstFrame"), "held until Play: \(recorder.names)")
            player.emit(.playing)
            try await recorder.waitFor { $0.name == "FirstFrame" }
            let names = recorder.lifecycleNames
            #expect(names.last == "Play" && names.filter { $0 == "Play" }.count == 1, "\(names)")
            guard case .framePresented(_, let frame) = recorder.events.last(where: { $0.name == "FirstFrame" }) else { return }
            #expect(frame.cause == .start)
            if pausesInBetween {
                #expect(frame.wallTime > 1_700_000_000, "stamped when playback started")
            } else {
                #expect(frame.wallTime == 100)
            }
            controller.shutdown()
        }
    }

    /// The viewer's caption choice survives the session (and the controller): saved to the app's file
    /// when the app selects a text track, applied to each new session's tracks; "off" is a choice too.
    @Test func theCaptionChoiceIsRememberedAcrossSessions() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cove-prefs-\(UUID().uuidString)/preferences.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        engine.behavior.tracks += [EngineTrack(id: "text-en", kind: .text, language: "en"), EngineTrack(id: "text-fr", kind: .text, language: "fr")]
        func session(_ preferences: CaptionPreferences) async throws -> (PlaybackController, EventRecorder, PlaybackSession) {
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: engine, configuration: PlaybackControllerConfiguration(clock: clock, logger: logs.logger(), captionPreferences: preferences)
            )
            let recorder = EventRecorder(controller)
            controller.setVideos([Self.hls])
            try await recorder.waitFor(.ready)
            await controller.settle()
            return (controller, recorder, try #require(controller.currentSession))
        }
        let (first, firstEvents, firstSession) = try await session(CaptionPreferences(fileURL: file))
        #expect(firstSession.selectedTextTrack == nil, "nothing remembered yet")
        let french: MediaTrack = try #require(firstSession.textTrackGroup.track(preferring: ["fr"]))
        firstSession.selectTextTrack(french)
        try await firstEvents.waitFor { if case .textTrackSelected(_, let t) = $0 { t?.language == "fr" } else { false } }
        first.shutdown()
        #expect(CaptionPreferences(fileURL: file).choice == .language("fr"))
        // A new controller and session, reading the file afresh: French again, without the app asking.
        let (second, secondEvents, secondSession) = try await session(CaptionPreferences(fileURL: file))
        try await secondEvents.waitFor { if case .textTrackSelected(_, let t) = $0 { t?.language == "fr" } else { false } }
        secondSession.selectTextTrack(nil)
        try await secondEvents.waitFor { if case .textTrackSelected(_, nil) = $0 { true } else { false } }
        second.shutdown()
        #expect(CaptionPreferences(fileURL: file).choice == .off)
        // With French gone and captions remembered off, nothing is selected until the app asks again.
        engine.behavior.tracks = engine.behavior.tracks.filter { $0.id != "text-fr" }
        let (third, thirdEvents, thirdSession) = try await session(CaptionPreferences(fileURL: file))
        #expect(thirdSession.selectedTextTrack == nil)
        let english: MediaTrack = try #require(thirdSession.textTrackGroup.track(preferring: ["en"]))
        thirdSession.selectTextTrack(english)
        try await thirdEvents.waitFor { if case .textTrackSelected(_, let t) = $0 { t?.language == "en" } else { false } }
        third.shutdown()
        #expect(CaptionPreferences(fileURL: file).choice == .language("en"))
        // A broken file is no choice, not a crash.
        try Data("{not json".utf8).write(to: file)
        #expect(CaptionPreferences(fileURL: file).choice == nil)
    }

    @Test func trackMenusUseTheDelegatesCustomTitlesElseDisplayNames() {
        final class Titles: PlaybackControllerDelegate {
            func playbackController(_ controller: PlaybackController, titleForTextTrack track: MediaTrack) -> String? {
                track.language == "fr" ? "Français (sous-titres)" : nil
            }
        }
        let controller = makeController()
        let titles = Titles()
        controller.delegate = titles
        let french = MediaTrack(id: "t1", kind: .text, language: "fr")
        let english = MediaTrack(id: "t2", kind: .text, language: "en", isAccessibility: true)
        let audio = MediaTrack(id: "a1", kind: .audio, language: "de")
        #expect(controller.title(for: french) == "Français (sous-titres)")
        #expect(controller.title(for: english) == "English SDH")
        #expect(controller.title(for: audio) == "German")
        controller.shutdown()
    }

    @Test func withoutAutoPlayTheSessionWaitsForPlay() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.likelyToKeepUp)
        #expect(!recorder.lifecycleNames.contains("Play"))
        let player = await engine.player(number: 1)
        #expect(player.calls == [.load(playWhenReady: false)])
        controller.play()
        try await recorder.waitFor(.play)
        #expect(Array(recorder.lifecycleNames.suffix(2)) == ["PlayRequest", "Play"])
        controller.pause()
        try await recorder.waitFor(.pause)
        #expect(Array(recorder.lifecycleNames.suffix(2)) == ["PauseRequest", "Pause"])
    }

    @Test func delegateConsumersAndStreamSeeTheSameEvents() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let stream = controller.events
        let streamed = Task {
            var names: [String] = []
            for await event in stream where event.lifecycleEvent != nil { names.append(event.name) }
            return names
        }
        let delegate = RecordingDelegate()
        let early = RecordingConsumer()
        controller.delegate = delegate
        controller.addSessionConsumer(early)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        // A consumer added mid-session immediately gets the current session, then only later events.
        let late = RecordingConsumer()
        controller.addSessionConsumer(late)
        controller.pause()
        try await recorder.waitFor(.pause)
        await drain(controller)
        #expect(delegate.lifecycle == recorder.lifecycleNames)
        #expect(early.lifecycle == recorder.lifecycleNames)
        #expect(late.lifecycle == ["PauseRequest", "Pause"])
        #expect(late.advancedTo == [controller.currentSession!.id])
        #expect(delegate.advancedTo == [controller.currentSession!.id])
        #expect(delegate.durations == [.seconds(20)])
        controller.removeSessionConsumer(late)
        controller.play()
        try await recorder.waitFor(.play, from: await recorder.cursor())
        await drain(controller)
        #expect(late.lifecycle == ["PauseRequest", "Pause"])
        #expect(early.lifecycle.suffix(2) == ["PlayRequest", "Play"])
        controller.shutdown()
        #expect(await streamed.value == recorder.lifecycleNames)
    }

    @Test func progressFollowsTheClockAndReportsCuePointsOverPreviousToCurrent() async throws {
        let video = Self.hls.update {
            $0.cuePoints = [
                .before(type: .adSlot), CuePoint(type: .code, position: .seconds(1)), CuePoint(type: .code, position: .seconds(2)),
                CuePoint(type: .code, position: .seconds(7)), .after(type: .adSlot),
            ]
        }
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([video])
        try await recorder.waitFor(.play)
        // First play reports the pre-roll cue points before Play.
        let first = try #require(recorder.events.compactMap(cuePassage).first)
        #expect(first.previousTime == .before && first.currentTime == .zero)
        #expect(first.cuePoints.map(\.position) == [.before])
        let player = await engine.player(number: 1)
        player.setPosition(.seconds(2))
        await clock.advance(by: .milliseconds(500))
        try await recorder.waitFor { if case .progress(_, .seconds(2)) = $0 { true } else { false } }
        let second = try #require(recorder.events.compactMap(cuePassage).last)
        #expect(second.previousTime == .zero && second.currentTime == .seconds(2))
        #expect(second.cuePoints.map(\.position) == [.seconds(1), .seconds(2)])
        // Nothing new between 2 s and 3 s.
        player.setPosition(.seconds(3))
        await clock.advance(by: .milliseconds(500))
        try await recorder.waitFor { if case .progress(_, .seconds(3)) = $0 { true } else { false } }
        #expect(recorder.events.compactMap(cuePassage).count == 2)
        // The end reports what is left, up to the post-roll sentinel, before End.
        player.emit(.endOfStream)
        try await recorder.waitFor(.end)
        let last = try #require(recorder.events.compactMap(cuePassage).last)
        #expect(last.previousTime == .seconds(3) && last.currentTime == .after)
        #expect(last.cuePoints.map(\.position) == [.seconds(7), .after])
        #expect(Array(recorder.names.suffix(2)) == ["CuePoints", "End"])
    }

    @Test func seeksAggregateCuePointsAcrossTheJumpAndComplete() async throws {
        let video = Self.hls.update { $0.cuePoints = [CuePoint(type: .code, position: .seconds(5)), CuePoint(type: .code, position: .seconds(12))] }
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([video])
        try await recorder.waitFor(.play)
        let landed = await controller.seekAndWait(to: .seconds(15))
        #expect(landed)
        let passage = try #require(recorder.events.compactMap(cuePassage).last)
        #expect(passage.previousTime == .zero && passage.currentTime == .seconds(15))
        #expect(passage.cuePoints.count == 2)
        // Seeking back reports nothing.
        let count = recorder.events.compactMap(cuePassage).count
        #expect(await controller.seekAndWait(to: .seconds(1)))
        #expect(recorder.events.compactMap(cuePassage).count == count)
        let player = await engine.player(number: 1)
        #expect(player.calls.filter { if case .seek = $0 { true } else { false } }.count == 2)
        #expect(recorder.lifecycleNames.filter { $0 == "PlaybackBufferEmpty" }.count == 3)
    }

    @Test func seekBeforeReadyIsQueuedAndALaterSeekReplacesIt() async throws {
        engine.behavior.prerollsOnLoad = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let outcomes = Mutex<[String: Bool]>([:])
        controller.setVideos([Self.hls])
        controller.seek(to: .seconds(4)) { ok in outcomes.withLock { $0["first"] = ok } }
        let player = await engine.player(number: 1)
        controller.seek(to: .seconds(8)) { ok in outcomes.withLock { $0["second"] = ok } }
        try await recorder.waitFor(.bufferEmpty)
        player.emit(.tracksChanged(engine.behavior.tracks))
        player.preroll()
        try await recorder.waitFor(.ready)
        await drain(controller)
        #expect(outcomes.withLock { $0 } == ["first": false, "second": true])
        #expect(player.calls.contains(.seek(.seconds(8), id: 2)))
    }

    @Test func seekQueuedBeforePreparationOpensTheEngineAtTheTarget() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let landed = Mutex<Bool?>(nil)
        controller.setVideos([Self.hls])
        controller.seek(to: .seconds(6)) { ok in landed.withLock { $0 = ok } }
        try await recorder.waitFor(.ready)
        await drain(controller)
        let player = await engine.player(number: 1)
        #expect(player.configuration.startPosition == .seconds(6))
        #expect(landed.withLock { $0 } == true)
    }

    @Test func aNewerSeekInterruptsTheOneInFlight() async throws {
        engine.behavior.completesSeeks = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let outcomes = Mutex<[Int: Bool]>([:])
        controller.seek(to: .seconds(3)) { ok in outcomes.withLock { $0[3] = ok } }
        controller.seek(to: .seconds(9)) { ok in outcomes.withLock { $0[9] = ok } }
        let player = await engine.player(number: 1)
        try await recorder.waitFor { _ in player.calls.filter { if case .seek = $0 { true } else { false } }.count == 2 }
        player.setPosition(.seconds(9))
        player.emit(.seekCompleted(id: 1, succeeded: true))  // stale: ignored
        player.emit(.seekCompleted(id: 2, succeeded: true))
        try await recorder.waitFor { if case .progress(_, .seconds(9)) = $0 { true } else { false } }
        await drain(controller)
        #expect(outcomes.withLock { $0 } == [3: false, 9: true])
    }

    @Test func rapidPlayPauseSeekKeepsEventsConsistent() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.ready)
        let completions = Mutex(0)
        for i in 0..<20 {
            controller.play()
            controller.seek(to: .seconds(Double(i % 7))) { _ in completions.withLock { $0 += 1 } }
            controller.pause()
        }
        controller.play()
        try await recorder.waitFor { event in
            guard case .lifecycle(_, .play) = event else { return false }
            return true
        }
        await drain(controller)
        // Play and Pause alternate, never two of the same in a row; every seek completed or was superseded.
        let states = recorder.lifecycleNames.filter { $0 == "Play" || $0 == "Pause" }
        #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 })
        #expect(completions.withLock { $0 } == 20)
        #expect(states.last == "Play")
        #expect(recorder.lifecycleNames.filter { $0 == "PlayRequest" }.count == 21)
        #expect(recorder.lifecycleNames.filter { $0 == "PauseRequest" }.count == 20)
        #expect(recorder.lifecycleNames.filter { $0 == "Ready" }.count == 1)
    }

    @Test func setVideosReplacesTheQueueAndTerminatesTheOldSession() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let first = try #require(controller.currentSession)
        controller.setVideos([Self.hls2])
        try await recorder.waitFor(.play, from: await recorder.cursor())
        let second = try #require(controller.currentSession)
        #expect(first.id != second.id)
        #expect(first.isTerminated)
        #expect(second.video.id == "b")
        #expect(await engine.player(number: 1).isClosed)
        let names = recorder.names
        let terminate = try #require(names.firstIndex(of: "Terminate"))
        #expect(names[terminate + 1] == "SessionAdvanced")
    }

    @Test func autoAdvanceWalksTheQueueAndCompletesThePlaylist() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos([Self.hls, Self.hls2])
        try await recorder.waitFor(.play)
        await engine.player(number: 1).emit(.endOfStream)
        try await recorder.waitFor(.play, from: await recorder.cursor())
        await engine.player(number: 2).emit(.endOfStream)
        try await recorder.waitFor { if case .playlistCompleted = $0 { true } else { false } }
        await drain(controller)
        #expect(delegate.completedPlaylists == 1)
        #expect(recorder.lifecycleNames.filter { $0 == "End" }.count == 2)
    }

    @Test func advanceToNextAndInsertVideoEditTheQueue() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.setVideos([Self.hls, Self.hls3])
        try await recorder.waitFor(.play)
        controller.insertVideo(Self.hls2, afterVideoAt: 0)
        controller.insertVideo(Self.hls2, afterVideoAt: 7)
        controller.insertVideo(Video(sources: []), afterVideoAt: 0)
        try await recorder.waitFor {
            if case .videoInsertionFailed = $0 {
                recorder.events.filter { if case .videoInsertionFailed = $0 { true } else { false } }.count == 2
            } else {
                false
            }
        }
        controller.advanceToNext()
        try await recorder.waitFor(.play, from: await recorder.cursor())
        #expect(controller.currentSession?.video.id == "b")
        controller.advanceToNext()
        try await recorder.waitFor(.play, from: await recorder.cursor())
        #expect(controller.currentSession?.video.id == "c")
        controller.advanceToNext()
        await drain(controller)
        #expect(controller.currentSession?.video.id == "c")
        #expect(delegate.inserted == [1])
        #expect(delegate.insertFailures.count == 2)
        #expect(delegate.insertFailures.allSatisfy { [.invalidArgument, .noPlayableSource].contains($0) })
        #expect(logs.text.contains("advanceToNext ignored"))
    }

    @Test func aVideoWithoutSourcesFailsAndNoPlayableVideosIsReported() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.setVideos([Video(sources: [], properties: ["id": "empty"])])
        try await recorder.waitFor(failOn: []) { if case .noPlayableVideosFound = $0 { true } else { false } }
        await drain(controller)
        #expect(recorder.names == ["SessionAdvanced", "Fail", "NoPlayableVideosFound"])
        let errors = recorder.events.compactMap { $0.lifecycleEvent?.error }
        let error = try #require(errors.first)
        #expect(error.code == .noPlayableSource)
        #expect(error.message.contains("'empty'"))
        #expect(delegate.noPlayable == 1)
        #expect(engine.players.isEmpty)
        #expect(controller.currentSession?.source == nil)
    }

    @Test func autoAdvanceSkipsUnplayableVideos() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos([Video(sources: []), Self.hls2])
        try await recorder.waitFor(.play, failOn: [])
        #expect(controller.currentSession?.video.id == "b")
        #expect(!recorder.names.contains("NoPlayableVideosFound"))
    }

    @Test func playWithAnEmptyQueueLogsAndDoesNothing() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.play()
        controller.pause()
        controller.seek(to: .seconds(3))
        controller.setVideos([])
        controller.advanceToNext()
        await drain(controller)
        #expect(recorder.events.isEmpty)
        #expect(logs.text.contains("play() ignored: the queue is empty; call setVideos(_:) first"))
        #expect(engine.players.isEmpty)
    }

    @Test func engineFailureBeforeReadyIsFailAndAfterIsFailedToPlayToEndOnce() async throws {
        engine.behavior.loadFailure = PlaybackError(.notFound, "No media at https://x/a.m3u8", url: "https://x/a.m3u8", httpStatus: 404)
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        let failed = try await recorder.waitFor(.fail)
        #expect(failed.lifecycleEvent?.error?.httpStatus == 404)
        await drain(controller)
        // The source was playable; the network failed. That is Fail, not "no playable videos".
        #expect(!recorder.names.contains("NoPlayableVideosFound"))

        engine.behavior.loadFailure = nil
        controller.setVideos([Self.hls2])
        try await recorder.waitFor(.play, from: await recorder.cursor())
        let player = await engine.player(number: 2)
        player.emit(.failed(PlaybackError(.corruptMedia, "decoder error")))
        player.emit(.failed(PlaybackError(.corruptMedia, "decoder error again")))
        try await recorder.waitFor(.failedToPlayToEndTime)
        await drain(controller)
        #expect(recorder.lifecycleNames.filter { $0 == "FailedToPlayToEndTime" }.count == 1)
        #expect(recorder.events.compactMap { $0.lifecycleEvent?.error }.last?.code == .failedToPlayToEnd)
    }

    @Test func stallsDuringPlaybackAreReportedAndRecovered() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        let mark = await recorder.cursor()
        player.emit(.buffering(percent: 0))
        try await recorder.waitFor(.stalled)
        await controller.settle()
        #expect(player.calls.last == .pause)
        player.emit(.buffering(percent: 50))
        player.emit(.buffering(percent: 100))
        try await recorder.waitFor(.recovered)
        await controller.settle()
        #expect(Array(recorder.lifecycleNames.suffix(4)) == ["PlaybackBufferEmpty", "PlaybackStalled", "PlaybackLikelyToKeepUp", "PlaybackRecovered"])
        #expect(player.calls.last == .play)
        #expect(!recorder.events[mark...].contains { $0.lifecycleEvent == .pause })
    }

    @Test func aBufferThatRanDryWhilePausedStallsOnPlay() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        controller.pause()
        try await recorder.waitFor(.pause)
        let player = await engine.player(number: 1)
        player.emit(.buffering(percent: 0))
        await controller.settle()
        #expect(!recorder.lifecycleNames.contains("PlaybackStalled"))
        controller.play()
        try await recorder.waitFor(.stalled)
        player.emit(.buffering(percent: 100))
        try await recorder.waitFor(.play, from: await recorder.cursor())
        #expect(
            Array(recorder.lifecycleNames.suffix(6)) == [
                "PlayRequest", "PlaybackBufferEmpty", "PlaybackStalled", "PlaybackLikelyToKeepUp", "PlaybackRecovered", "Play",
            ])
    }

    @Test func anEndOfStreamDuringASeekWaitsForTheSeekAndAStaleOneNeverArrives() async throws {
        engine.behavior.completesSeeks = false
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        let landed = Mutex<Bool?>(nil)
        controller.seek(to: .seconds(20)) { ok in landed.withLock { $0 = ok } }
        await controller.settle()
        player.emit(.endOfStream)
        await controller.settle()
        #expect(!recorder.lifecycleNames.contains("End"))
        player.setPosition(.seconds(20))
        player.emit(.seekCompleted(id: 1, succeeded: true))
        try await recorder.waitFor(.end)
        await controller.settle()
        #expect(landed.withLock { $0 } == true)
    }

    @Test func theLastVideoFailingCompletesAnAutoAdvancingPlaylist() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos([Self.hls, Video(sources: [])])
        try await recorder.waitFor(.play)
        await engine.player(number: 1).emit(.endOfStream)
        try await recorder.waitFor(failOn: []) { if case .playlistCompleted = $0 { true } else { false } }
        #expect(recorder.lifecycleNames.suffix(2) == ["Terminate", "Fail"])
        #expect(!recorder.names.contains("NoPlayableVideosFound"))
    }

    @Test func aLiveWindowThatSlidesIsReported() async throws {
        engine.behavior.isLive = true
        engine.behavior.seekableRanges = [TimeRange(start: .zero, end: .seconds(30))]
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        player.setSeekableRanges([TimeRange(start: .seconds(0.5), end: .seconds(30.5))])
        await clock.advance(by: .milliseconds(500))
        await controller.settle()
        #expect(recorder.events.filter { $0.name == "SeekableRanges" }.count == 1)
        player.setSeekableRanges([TimeRange(start: .seconds(2), end: .seconds(32))])
        await clock.advance(by: .milliseconds(500))
        let moved = try await recorder.waitFor { if case .seekableRangesChanged(_, let r) = $0 { r.first?.start == .seconds(2) } else { false } }
        #expect(moved.session != nil)
        #expect(recorder.videoTypeNames == ["Live"])
    }

    @Test func downloadFailureIsAnErrorUntilTheBufferRunsDry() async throws {
        // Without retries (the seed's behaviour); retries have their own tests.
        let controller = makeController(retry: .none)
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        player.emit(.downloadFailed(PlaybackError(.downloadFailed, "segments stopped")))
        try await recorder.waitFor(.error)
        #expect(!recorder.lifecycleNames.contains("FailedToPlayToEndTime"))
        player.emit(.buffering(percent: 0))
        try await recorder.waitFor(.failedToPlayToEndTime)
        await drain(controller)
        #expect(Array(recorder.lifecycleNames.suffix(3)) == ["PlaybackBufferEmpty", "PlaybackStalled", "FailedToPlayToEndTime"])
    }

    @Test func rateAndPeakBitrateReachTheEngineNowAndLater() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.playbackRate = -3
        #expect(controller.playbackRate == 1)
        controller.playbackRate = 2
        controller.setPreferredPeakBitRate(800_000)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let first = await engine.player(number: 1)
        #expect(first.configuration.rate == 2)
        #expect(first.configuration.maxBitrate == 800_000)
        controller.setPreferredPeakBitRate(0)
        controller.playbackRate = 0
        controller.setVideos([Self.hls2])
        try await recorder.waitFor(.play, from: await recorder.cursor())
        let second = await engine.player(number: 2)
        #expect(second.configuration.maxBitrate == nil)
        #expect(second.configuration.rate == 1)
        controller.setPreferredPeakBitRate(400_000)
        controller.playbackRate = 1.5
        await drain(controller)
        #expect(second.calls.suffix(2) == [.setMaxBitrate(400_000), .setRate(1.5)])
        #expect(!first.calls.contains(.setMaxBitrate(400_000)))
    }

    @Test func terminateEndsTheSessionAndClosesItsPlayer() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let session = try #require(controller.currentSession)
        session.terminate()
        try await recorder.waitFor(.terminate)
        #expect(session.isTerminated)
        #expect(controller.currentSession == nil)
        #expect(await engine.player(number: 1).isClosed)
    }

    @Test func audioTrackSelectionGoesThroughTheEngine() async throws {
        engine.behavior.tracks += [EngineTrack(id: "audio-fr", kind: .audio, language: "fr", title: "French")]
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let session = try #require(controller.currentSession)
        #expect(session.audioTrackGroup.tracks.map(\.id) == ["audio-0", "audio-fr"])
        #expect(session.selectedAudioTrack?.id == "audio-0")
        #expect(session.audioTrackGroup.track(preferring: ["fr-CA"])?.id == "audio-fr")
        session.selectAudioTrackAutomatically(preferredLanguages: ["fr"])
        let event = try await recorder.waitFor { if case .audioTrackSelected(_, let t) = $0 { t?.id == "audio-fr" } else { false } }
        #expect(event.session === session)
        #expect(session.selectedAudioTrack?.displayName == "French")
        #expect(!session.audioTrackGroup.allowsEmptySelection && session.textTrackGroup.allowsEmptySelection)
    }

    /// A caption choice made right after an audio choice re-sends the audio asked for, not the one the
    /// session still shows: the engine's confirmation of the first arrives after the second is sent.
    @Test func aCaptionChoiceRightAfterAnAudioChoiceKeepsTheAudioAskedFor() async throws {
        engine.behavior.tracks += [
            EngineTrack(id: "audio-fr", kind: .audio, language: "fr", title: "French"),
            EngineTrack(id: "text-fr", kind: .text, language: "fr", title: "French"),
        ]
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        let session = try #require(controller.currentSession)
        let french = try #require(session.audioTrackGroup.track(preferring: ["fr"]))
        let captions = try #require(session.textTrackGroup.tracks.first { $0.id == "text-fr" })
        session.selectAudioTrack(french)
        session.selectTextTrack(captions)
        await drain(controller)
        let selections = await engine.player(number: 1).calls.compactMap { if case .selectTracks(let audio, let text) = $0 { [audio, text] } else { nil } }
        #expect(selections.suffix(2) == [["audio-fr", nil], ["audio-fr", "text-fr"]], "\(selections)")
        try await recorder.waitFor { if case .textTrackSelected(_, let t) = $0 { t?.id == "text-fr" } else { false } }
        #expect(
            session.selectedAudioTrack?.id == "audio-fr" && session.selectedTextTrack?.id == "text-fr",
            "\(session.selectedAudioTrack?.id ?? "-") \(session.selectedTextTrack?.id ?? "-")")
    }

    /// Settings reach the loop in order with the commands: auto-play turned on right after `setVideos`
    /// still starts that video (it is delivered after), and a rate set after a seek reaches the engine
    /// after that seek.
    @Test func settingsAreOrderedWithTheCommandsAroundThem() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([Self.hls])
        controller.isAutoPlay = true
        try await recorder.waitFor(.play)
        let player = await engine.player(number: 1)
        controller.seek(to: .seconds(5))
        controller.playbackRate = 2
        await controller.settle()
        let order = player.calls.compactMap { call -> String? in
            switch call {
            case .seek(.seconds(5), _): "seek"
            case .setRate(2): "rate"
            default: nil
            }
        }
        #expect(order == ["seek", "rate"], "\(player.calls)")
        #expect(controller.playbackRate == 2 && controller.isAutoPlay, "the getters read back what the app set")
    }

    @Test func providerChainDecoratesSessions() async throws {
        let controller = makeController(provider: TaggingProvider(upstream: BasicSessionProvider()))
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.ready)
        let session = try #require(controller.currentSession)
        #expect((session.providerExtension as? TaggingProvider.Extension)?.tag == "wrapped a")
        #expect(await engine.player(number: 1).configuration.url.absoluteString == "https://media.example/a/master.m3u8?wrapped=1")
    }

    @Test func engineCreationFailureIsAFailEvent() async throws {
        engine.behavior.creationFailure = PlaybackError(.engineFailure, "missing plugin")
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.setVideos([Self.hls])
        let event = try await recorder.waitFor(.fail)
        #expect(event.lifecycleEvent?.error?.code == .engineFailure)
        #expect(controller.currentSession?.source == Self.hls.sources.first)
    }

    @Test func shutdownTerminatesTheSessionAndEndsEveryStream() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        let stream = controller.events
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        controller.shutdown()
        var names: [String] = []
        for await event in stream { names.append(event.name) }
        #expect(names.last == "Terminate")
        #expect(await engine.player(number: 1).isClosed)
        var late = 0
        for await _ in controller.events { late += 1 }
        #expect(late == 0)
    }

    @Test func callsRightAfterShutdownStillGetAnswers() async throws {
        let controller = makeController()
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Self.hls])
        try await recorder.waitFor(.play)
        controller.shutdown()
        // Queued behind the shutdown: answered, never left waiting.
        await controller.settle()
        #expect(await controller.seekAndWait(to: .seconds(3)) == false)
        await controller.settle()
    }

    @Test func sdkManagerIdentityIsStableAndComponentsRegister() {
        let manager = PlayerSDKManager.shared
        #expect(manager.sessionID == PlayerSDKManager.shared.sessionID)
        #expect(UUID(uuidString: manager.sessionID) != nil)
        #expect(manager.sdkVersion == PlayerSDKManager.version)
        manager.register(TestComponent(version: "1.0"))
        manager.register(TestComponent(version: "1.1"))
        #expect(manager.components.first?.name == "CoveCore")
        #expect(manager.components.filter { $0.name == "TestComponent" } == [ComponentIdentity(name: "TestComponent", version: "1.1")])
    }

    func drain(_ controller: PlaybackController) async {
        await controller.settle()
    }

    func cuePassage(_ event: PlaybackEvent) -> CuePointPassage? {
        if case .cuePointsPassed(_, let passage) = event { return passage }
        return nil
    }
}

extension EventRecorder {
    var videoTypeNames: [String] { events.compactMap { if case .videoTypeDetermined(_, let v) = $0 { v.rawValue } else { nil } } }
}

struct TestComponent: Component {
    let version: String
    var componentIdentity: ComponentIdentity { ComponentIdentity(name: "TestComponent", version: version) }
}

/// A plugin provider: wraps its upstream and decorates the plan.
struct TaggingProvider: PlaybackSessionProvider {
    struct Extension: SessionProviderExtension { let tag: String }
    let upstream: any PlaybackSessionProvider

    func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
        var plan = try await upstream.prepareSession(for: video, context: context)
        plan.providerExtension = Extension(tag: "wrapped \(video.id ?? "")")
        plan.playbackURL = URL(string: plan.playbackURL.absoluteString + "?wrapped=1")!
        return plan
    }
}

final class RecordingDelegate: PlaybackControllerDelegate {
    private let state = Mutex<
        (lifecycle: [String], advanced: [Int], durations: [Duration?], completed: Int, noPlayable: Int, inserted: [Int], insertFailures: [PlaybackError.Code])
    >(([], [], [], 0, 0, [], []))
    var lifecycle: [String] { state.withLock { $0.lifecycle } }
    var advancedTo: [Int] { state.withLock { $0.advanced } }
    var durations: [Duration?] { state.withLock { $0.durations } }
    var completedPlaylists: Int { state.withLock { $0.completed } }
    var noPlayable: Int { state.withLock { $0.noPlayable } }
    var inserted: [Int] { state.withLock { $0.inserted } }
    var insertFailures: [PlaybackError.Code] { state.withLock { $0.insertFailures } }

    func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession) { state.withLock { $0.advanced.append(session.id) } }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        state.withLock { $0.lifecycle.append(lifecycleEvent.name) }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeDuration duration: Duration?) {
        state.withLock { $0.durations.append(duration) }
    }
    func playbackController(_ controller: PlaybackController, didCompletePlaylist videos: [Video]) { state.withLock { $0.completed += 1 } }
    func playbackController(_ controller: PlaybackController, noPlayableVideosFound videos: [Video]) { state.withLock { $0.noPlayable += 1 } }
    func playbackController(_ controller: PlaybackController, didInsert video: Video, at index: Int) { state.withLock { $0.inserted.append(index) } }
    func playbackController(_ controller: PlaybackController, failedToInsert video: Video, error: PlaybackError) {
        state.withLock { $0.insertFailures.append(error.code) }
    }
}

final class RecordingConsumer: PlaybackSessionConsumer {
    private let state = Mutex<(lifecycle: [String], advanced: [Int])>(([], []))
    var lifecycle: [String] { state.withLock { $0.lifecycle } }
    var advancedTo: [Int] { state.withLock { $0.advanced } }
    func didAdvance(to session: PlaybackSession) { state.withLock { $0.advanced.append(session.id) } }
    func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) { state.withLock { $0.lifecycle.append(lifecycleEvent.name) } }
}
