import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// The QoE figures of a real play, checked against what the server logged and when the events came.
    @Suite("QoE on the real engine")
    struct QoEPlaybackTests {
        /// One segment answers late (a stall); then, paused at 10 s once 12–14 s is fetched, a seek to 17 s
        /// skips it: startup, the stall, the seek, the bytes fetched and the bytes wasted all match the
        /// server's request log and the events' times.
        @Test func aPlayWithAStallAndASeekIsMeasuredAgainstTheServersLog() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            controller.bufferOptimizer = BufferOptimizer(minimum: .seconds(2), maximum: .seconds(2))
            let timed = Mutex<[(at: Date, event: PlaybackEvent)]>([])
            let stream = controller.events
            let consumer = Task { for await event in stream { timed.withLock { $0.append((Date(), event)) } } }
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            // Segment 3 of every variant answers 4 s late: the 2 s buffer runs dry once.
            h.server.delayResponses(forPathsContaining: "seg003", by: .seconds(4), count: nil)
            let requested = Date()
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor(lifecycle: "PlaybackRecovered", timeout: .seconds(20))
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(10) } else { false } }
            controller.pause()
            try await recorder.waitFor(lifecycle: "Pause", from: recorder.count)
            // Paused, the 2 s forward buffer still fills: the segment for 12–14 s arrives, never to be played.
            try await recorder.waitFor(timeout: .seconds(10)) { if case .mediaTransferred(_, let t) = $0 { t.url.contains("seg006") && t.status == 200 } else { false } }
            let seekFrom = try #require(recorder.progress.last).seconds
            #expect(seekFrom < 12, "\(seekFrom)")
            controller.seek(to: .seconds(17), tolerance: .zero)
            controller.play()
            try await recorder.waitFor(lifecycle: "End", timeout: .seconds(20))
            controller.shutdown()
            await consumer.value

            let events = timed.withLock { $0 }
            var meter = QoEMeter(requestedAt: requested)
            for (at, event) in events { meter.handle(event, at: at) }
            let q = meter.summary(at: try #require(events.last).at)

            // Startup and rebuffering, from the events' own times.
            let firstFrame = try #require(events.lazy.compactMap { if case .framePresented(_, let f) = $0.event, f.cause == .start { f.wallTime } else { nil } }.first)
            let startup = try #require(q.startup)
            #expect(abs(MediaTime(startup.total).seconds - (firstFrame - requested.timeIntervalSince1970)) < 0.002)
            #expect(startup.manifest != nil && startup.firstSegment != nil && startup.decode != nil)
            let stalledAt = try #require(events.first { $0.event.lifecycleEvent?.name == "PlaybackStalled" }?.at)
            let recoveredAt = try #require(events.first { $0.event.lifecycleEvent?.name == "PlaybackRecovered" }?.at)
            #expect(q.rebufferCount == recorder.lifecycleNames.filter { $0 == "PlaybackStalled" }.count && q.rebufferCount == 1)
            #expect(abs(MediaTime(q.rebufferDuration).seconds - recoveredAt.timeIntervalSince(stalledAt)) < 0.002)
            #expect(q.rebufferDuration >= .seconds(1), "the late segment made a real stall: \(q.rebufferDuration)")
            #expect(q.seekLatencies.count == 1 && q.seekLatencies[0] > .zero, "\(q.seekLatencies)")

            // Bytes: everything the server sent for this play (a cut-off answer may have sent more than
            // arrived), and the waste recomputed from the server's log: segments of media never played
            // (what was buffered beyond the seek's start), every copy but the last of a segment, and
            // cut-off answers.
            let log = h.server.requests
            let sent = log.reduce(0) { $0 + $1.bytesSent }
            let cutOff = log.filter(\.aborted).reduce(0) { $0 + $1.bytesSent }
            #expect(q.bytesFetched <= sent && q.bytesFetched >= sent - cutOff, "fetched \(q.bytesFetched), server sent \(sent) (\(cutOff) cut off)")
            let played: [ClosedRange<Double>] = [0...seekFrom, 17...20]
            let segmentLog = log.enumerated().compactMap { offset, request -> (offset: Int, index: Int, request: MediaRequest)? in
                guard let last = request.path.split(separator: "/").last, last.hasPrefix("seg"), last.hasSuffix(".ts"), let index = Int(last.dropFirst(3).dropLast(3)) else { return nil }
                return (offset, index, request)
            }
            var lastComplete: [Int: Int] = [:]
            for entry in segmentLog where !entry.request.aborted && entry.request.status == 200 { lastComplete[entry.index] = entry.offset }
            var expectedWaste = 0
            for entry in segmentLog {
                let start = Double(entry.index) * 2
                let neverPlayed = !played.contains { $0.overlaps(start...(start + 2)) && min($0.upperBound, start + 2) - max($0.lowerBound, start) > 0.01 }
                if entry.request.aborted || lastComplete[entry.index] != entry.offset || neverPlayed { expectedWaste += entry.request.bytesSent }
            }
            #expect(expectedWaste > 0, "the seek skipped nothing fetched: the waste check proves nothing")
            #expect(q.bytesWasted <= expectedWaste && q.bytesWasted >= expectedWaste - cutOff, "wasted \(q.bytesWasted), from the server's log \(expectedWaste) (\(cutOff) cut off)")

            // What played, and at which bitrate.
            #expect(abs(q.mediaPlayed - (seekFrom + 3)) < 1, "\(q.mediaPlayed) played, \(seekFrom) + 3 expected")
            #expect(abs(q.timeAtVariant.reduce(0) { $0 + $1.played } - q.mediaPlayed) < 0.5, "\(q.timeAtVariant)")
            let average = try #require(q.averageBitrate)
            #expect(average >= 400_000 && average <= 3_000_000, "\(average)")
            #expect(q.errors.isEmpty, "\(q.errors)")
        }
    }
}
