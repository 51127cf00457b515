import CoveCore
import CoveGStreamer
import CoveStreaming
import CoveTesting
import Foundation
import Testing

/// The engine under Cove's streaming: the same behaviour suite runs on both.
enum EngineUnderTest: String, CaseIterable, CustomTestStringConvertible {
    /// The scripted engine fed through `StreamingEngine`: no GStreamer, nothing decoded; its playhead runs
    /// in real time over what was pushed.
    case scripted
    /// GStreamer (`GStreamerEngine`): the whole path, decoded in real time.
    case gstreamer

    var testDescription: String { rawValue }
}

/// A controller over one of the engines, and the means to move its playback along.
struct BehaviourRig {
    let h: Harness
    let engine: EngineUnderTest
    let controller: PlaybackController
    let recorder: EventRecorder
    let scripted: ScriptedEngine?

    init(_ h: Harness, on engine: EngineUnderTest, bufferOptimizer: BufferOptimizer? = nil, retry: RetryPolicy = .default) {
        self.h = h
        self.engine = engine
        let configuration = PlaybackControllerConfiguration(
            progressInterval: .milliseconds(100), pacing: .realTime, retryPolicy: retry, logger: h.logs.logger(level: .debug))
        let media: any MediaEngine
        switch engine {
        case .scripted:
            let scripted = ScriptedEngine()
            self.scripted = scripted
            media = StreamingEngine(feeding: scripted, logger: h.logs.logger(label: "cove.streaming", level: .debug))
        case .gstreamer:
            scripted = nil
            media = GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug))
        }
        controller = PlayerSDKManager.shared.makePlaybackController(engine: media, configuration: configuration)
        if let bufferOptimizer { controller.bufferOptimizer = bufferOptimizer }
        recorder = EventRecorder(controller)
    }

    /// Plays on (in real time, on both engines) until the position reaches `position`.
    func play(until position: Duration, timeout: Duration = .seconds(30)) async throws {
        let target = MediaTime(position)
        do {
            try await recorder.waitFor(timeout: timeout) { if case .progress(_, let t) = $0 { t >= target } else { false } }
        } catch {
            if let scripted, let player = scripted.players.last {
                let chunks = player.chunks(of: .main).map(\.start)
                Issue.record("scripted playhead \(player.position ?? .zero), calls \(player.calls), progress \(recorder.progress.suffix(3)), chunks \(chunks)")
            }
            throw error
        }
    }

    /// The segment requests the server saw (variant index, segment index), in order.
    func segments(after mark: Int = 0) -> [(variant: Int, index: Int, aborted: Bool)] {
        h.server.requests.dropFirst(mark).compactMap { request in
            let parts = request.path.split(separator: "/")
            guard parts.count >= 2, let last = parts.last, last.hasPrefix("seg"), last.hasSuffix(".ts"),
                let index = Int(last.dropFirst(3).dropLast(3)), let variant = parts.dropLast().last.flatMap({ Int($0.dropFirst()) })
            else { return nil }
            return (variant, index, request.aborted)
        }
    }
}

/// Cove's streaming behaviours, proven on the scripted engine through the feed and on GStreamer with the
/// same suite: ABR up and down, a seek at the variant the estimate affords, a 404 segment's failover,
/// per-request accounting and a live playlist's refresh. What differs is only how playback moves on.
extension RealEngineTests {
    @Suite("Streaming behaviours on both engines", .serialized)
    struct StreamingBehaviourTests {
        /// ABR up: the first segment comes from the lowest variant (the quickest first frame), the second
        /// from the top one — the first download measured an unconstrained link.
        @Test(arguments: EngineUnderTest.allCases)
        func abrClimbsToTheTopVariantOnAFastLink(_ engine: EngineUnderTest) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let rig = BehaviourRig(h, on: engine)
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([h.video(.ladder)])
            try await rig.recorder.waitFor(.ready)
            try await rig.play(until: .seconds(1))
            try await rig.recorder.waitFor(timeout: .seconds(15)) { _ in rig.segments().contains { $0.index == 1 } }
            rig.controller.shutdown()
            let segments = rig.segments()
            #expect(segments.first.map { $0.variant == 0 && $0.index == 0 } == true, "\(segments)")
            #expect(segments.first { $0.index == 1 }?.variant == 2, "\(segments)")
            let switches = rig.recorder.events.compactMap { if case .variantChanged(_, let v) = $0 { v.to.height } else { nil } }
            #expect(switches.prefix(2) == [240, 720], "\(switches)")
        }

        /// ABR down: the link drops to 700 kbit/s while the top variant (2.7 Mbit/s) plays; the segments
        /// fetched after the drop come from a lower variant (the top one's download is abandoned or never
        /// begun), and playback goes on.
        @Test(arguments: EngineUnderTest.allCases)
        func abrStepsDownWhenTheLinkDrops(_ engine: EngineUnderTest) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let rig = BehaviourRig(h, on: engine, bufferOptimizer: BufferOptimizer(minimum: .seconds(4), maximum: .seconds(4)))
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([h.video(.ladder)])
            try await rig.recorder.waitFor(.ready)
            try await rig.play(until: .seconds(2))
            try await rig.recorder.waitFor(timeout: .seconds(15)) { _ in rig.segments().contains { $0.variant == 2 } }
            let mark = h.server.requests.count
            h.server.setBandwidth(bitsPerSecond: 700_000)
            try await rig.play(until: .seconds(12), timeout: .seconds(40))
            rig.controller.shutdown()
            let after = rig.segments(after: mark).filter { !$0.aborted }
            #expect(after.contains { $0.variant < 2 }, "no lower variant after the drop: \(rig.segments(after: mark))")
            let changes = rig.recorder.events.compactMap { if case .variantChanged(_, let v) = $0 { v } else { nil } }
            let downs = changes.filter { ($0.to.height ?? 0) < ($0.from?.height ?? 0) }
            #expect(!downs.isEmpty, "no step down reported: \(changes.map { "\($0.from?.height ?? 0)→\($0.to.height ?? 0)" }); \(rig.segments())")
        }

        /// A seek outside the buffer fetches its first segment at the variant the estimate affords (720p on
        /// a 12 Mbit/s link), in the same player: no detour through a low variant, no master reload.
        @Test(arguments: EngineUnderTest.allCases)
        func aSeekFetchesItsSegmentAtTheVariantTheEstimateAffords(_ engine: EngineUnderTest) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            h.server.setBandwidth(bitsPerSecond: 12_000_000)
            let rig = BehaviourRig(h, on: engine, bufferOptimizer: BufferOptimizer(minimum: .seconds(2), maximum: .seconds(2)))
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([h.video(.ladder)])
            try await rig.recorder.waitFor(.ready)
            try await rig.play(until: .seconds(1))
            try await rig.recorder.waitFor(timeout: .seconds(15)) { _ in rig.segments().contains { $0.variant == 2 } }
            let mark = h.server.requests.count
            #expect(await rig.controller.seekAndWait(to: .seconds(12), tolerance: .zero))
            try await rig.recorder.waitFor(timeout: .seconds(15)) { _ in !rig.segments(after: mark).isEmpty }
            rig.controller.shutdown()
            let after = rig.segments(after: mark)
            #expect(after.first.map { $0.index == 6 && $0.variant == 2 } == true, "the seek's segment: \(after)")
            #expect(!after.contains { $0.variant < 2 }, "no detour through a low variant: \(after)")
            #expect(h.server.requests.dropFirst(mark).filter { $0.path.hasSuffix("master.m3u8") }.isEmpty, "no master reload")
            #expect(rig.recorder.lifecycleNames.filter { $0 == "Ready" }.count == 1, "no rebuild")
        }

        /// A segment of the top variant answers 404: that segment comes from another variant, playback
        /// goes on past it, and no error reaches the app.
        @Test(arguments: EngineUnderTest.allCases)
        func a404SegmentFailsOverToAnotherVariant(_ engine: EngineUnderTest) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            h.server.forceStatus(404, forPathsContaining: "/ladder/v2/seg003")
            let rig = BehaviourRig(h, on: engine, retry: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(100), jitter: 0))
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([h.video(.ladder)])
            try await rig.recorder.waitFor(.ready)
            try await rig.play(until: .seconds(9), timeout: .seconds(30))
            rig.controller.shutdown()
            let segments = rig.segments()
            #expect(segments.contains { $0.variant == 2 && $0.index == 3 }, "the top variant's seg003 was asked for: \(segments)")
            #expect(segments.contains { $0.variant < 2 && $0.index == 3 }, "seg003 came from another variant: \(segments)")
            #expect(segments.contains { $0.index == 4 }, "playback went on past it: \(segments)")
            #expect(!rig.recorder.lifecycleNames.contains("Error") && !rig.recorder.lifecycleNames.contains("FailedToPlayToEndTime"))
        }

        /// Every request the streaming makes is accounted once, with the bytes the server sent: the
        /// transfers the app sees match the server's log one for one.
        @Test(arguments: EngineUnderTest.allCases)
        func everyRequestIsAccountedWithItsBytes(_ engine: EngineUnderTest) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let rig = BehaviourRig(h, on: engine)
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([h.video(.ladder)])
            try await rig.recorder.waitFor(.ready)
            try await rig.play(until: .seconds(4))
            rig.controller.shutdown()
            await rig.controller.settle()
            let served = h.server.requests.filter { $0.finishedAt != nil && !$0.aborted }
            let transfers = rig.recorder.events.compactMap { if case .mediaTransferred(_, let t) = $0, t.status == 200 { t } else { nil } }
            for request in served {
                let matching = transfers.filter { $0.url.hasSuffix(request.path) }
                #expect(matching.count == 1, "\(request.path): \(matching.count) transfers")
                #expect(matching.first?.bytes == request.bytesSent, "\(request.path): \(matching.first?.bytes ?? -1) ≠ \(request.bytesSent)")
            }
            #expect(transfers.count == served.count, "\(transfers.count) transfers for \(served.count) requests")
            let segmentBytes = transfers.filter { $0.kind == .segment }.map(\.bytes).reduce(0, +)
            #expect(segmentBytes > 0 && segmentBytes == served.filter { $0.path.hasSuffix(".ts") }.map(\.bytesSent).reduce(0, +))
        }

        /// A live playlist is refreshed as the server's window advances: new segments are fetched and the
        /// seekable window the app sees slides with it.
        @Test(arguments: EngineUnderTest.allCases)
        func aLivePlaylistIsRefreshedAndItsWindowSlides(_ engine: EngineUnderTest) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            try h.server.addLiveStream(path: "/live/short.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 3)
            let rig = BehaviourRig(h, on: engine)
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([Video(url: h.server.url("live/short.m3u8"), deliveryMethod: .hls)])
            try await rig.recorder.waitFor(.ready)
            #expect(rig.recorder.videoType == .live)
            let first = try #require(rig.recorder.events.lazy.compactMap { if case .seekableRangesChanged(_, let r) = $0 { r.first } else { nil } }.first)
            let playlistsBefore = h.server.requests.filter { $0.path == "/live/short.m3u8" }.count
            // The window moves one segment every 2 s: a later playlist and a slid window follow.
            try await rig.recorder.waitFor(timeout: .seconds(10)) {
                if case .seekableRangesChanged(_, let r) = $0 { (r.first?.end ?? .zero) > first.end } else { false }
            }
            rig.controller.shutdown()
            #expect(h.server.requests.filter { $0.path == "/live/short.m3u8" }.count > playlistsBefore, "the playlist was refreshed")
        }
    }
}
