import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Outages, resume and the buffer optimizer on DASH, proven as the resilience suite proves them on HLS:
    /// from the events and from the media server's request log. The fixture's `number` asset names its
    /// segments `chunk-stream<representation>-<number>.m4s`, numbered from 1 (segment n covers
    /// [2(n−1), 2n) s); representations 0 and 1 are video, 2 is audio.
    @Suite("DASH resilience and the buffer optimizer")
    struct DASHResilienceTests {
        typealias DASHHarness = DASHPlaybackTests.DASHHarness

        /// The segment number of a video segment request (`chunk-stream1-00007.m4s` → 7), nil otherwise.
        static func videoSegmentNumber(_ path: String) -> Int? {
            guard let name = path.split(separator: "/").last, name.hasPrefix("chunk-stream"), name.hasSuffix(".m4s"),
                !name.hasPrefix("chunk-stream2-")
            else { return nil }
            return Int(name.dropLast(4).split(separator: "-").last ?? "")
        }

        static func videoSegments(_ requests: [MediaRequest]) -> [Int] { requests.compactMap { videoSegmentNumber($0.path) } }

        @Test func aThreeSecondOutageGivesOneStallOneRecoveryAndNoFailure() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            // The server dies when segment 5 (8–10 s) is asked for and comes back 3 s later.
            d.server.scheduleOutage(whenPathContains: "-00005.m4s", lasting: .seconds(3))
            // In real time: the audio set, a separate source that runs ahead of the video, must not carry the playhead
            // past the video that never came (fast mode has no clock to hold the two together).
            let controller = d.h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([d.video(.number)])
            try await recorder.waitFor(.end, timeout: .seconds(40))
            await controller.settle()
            let names = recorder.lifecycleNames
            #expect(names.filter { $0 == "PlaybackStalled" }.count == 1, "\(names)")
            #expect(names.filter { $0 == "PlaybackRecovered" }.count == 1, "\(names)")
            #expect(!names.contains("FailedToPlayToEndTime") && !names.contains("Fail"), "\(names)")
            #expect(names.filter { $0 == "Ready" }.count == 1)
            let retries = recorder.events.compactMap { if case .retry(_, let r) = $0 { r } else { nil } }
            #expect(!retries.isEmpty && retries.allSatisfy { $0.kind == .playback }, "\(retries)")
            // It carried on from where it stopped, to the end, every segment fetched.
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
            let requests = d.mediaRequests()
            #expect(Set(Self.videoSegments(requests)).isSuperset(of: 1...10), "\(requests.map { "\($0.path) \($0.status)" })")
            // The failed download is reported as the seed reports one while media is still buffered: an error
            // event that stops nothing.
            #expect(recorder.errors.allSatisfy { $0.code == .downloadFailed }, "\(recorder.errors)")
            controller.shutdown()
        }

        @Test func aLongOutageFailsOnceThenResumeVideoCompletesWithoutRepeatingEvents() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let controller = d.h.controller(retry: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(200), jitter: 0))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            let video = d.video(.number).update {
                $0.cuePoints = CuePointCollection([CuePoint(type: "EARLY", position: .seconds(1)), CuePoint(type: "LATE", position: .seconds(15))])
            }
            d.server.scheduleOutage(whenPathContains: "-00004.m4s", lasting: .seconds(600))
            controller.setVideos([video])
            try await recorder.waitFor(.failedToPlayToEndTime, timeout: .seconds(30), failOn: [.fail])
            await controller.settle()
            #expect(recorder.lifecycleNames.filter { $0 == "FailedToPlayToEndTime" }.count == 1)
            #expect(recorder.events.filter { $0.name == "Retry" }.count == 2)
            let stoppedAt = recorder.progress.last ?? .seconds(6)
            try await d.server.endOutage()
            let requestMark = d.server.requests.count
            let mark = await recorder.cursor()
            controller.resumeVideo(at: stoppedAt, autoPlay: true)
            try await recorder.waitFor(.resumeComplete, from: mark, timeout: .seconds(5))
            try await recorder.waitFor(.end, from: mark, timeout: .seconds(30))
            await controller.settle()
            ResiliencePlaybackTests.expectResumedWithoutRepeatingEvents(recorder, from: mark)
            // The rebuilt pipeline started at the resume time (segment 4 or just before), not at the beginning.
            let resumed = Self.videoSegments(d.mediaRequests(from: requestMark))
            #expect(resumed.first.map { $0 >= 3 && $0 <= 4 } == true, "\(resumed)")
            #expect(Set(resumed).isSuperset(of: 4...10), "\(resumed)")
            controller.shutdown()
        }

        @Test func theBufferOptimizerGrowsTheForwardBufferAsTheViewerWatches() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let controller = d.h.controller(fast: false)
            controller.bufferOptimizer = BufferOptimizer(minimum: .seconds(2), maximum: .seconds(5))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([d.video(.number)])
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(1.5) } else { false } }
            let early = Self.videoSegments(d.mediaRequests()).max() ?? 0
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(11) } else { false } }
            let later = Self.videoSegments(d.mediaRequests()).max() ?? 0
            controller.shutdown()
            // 2 s target at the start: at most the segment playing, the one buffered and one in flight.
            #expect(early <= 3, "fetched up to segment \(early) after 1.5 s")
            // The 5 s cap after ~10 s watched: media up to 16 s fetched (segment 8); a fixed 2 s buffer stays
            // at ≤ 14 s (segment 7).
            #expect(later >= 8, "fetched up to segment \(later) after 11 s")
            let targets = recorder.events.compactMap { if case .forwardBufferChanged(_, let d) = $0 { d } else { nil } }
            #expect(targets.first == .seconds(2) && targets.last == .seconds(5), "\(targets)")
            #expect(targets == targets.sorted())
        }
    }
}
