import CoveAnalytics
import CoveCore
import CoveNetworking
import CoveOffline
import CoveTesting
import Foundation
import Testing

/// The offline manager's download events sent as the seed's analytics events: a completed download is
/// a `video_download_request` and a `video_download_complete`, a cancelled one a `…_cancellation`.
@Suite("Download analytics", .serialized)
struct DownloadAnalyticsTests {
    @Test func downloadsAreRequestCompleteAndCancellationEvents() async throws {
        let h = try await OfflineHarness.start(duration: 6)
        defer {
            Task {
                await h.server.stop(); try? FileManager.default.removeItem(at: h.root)
            }
        }
        let collector = AnalyticsCollector(on: h.server)
        let analytics = try PlaybackAnalytics(
            configuration: .init(
                account: "6000000000001", queueURL: h.root.appendingPathComponent("analytics.sqlite"), destination: collector.destination,
                flushInterval: .milliseconds(50)),
            transport: AsyncHTTPClientTransport.shared
        )
        let manager = try h.manager()
        defer { Task { await manager.close() } }
        let events = manager.events()
        let forwarding = Task {
            for await event in events {
                guard let name = event.analyticsEventName, let token = event.token else { continue }
                let code: String? = if case .failed(_, let error) = event { String(error.code.rawValue) } else { nil }
                analytics.downloadEvent(name, token: token.rawValue, videoID: "6000000000101", errorCode: code)
            }
        }
        defer { forwarding.cancel() }
        let completed = try await manager.requestVideoDownload(h.video)
        #expect(try #require(await manager.waitUntilSettled(completed)).state == .completed)
        h.server.setBandwidth(bitsPerSecond: 200_000)
        let cancelled = try await manager.requestVideoDownload(h.video)
        try await manager.cancelVideoDownload(cancelled)
        await collector.waitForEvents(4, timeout: .seconds(20))
        let received = collector.events.map { "\($0.event) \($0.parameters["offline_video_token"] ?? "?")" }
        #expect(
            received == [
                "video_download_request \(completed.rawValue)", "video_download_complete \(completed.rawValue)",
                "video_download_request \(cancelled.rawValue)", "video_download_cancellation \(cancelled.rawValue)",
            ], "\(received)")
        #expect(collector.events.allSatisfy { $0.parameters["video"] == "6000000000101" && $0.parameters["account"] == "6000000000001" })
        analytics.stop()
    }
}
