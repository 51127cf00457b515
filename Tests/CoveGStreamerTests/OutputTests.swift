import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveTesting
import CoveText
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// The outputs an app embeds Cove with, on the real engine: frames handed to it (their times, their
    /// colours, a slow consumer), captions drawn on the picture, the volume heard through an audio tap,
    /// and the video drawn into a window the test created (under Xvfb).
    @Suite("GStreamer outputs", .serialized)
    struct OutputTests {
        struct Setup {
            let h: Harness
            let fixture: OutputFixture
            let server: MediaServer

            static func start() async throws -> Setup {
                let h = try await Harness.start()
                let fixture = try await OutputFixture.prepare()
                let server = try await MediaServer.start(root: fixture.root)
                return Setup(h: h, fixture: fixture, server: server)
            }

            var video: Video { fixture.video(on: server.baseURL) }

            func controller(video: VideoOutput, audio: AudioOutput = .discard, captionsOnPicture: Bool = false) -> PlaybackController {
                let configuration = PlaybackControllerConfiguration(
                    progressInterval: .milliseconds(100), videoOutput: video, audioOutput: audio, pacing: .realTime,
                    logger: h.logs.logger(level: .debug), captionsOnPicture: captionsOnPicture
                )
                let engine = GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug))
                return PlayerSDKManager.shared.makePlaybackController(
                    engine: engine, sessionProvider: SidecarSubtitlesProvider(transport: AsyncHTTPClientTransport.shared), configuration: configuration
                )
            }

            func stop() async {
                await server.stop()
                await h.stop()
            }
        }

        /// What a frame handler saw of one frame.
        struct SeenFrame: Sendable {
            let time: Double
            let wall: Double
            let width: Int
            let height: Int
            let centre: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)?
            /// Pixels in the lower third (or, for `upper`, the upper third) that are not the background colour.
            let lowerMarks: Int
            let upperMarks: Int
        }

        static func marks(in frame: VideoFrame, rows: Range<Int>) -> Int {
            var count = 0
            let c = OutputFixture.colour
            for y in rows where y < frame.height {
                for x in Swift.stride(from: 0, to: frame.width, by: 2) {
                    guard let p = frame.rgbaPixel(x: x, y: y) else { continue }
                    let distance = abs(Int(p.red) - Int(c.red)) + abs(Int(p.green) - Int(c.green)) + abs(Int(p.blue) - Int(c.blue))
                    if distance > 90 { count += 1 }
                }
            }
            return count
        }

        static func see(_ frame: VideoFrame) -> SeenFrame {
            let third = frame.height / 3
            return SeenFrame(
                time: frame.presentationTime.seconds, wall: Date().timeIntervalSince1970, width: frame.width, height: frame.height,
                centre: frame.rgbaPixel(x: frame.width / 2, y: frame.height / 2),
                lowerMarks: marks(in: frame, rows: (frame.height - third)..<frame.height), upperMarks: marks(in: frame, rows: 0..<third)
            )
        }

        /// Frames reach the app's handler at 1× (their presentation times advance with the wall clock),
        /// at the picture's size, in the test pattern's colour.
        @Test func aFrameCallbackReceivesFramesAtTheirTimesInThePatternsColour() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let seen = Recorded<SeenFrame>()
            let receiver = VideoFrameReceiver(format: .rgba) { seen.append(Self.see($0)) }
            let controller = s.controller(video: .frames(receiver))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            try await s.h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(3) } else { false } } }
            controller.shutdown()
            let frames = seen.all
            #expect(frames.count >= 50, "25 frames a second for 3 s: \(frames.count)")
            #expect(frames.allSatisfy { $0.width == OutputFixture.size.width && $0.height == OutputFixture.size.height })
            let c = OutputFixture.colour
            for frame in frames.prefix(5) + frames.suffix(5) {
                let centre = try #require(frame.centre)
                #expect(
                    abs(Int(centre.red) - Int(c.red)) <= 16 && abs(Int(centre.green) - Int(c.green)) <= 16 && abs(Int(centre.blue) - Int(c.blue)) <= 16,
                    "\(centre)")
                #expect(centre.alpha == 255)
            }
            // Presentation times advance at the wall clock's pace (after the start settles).
            let steady = frames.filter { $0.time >= 0.5 }
            let first = try #require(steady.first)
            let last = try #require(steady.last)
            let ratio = (last.time - first.time) / (last.wall - first.wall)
            #expect(ratio > 0.85 && ratio < 1.15, "media seconds per wall second: \(ratio)")
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time }, "times only advance")
            // (A frame may be in the handler while the count is read.)
            #expect(abs(receiver.delivered - frames.count) <= 1, "\(receiver.delivered) counted, \(frames.count) seen")
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// A seek while paused hands the frame at the target to the app (a scrubbing app shows it), once:
        /// playing on from there does not hand the same frame over again.
        @Test func aSeekWhilePausedHandsTheFrameAtTheTarget() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let (seen, arrivals, receiver) = Self.frameTap()
            let controller = s.controller(video: .frames(receiver))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            try await s.h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(1) } else { false } } }
            controller.pause()
            try await recorder.waitFor(.pause)
            #expect(await controller.seekAndWait(to: .seconds(5), tolerance: .zero))
            try await Self.firstFrame(of: arrivals, seen: seen) { abs($0.time - 5) < 0.05 }
            #expect(seen.all.last.map { abs($0.time - 5) < 0.05 } == true, "the last frame handed over is the target's")
            controller.play()
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(5.5) } else { false } }
            controller.shutdown()
            let atTarget = seen.all.filter { abs($0.time - 5) < 0.02 }
            #expect(atTarget.count == 1, "handed over once: \(atTarget.map(\.time))")
        }

        /// An RGBA frame receiver that records what it saw of each frame and also hands each one to a stream,
        /// for `firstFrame(of:seen:_:)`.
        static func frameTap() -> (seen: Recorded<SeenFrame>, arrivals: AsyncStream<SeenFrame>, receiver: VideoFrameReceiver) {
            let seen = Recorded<SeenFrame>()
            let (arrivals, arrival) = AsyncStream.makeStream(of: SeenFrame.self)
            let receiver = VideoFrameReceiver(format: .rgba) { frame in
                let seenFrame = see(frame)
                seen.append(seenFrame)
                arrival.yield(seenFrame)
            }
            return (seen, arrivals, receiver)
        }

        /// Waits for a frame matching `predicate` among those already seen or arriving, at most 5 s.
        static func firstFrame(
            of arrivals: AsyncStream<SeenFrame>, seen: Recorded<SeenFrame>, _ predicate: @escaping @Sendable (SeenFrame) -> Bool
        ) async throws {
            if seen.all.contains(where: predicate) { return }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in arrivals where predicate(frame) { return }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(5))
                    throw RecorderError(description: "no such frame within 5 s; last frames: \(seen.all.suffix(5).map(\.time))")
                }
                try await group.next()
                group.cancelAll()
            }
        }

        /// A handler that takes 200 ms per frame gets about five frames a second: the others are dropped
        /// (and counted), and the playhead — audio's clock — keeps real time.
        @Test func aSlowFrameConsumerDropsFramesWhileAudioKeepsItsClock() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let seen = Recorded<SeenFrame>()
            let receiver = VideoFrameReceiver(format: .i420) { frame in
                seen.append(
                    SeenFrame(
                        time: frame.presentationTime.seconds, wall: Date().timeIntervalSince1970, width: frame.width, height: frame.height, centre: nil,
                        lowerMarks: 0, upperMarks: 0))
                // The consumer's own slowness (what the test is about), not a wait for something.
                Thread.sleep(forTimeInterval: 0.2)
            }
            let audio = Recorded<AudioSamples>()
            let controller = s.controller(video: .frames(receiver), audio: .samples(AudioSampleReceiver { audio.append($0) }))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            let play = try await recorder.waitFor(.play)
            _ = play
            let started = Date().timeIntervalSince1970
            try await s.h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(4) } else { false } } }
            let elapsed = Date().timeIntervalSince1970 - started
            controller.shutdown()
            let frames = seen.all
            #expect(frames.count < 40, "a 200 ms consumer takes about 5 frames a second: \(frames.count) in \(elapsed) s")
            #expect(receiver.dropped > 40, "the frames it had no time for are counted as dropped: \(receiver.dropped)")
            #expect(elapsed < 5.5, "4 s of media played in \(elapsed) s: the slow consumer did not hold playback back")
            // The audio kept coming, continuous, while frames were dropped.
            let blocks = audio.all
            let span = (blocks.last?.presentationTime.seconds ?? 0) - (blocks.first?.presentationTime.seconds ?? 0)
            #expect(span > 3.5, "audio samples span \(span) s")
            #expect(blocks.contains { $0.peak > 0.05 })
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// The selected captions are drawn onto the picture: the bottom cue's marks appear in the lower
        /// third while it is active and are gone after; the `line:10%` cue is drawn near the top.
        @Test func captionsAreDrawnOnThePictureAtTheirTimesAndPlaces() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let seen = Recorded<SeenFrame>()
            let receiver = VideoFrameReceiver(format: .rgba) { seen.append(Self.see($0)) }
            let controller = s.controller(video: .frames(receiver), captionsOnPicture: true)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            let advanced = try await recorder.waitFor { $0.name == "SessionAdvanced" }
            let session = try #require(advanced.session)
            session.selectTextTrack(try #require(session.sidecarTextTracks.first).mediaTrack)
            try await s.h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(5.6) } else { false } } }
            controller.shutdown()
            let frames = seen.all
            let during = frames.filter { $0.time > 1.3 && $0.time < 2.3 }
            let before = frames.filter { $0.time < 0.8 }
            let after = frames.filter { $0.time > 2.8 && $0.time < 3.8 }
            let top = frames.filter { $0.time > 4.3 && $0.time < 4.8 }
            #expect(!during.isEmpty && !before.isEmpty && !after.isEmpty && !top.isEmpty)
            #expect(during.allSatisfy { $0.lowerMarks > 50 }, "the cue shows in the lower third: \(during.map(\.lowerMarks))")
            #expect(during.allSatisfy { $0.upperMarks < 10 })
            #expect(
                (before + after).allSatisfy { $0.lowerMarks < 10 && $0.upperMarks < 10 },
                "nothing drawn outside the cue's time: \((before + after).map { ($0.lowerMarks, $0.upperMarks) })")
            #expect(top.allSatisfy { $0.upperMarks > 50 && $0.lowerMarks < 10 }, "line:10% draws near the top: \(top.map { ($0.lowerMarks, $0.upperMarks) })")
            // The cue events are still reported.
            #expect(recorder.events.contains { if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text == "Cove caption" } } else { false } })
        }

        /// Volume 0 and mute silence the samples the audio output receives; unmuting brings the tone back.
        /// Each change is reported as `.volumeChanged`.
        @Test func volumeAndMuteReachTheAudioOutput() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let audio = Recorded<AudioSamples>()
            let controller = s.controller(video: .headless, audio: .samples(AudioSampleReceiver { audio.append($0) }))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            try await recorder.waitFor(.play)
            func peak(after mark: Double) async throws -> Float {
                // The samples of the next half second of media after `mark` seconds of samples received.
                let from = audio.all.last?.presentationTime.seconds ?? 0
                let begin = max(mark, from) + 0.3
                try await recorder.waitFor { if case .progress(_, let t) = $0 { t.seconds >= begin + 0.5 } else { false } }
                return audio.all.filter { $0.presentationTime.seconds >= begin && $0.presentationTime.seconds < begin + 0.4 }.map(\.peak).max() ?? -1
            }
            let loud = try await peak(after: 0)
            #expect(loud > 0.05, "the tone at full volume: \(loud)")
            controller.volume = 0
            try await recorder.waitFor { if case .volumeChanged(_, let v) = $0 { v.level == 0 } else { false } }
            #expect(try await peak(after: 0) == 0, "volume 0 is silence")
            controller.volume = 0.5
            controller.isMuted = true
            try await recorder.waitFor { if case .volumeChanged(_, let v) = $0 { v.isMuted && v.level == 0.5 } else { false } }
            #expect(try await peak(after: 0) == 0, "muted is silence")
            controller.isMuted = false
            try await recorder.waitFor { if case .volumeChanged(_, let v) = $0 { !v.isMuted && v.level == 0.5 } else { false } }
            let half = try await peak(after: 0)
            #expect(half > loud * 0.35 && half < loud * 0.65, "half volume halves the samples: \(half) against \(loud)")
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// An audio device the sound server does not have is a typed error that names the output.
        @Test func anUnknownAudioDeviceIsATypedOutputError() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let controller = s.controller(video: .headless, audio: .device(name: "cove-no-such-device"))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            try await recorder.waitFor(.fail, failOn: [])
            controller.shutdown()
            let error = try #require(recorder.errors.first)
            #expect(error.code == .outputUnavailable, "\(error)")
            #expect(error.message.contains("audio output"), "\(error.message)")
        }

        /// The video is drawn into a window the test created: a grab of that window is not black, changes
        /// as the video plays, and when the window is resized the picture is scaled to fill it.
        @Test(.enabled(if: XServer.isAvailable, "Xvfb is not installed"))
        func theVideoIsDrawnIntoTheAppsWindowAndFollowsItsSize() async throws {
            let x = try await XServer.start()
            defer { x.stop() }
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let window = try XTestWindow(display: x.display, width: 320, height: 180)
            defer { window.close() }
            let controller = h.controller(fast: false, output: .x11Window(id: window.id, display: x.display))
            let recorder = EventRecorder(controller)
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(1) } else { false } } }
            let shot = { (name: String) in FileManager.default.temporaryDirectory.appendingPathComponent("cove-embed-\(name)-\(UUID().uuidString).png") }
            let first = shot("a")
            let second = shot("b")
            let resized = shot("c")
            defer { for file in [first, second, resized] { try? FileManager.default.removeItem(at: file) } }
            try await x.run("timeout", "20", "import", "-window", String(window.id), first.path)
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(2) } else { false } }
            try await x.run("timeout", "20", "import", "-window", String(window.id), second.path)
            #expect(try await ImageProbe.meanBrightness(ofFile: first.path) > 0.05, "the window shows the picture")
            #expect(try await ImageProbe.signature(ofFile: first.path) != ImageProbe.signature(ofFile: second.path), "the picture moves")
            // No windows of Cove's own: the only GStreamer drawing is in the test's window.
            let windows = try await x.run("xwininfo", "-root", "-tree")
            #expect(!windows.contains("\"GStreamer\""), "\(windows)")

            window.resize(width: 640, height: 360)
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(3) } else { false } }
            try await x.run("timeout", "20", "import", "-window", String(window.id), resized.path)
            let size = try await ImageProbe.size(ofFile: resized.path)
            #expect(size.width == 640 && size.height == 360)
            // The picture fills the larger window: its right and bottom parts are drawn too (16:9 in 16:9).
            #expect(
                try await ImageProbe.meanBrightness(ofFile: resized.path, x: 480, y: 200, width: 150, height: 150) > 0.05,
                "the picture was scaled to the window")

            // The app destroys its window while the video still plays (closing a view before stopping the
            // player): the drawing errors do not end the process, and playback carries on.
            window.close()
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(4) } else { false } }
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// A window ID that does not exist is a typed error before anything plays.
        @Test(.enabled(if: XServer.isAvailable, "Xvfb is not installed"))
        func aWindowThatDoesNotExistIsATypedOutputError() async throws {
            let x = try await XServer.start()
            defer { x.stop() }
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false, output: .x11Window(id: 0x3FF_FFFF, display: x.display))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor(.fail, failOn: [])
            controller.shutdown()
            let error = try #require(recorder.errors.first)
            #expect(error.code == .outputUnavailable, "\(error)")
            #expect(error.message.contains("0x3ffffff"), "\(error.message)")
        }
    }
}
