import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Servers misbehaving mid-playback (issue 4's bad-input list): typed events, bounded retries,
    /// playback carrying on where it can — never a crash or a hang.
    @Suite("GStreamer server faults", .serialized)
    struct FaultTests {
        @Test func aStormOfServerErrorsIsRetriedAndPlaybackReachesTheEnd() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            // Every request for segment 4, at any variant, answers 503 four times over.
            h.server.forceStatus(503, forPathsContaining: "seg004", count: 4)
            let controller = h.controller(retry: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(200), jitter: 0))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor(.end, timeout: .seconds(40))
            controller.shutdown()
            let names = recorder.lifecycleNames
            #expect(!names.contains("Fail") && !names.contains("FailedToPlayToEndTime"), "\(names)")
            #expect(h.server.requests.filter { $0.path.contains("seg004") && $0.status == 503 }.count == 4)
            #expect(recorder.events.filter { $0.name == "Retry" }.count <= 4)
            #expect(try #require(recorder.progress.last) >= .seconds(19.9))
        }

        @Test func aTruncatedSegmentOnAResetConnectionIsRecoveredFrom() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            // Segment 3 stops after 20 kB, twice, with the whole length announced: the connection drops.
            h.server.cutResponses(forPathsContaining: "seg003", afterBytes: 20_000, count: 2)
            let controller = h.controller(retry: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(200), jitter: 0))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor(.end, timeout: .seconds(40))
            controller.shutdown()
            let names = recorder.lifecycleNames
            #expect(!names.contains("Fail") && !names.contains("FailedToPlayToEndTime"), "\(names)")
            #expect(h.server.requests.contains { $0.path.contains("seg003") && $0.aborted }, "the cut happened")
            #expect(try #require(recorder.progress.last) >= .seconds(19.9))
        }

        @Test func aLivePlaylistThatDisappearsIsATypedFailureNotAHang() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            try h.server.addLiveStream(path: "/live/gone.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 3)
            let controller = h.controller(fast: false, retry: RetryPolicy(maximumAttempts: 1))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("live/gone.m3u8"), deliveryMethod: .hls)])
            try await recorder.waitFor(.play)
            h.server.forceStatus(404, forPathsContaining: "live/gone.m3u8")
            let failure = try await recorder.waitFor(.failedToPlayToEndTime, timeout: .seconds(45))
            controller.shutdown()
            #expect(failure.lifecycleEvent?.error?.code == .failedToPlayToEnd)
            #expect(recorder.lifecycleNames.filter { $0 == "FailedToPlayToEndTime" }.count == 1)
            #expect(!recorder.lifecycleNames.contains("Fail"))
        }
    }
}
