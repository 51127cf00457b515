import CoveAnalytics
import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

/// Analytics on the real engine: a whole play with one seek and one pause, and what the collector got.
extension RealEngineTests {
    @Suite("Analytics on the real engine", .serialized)
    struct AnalyticsPlaybackTests {
        let logs = LogCapture()

        /// Half-open whole-second ranges from `range=a..b`.
        static func ranges(_ events: [AnalyticsCollector.Received]) -> [Range<Int>] {
            events.filter { $0.event == "video_engagement" }.compactMap { event in
                let bounds = (event.parameters["range"] ?? "").components(separatedBy: "..").compactMap { Int($0) }
                return bounds.count == 2 && bounds[0] < bounds[1] ? bounds[0]..<bounds[1] : nil
            }
        }

        /// The collector gets player_load, the impression and the view once, and engagement ranges that
        /// cover what was watched — 0 s to the seek, the seek target to the end, across the pause — and
        /// nothing twice; every event carries the account, the SDK session and the viewer.
        @Test func aPlayWithASeekAndAPauseIsReportedExactly() async throws {
            let catalog = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await catalog.stop() } }
            let collector = AnalyticsCollector(on: catalog.media)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let analytics = try PlaybackAnalytics(
                configuration: .init(account: catalog.accountID, queueURL: folder.appendingPathComponent("queue.sqlite"), destination: collector.destination, engagementInterval: .seconds(5), flushInterval: .milliseconds(100)),
                transport: AsyncHTTPClientTransport.shared
            )
            let service = PlaybackService(accountID: catalog.accountID, policyKey: catalog.policyKey, baseURL: catalog.baseURL, transport: AsyncHTTPClientTransport.shared)
            let video = try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder)).value

            let configuration = PlaybackControllerConfiguration(progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .realTime, logger: logs.logger(level: .debug))
            let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer")), configuration: configuration)
            analytics.track(controller)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([video])
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(3.2) } else { false } }
            controller.seek(to: .seconds(10))
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(12.5) } else { false } }
            controller.pause()
            try await recorder.waitFor(lifecycle: "Pause", from: recorder.count)
            controller.play()
            try await recorder.waitFor(lifecycle: "End", timeout: .seconds(30))
            controller.shutdown()
            await analytics.finish()
            analytics.stop()

            let events = collector.events
            let names = events.map(\.event)
            #expect(names.filter { $0 == "player_load" }.count == 1, "\(names)")
            #expect(names.filter { $0 == "video_impression" }.count == 1, "\(names)")
            #expect(names.filter { $0 == "video_view" }.count == 1, "\(names)")
            #expect(!names.contains("error"))
            #expect(names.first == "player_load")
            let ranges = Self.ranges(events).sorted { $0.lowerBound < $1.lowerBound }
            // Nothing twice: the ranges do not overlap.
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }, "\(ranges)")
            // What was watched: from the start to the seek (3 s), and from the target (10 s) to the end (20 s).
            let covered = Set(ranges.flatMap { Array($0) })
            #expect(covered.isSuperset(of: Set(0..<3)), "\(ranges)")
            #expect(covered.isSuperset(of: Set(10..<20)), "\(ranges)")
            #expect(covered.isDisjoint(with: Set(5..<9)), "the skipped part was reported: \(ranges)")
            for event in events {
                #expect(event.parameters["account"] == catalog.accountID)
                #expect(event.parameters["session"] == PlayerSDKManager.shared.sessionID)
                #expect(event.parameters["domain"] == "videocloud")
                #expect(event.parameters["user"]?.isEmpty == false)
            }
            #expect(events.filter { $0.event.hasPrefix("video_") }.allSatisfy { $0.parameters["video"] == SampleCatalog.VideoID.ladder })
        }
    }
}
