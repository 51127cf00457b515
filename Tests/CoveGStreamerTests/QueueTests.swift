import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Queue behaviour, consumers and outputs on the real engine.
extension RealEngineTests {
    @Suite("GStreamer queue and outputs")
    struct QueueTests {
        @Test func autoAdvancePlaysThePlaylistAndConsumersFollow() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let consumer = SessionLog()
            controller.addSessionConsumer(consumer)
            controller.isAutoPlay = true
            controller.isAutoAdvance = true
            controller.setVideos([h.video(.audioOnly, ["id": "one"]), h.video(.mp4, ["id": "two"])])
            try await recorder.waitFor { if case .playlistCompleted = $0 { true } else { false } }
            await controller.settle()
            let advanced = recorder.events.compactMap { if case .sessionAdvanced(let s) = $0 { s } else { nil } }
            #expect(advanced.map(\.video.id) == ["one", "two"])
            #expect(advanced[0].isTerminated)
            #expect(consumer.advancedTo == advanced.map(\.id))
            #expect(recorder.lifecycleNames.filter { $0 == "End" }.count == 2)
            let firstTerminate = recorder.names.firstIndex(of: "Terminate")!
            #expect(recorder.names[firstTerminate + 1] == "SessionAdvanced")
        }

        @Test func setVideosMidPlaybackReplacesTheSessionAndInsertionsQueueUp() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder, ["id": "first"])])
            try await recorder.waitFor(.play)
            let first = try #require(controller.currentSession)
            controller.insertVideo(h.video(.audioOnly, ["id": "inserted"]), afterVideoAt: 0)
            try await recorder.waitFor { if case .videoInserted(_, 1) = $0 { true } else { false } }
            controller.advanceToNext()
            try await recorder.waitFor(.play, from: await recorder.cursor())
            #expect(controller.currentSession?.video.id == "inserted")
            #expect(first.isTerminated)
            controller.setVideos([h.video(.mp4, ["id": "replacement"])])
            try await recorder.waitFor(.play, from: await recorder.cursor())
            #expect(controller.currentSession?.video.id == "replacement")
            #expect(recorder.lifecycleNames.filter { $0 == "Terminate" }.count == 2)
            controller.shutdown()
        }

        @Test(.enabled(if: XServer.isAvailable, "Xvfb is not installed"))
        func windowOutputRendersIntoAnXWindow() async throws {
            let x = try await XServer.start()
            defer { x.stop() }
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false, output: .x11(display: x.display))
            let recorder = EventRecorder(controller)
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor { $0.name == "FirstFrame" }
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(1) } else { false } }
            let windows = try await x.run("xwininfo", "-root", "-tree")
            #expect(windows.contains("\"GStreamer\")") && windows.contains("x240+"), "\(windows)")
            let shot = FileManager.default.temporaryDirectory.appendingPathComponent("cove-x-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: shot) }
            try await x.run("import", "-window", "root", shot.path)
            #expect(try await ImageProbe.meanBrightness(ofFile: shot.path) > 0.02)
            controller.shutdown()
        }
    }
}

final class SessionLog: PlaybackSessionConsumer {
    private let ids = Mutex<[Int]>([])
    var advancedTo: [Int] { ids.withLock { $0 } }
    func didAdvance(to session: PlaybackSession) { ids.withLock { $0.append(session.id) } }
}

extension RealEngineTests {
    @Suite("GStreamer transport and tracks")
    struct TransportTests {
        @Test func pauseFreezesThePlayheadAndPlayResumesIt() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.3) } else { false } }
            controller.pause()
            try await recorder.waitFor(.pause)
            let frozen = try #require(controller.currentSession?.player?.position)
            let mark = await recorder.cursor()
            // A late consumer gets the current session at once.
            let late = SessionLog()
            controller.addSessionConsumer(late)
            await controller.settle()
            #expect(late.advancedTo == [controller.currentSession!.id])
            // Paused means paused over time: a wall-clock wait is the point here.
            try await Task.sleep(for: .milliseconds(500))
            #expect(controller.currentSession?.player?.position == frozen)
            controller.play()
            try await recorder.waitFor(.play, from: mark)
            let paused = recorder.events[mark...].prefix { $0.lifecycleEvent?.kind != .play }
            #expect(!paused.contains { if case .progress = $0 { true } else { false } })
            try await recorder.waitFor(from: mark) { if case .progress(_, let t) = $0 { t > frozen.advanced(by: .milliseconds(300)) } else { false } }
            #expect(recorder.lifecycleNames.suffix(2) == ["PlayRequest", "Play"])
            controller.shutdown()
        }

        @Test func inManifestSubtitlesAreATextTrackThatCanBeTurnedOffAndOn() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.subtitles)])
            try await recorder.waitFor(.play)
            let session = try #require(controller.currentSession)
            let english = try #require(session.textTrackGroup.track(preferring: ["en-GB"]))
            #expect(session.textTrackGroup.tracks.count == 1)
            #expect(english.displayName == "English")
            #expect(session.selectedTextTrack?.id == english.id)  // DEFAULT=YES in the manifest
            session.selectTextTrack(nil)
            try await recorder.waitFor { if case .textTrackSelected(_, nil) = $0 { true } else { false } }
            #expect(session.selectedTextTrack == nil)
            // Automatic selection brings back the stream's default rendition.
            #expect(english.isDefault)
            // The mark comes first: Cove's own subtitles answer a selection at once, so a cursor taken after
            // the call (it settles the controller) could already be past the answer.
            let mark = await recorder.cursor()
            session.selectTextTrackAutomatically(preferredLanguages: ["en"])
            try await recorder.waitFor(from: mark) { if case .textTrackSelected(_, let t) = $0 { t?.id == english.id } else { false } }
            #expect(session.selectedAudioTrack != nil)
            controller.shutdown()
        }

        @Test func terminatingASessionStopsItsPipeline() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            // A slow link keeps segment downloads going for the whole clip.
            h.server.setBandwidth(bitsPerSecond: 1_200_000)
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            let delegate = InsertLog()
            controller.delegate = delegate
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor(.play)
            controller.insertVideo(h.video(.mp4), afterVideoAt: 3)
            let session = try #require(controller.currentSession)
            session.terminate()
            try await recorder.waitFor(.terminate)
            await controller.settle()
            #expect(delegate.failures == [.invalidArgument])
            #expect(session.isTerminated && controller.currentSession == nil)
            #expect(session.player?.position == nil)
            // Downloads stop with the pipeline: nothing new is requested afterwards (a wall-clock window
            // is the point: the absence of requests over time).
            try await Task.sleep(for: .milliseconds(300))
            let settled = h.server.segmentRequests.count
            try await Task.sleep(for: .seconds(1.5))
            #expect(h.server.segmentRequests.count == settled)
            #expect(settled < 10)
            controller.play()
            await controller.settle()
            #expect(h.logs.text.contains("play() ignored: there is no active session"))
        }

        /// The first frame of a play counts from when it is shown — at preroll, as a display sink shows it —
        /// not from its clock time, which on these fixtures is a frame or more later (the audio starts first).
        /// A paused load shows its frame too, but its first frame counts only once play() is called.
        @Test func theStartFrameCountsFromPrerollAndAPausedLoadWaitsForPlay() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let engine = GStreamerEngine()
            for playWhenReady in [true, false] {
                let player = try engine.makePlayer(configuration: EnginePlayerConfiguration(url: h.server.url(.ladder)))
                defer { player.close() }
                // A watchdog, not a synchronisation: a regression ends the event stream instead of hanging.
                let watchdog = Task {
                    try await Task.sleep(for: .seconds(20))
                    player.close()
                }
                defer { watchdog.cancel() }
                var events = player.events.makeAsyncIterator()
                player.load(playWhenReady: playWhenReady)
                var order: [String] = []
                var frameTime: Double?
                var playCalledAt: Double?
                while let event = await events.next() {
                    switch event {
                    case .prerolled:
                        order.append("prerolled")
                        if !playWhenReady {
                            playCalledAt = Date().timeIntervalSince1970
                            player.play()
                        }
                    case .playing: order.append("playing")
                    case .firstFrame(let wallTime):
                        order.append("firstFrame")
                        frameTime = wallTime
                    case .failed(let error):
                        Issue.record("\(error)")
                        return
                    default: break
                    }
                    if order.contains("playing") && frameTime != nil { break }
                }
                if playWhenReady {
                    #expect(order == ["prerolled", "firstFrame", "playing"])
                } else {
                    #expect(order == ["prerolled", "playing", "firstFrame"])
                    #expect(try #require(frameTime) >= #require(playCalledAt))
                }
            }
        }

        @Test func theEngineHonoursAForwardBufferLimit() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let engine = GStreamerEngine()
            let player = try engine.makePlayer(
                configuration: EnginePlayerConfiguration(url: h.server.url(.ladder), maxBitrate: 600_000, forwardBufferDuration: .seconds(4)))
            defer { player.close() }
            var events = player.events.makeAsyncIterator()
            player.load(playWhenReady: true)
            while let event = await events.next() {
                if case .firstFrame = event { break }
                if case .failed(let error) = event { Issue.record("\(error)"); return }
            }
            // Let the demuxer run ahead as far as it is allowed: a wall-clock wait is the point here.
            try await Task.sleep(for: .seconds(1.5))
            let fetched = h.server.segmentRequests.count
            // 4 s of buffer over 2 s segments, plus the one playing and one in flight: far from all 10.
            #expect(fetched <= 5, "\(h.server.segmentRequests.map(\.path))")
            #expect(fetched >= 2)
        }
    }
}

final class InsertLog: PlaybackControllerDelegate {
    private let codes = Mutex<[PlaybackError.Code]>([])
    var failures: [PlaybackError.Code] { codes.withLock { $0 } }
    func playbackController(_ controller: PlaybackController, failedToInsert video: Video, error: PlaybackError) {
        codes.withLock { $0.append(error.code) }
    }
}
