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
                configuration: .init(
                    account: catalog.accountID, queueURL: folder.appendingPathComponent("queue.sqlite"), destination: collector.destination,
                    engagementInterval: .seconds(5), flushInterval: .milliseconds(100)),
                transport: AsyncHTTPClientTransport.shared
            )
            let service = PlaybackService(
                accountID: catalog.accountID, policyKey: catalog.policyKey, baseURL: catalog.baseURL, transport: AsyncHTTPClientTransport.shared)
            let video = try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder)).value

            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .realTime, logger: logs.logger(level: .debug))
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer")), configuration: configuration)
            analytics.track(controller)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([video])
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(3.2) } else { false } }
            controller.seek(to: .seconds(10))
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(12.5) } else { false } }
            controller.pause()
            try await recorder.waitFor(.pause, from: recorder.count)
            controller.play()
            try await recorder.waitFor(.end, timeout: .seconds(30))
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
            // Exact bytes and bitrates from the streaming engine: the engagement events add up to every
            // byte of media, key and text the play fetched, and name variants of the ladder.
            let engagements = events.filter { $0.event == "video_engagement" }
            let reported = engagements.compactMap { $0.parameters["media_bytes"].flatMap(Int.init) }.reduce(0, +)
            let fetched = recorder.events.compactMap { if case .mediaTransferred(_, let t) = $0, t.kind != .manifest { t.bytes } else { nil } }.reduce(0, +)
            #expect(fetched > 0 && reported == fetched, "engagement media_bytes \(reported), fetched \(fetched)")
            let bitrates = engagements.compactMap { $0.parameters["rendition_indicated_bps"].flatMap(Int.init) }
            #expect(bitrates.count == engagements.count && !bitrates.isEmpty, "\(engagements.map(\.parameters))")
            let declared = Set(
                recorder.events.compactMap { if case .variantsDiscovered(_, let l) = $0 { l.variants.map(\.bandwidth) } else { nil } }.flatMap { $0 })
            #expect(Set(bitrates).isSubset(of: declared), "\(bitrates) not in \(declared)")
            #expect(engagements.first?.parameters["measured_bps"].flatMap(Int.init).map { $0 > 0 } == true)
        }

        /// The collector goes down for a minute while a live stream plays: events wait in the queue, the
        /// sender backs off, and once the collector is back every event arrives exactly once — the
        /// engagement ranges chain without a gap or an overlap across the outage, and what the tracker
        /// queued is what was delivered.
        @Test func aMinuteLongCollectorOutageLosesNothingAndDuplicatesNothing() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            try h.server.addLiveStream(path: "/live/analytics.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 8)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let collectorServer = try await MediaServer.start(root: folder)
            defer { Task { await collectorServer.stop() } }
            let collector = AnalyticsCollector(on: collectorServer)
            let analytics = try PlaybackAnalytics(
                configuration: .init(
                    account: "6000000000001", queueURL: folder.appendingPathComponent("queue.sqlite"), destination: collector.destination,
                    engagementInterval: .seconds(5), flushInterval: .milliseconds(100)),
                transport: AsyncHTTPClientTransport.shared
            )
            let sender = try #require(analytics.sender)
            let controller = h.controller(fast: false)
            analytics.track(controller)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("live/analytics.m3u8"))])
            /// Waits until the playhead has moved `seconds` past where it was.
            func play(_ seconds: Double, timeout: Duration) async throws {
                let from = await recorder.cursor()
                let first = try await recorder.waitFor(from: from) { if case .progress = $0 { true } else { false } }
                guard case .progress(_, let start) = first else { return }
                try await recorder.waitFor(from: from, timeout: timeout) {
                    if case .progress(_, let t) = $0 { t >= start.advanced(by: .seconds(seconds)) } else { false }
                }
            }
            try await play(6, timeout: .seconds(20))
            await sender.flush()
            let before = collector.events.count
            #expect(before >= 4, "player_load, impression, view and a first engagement before the outage: \(collector.events.map(\.event))")
            await collectorServer.beginOutage()
            try await play(60, timeout: .seconds(80))
            #expect(collector.events.count == before, "nothing can arrive during the outage")
            #expect(sender.status.failedAttempts >= 1)
            #expect(sender.queue.count >= 10, "a minute of engagement waits in the queue: \(sender.queue.count)")
            try await collectorServer.endOutage()
            try await play(2, timeout: .seconds(15))
            controller.shutdown()
            await analytics.finish()
            analytics.stop()

            let status = sender.status
            #expect(status.delivered == status.queued && status.rejected == 0 && sender.queue.count == 0 && sender.queue.dropped == 0, "\(status)")
            let events = collector.events
            #expect(events.count == status.queued, "\(events.count) received, \(status.queued) queued")
            let names = events.map(\.event)
            for once in ["player_load", "video_impression", "video_view"] {
                #expect(names.filter { $0 == once }.count == 1, "\(once): \(names)")
            }
            let ranges = Self.ranges(events)
            #expect(ranges.count >= 12, "\(ranges)")
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "a gap or an overlap: \(ranges)")
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }
    }
}
