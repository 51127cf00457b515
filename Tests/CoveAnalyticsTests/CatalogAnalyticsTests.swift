import CoveAnalytics
import CoveCore
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

/// `catalog_request` and `catalog_response` around each Playback API request, wired through the
/// service's observer, against the catalog stand-in and a collector beside it.
@Suite("Catalog analytics")
struct CatalogAnalyticsTests {
    @Test func eachLookupIsARequestAndAResponseWithItsTime() async throws {
        let catalog = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
        defer { Task { await catalog.stop() } }
        let collector = AnalyticsCollector(on: catalog.media)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-catalog-analytics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let analytics = try PlaybackAnalytics(
            configuration: .init(
                account: catalog.accountID, queueURL: folder.appendingPathComponent("q.sqlite"), destination: collector.destination,
                flushInterval: .milliseconds(50)),
            transport: AsyncHTTPClientTransport.shared
        )
        let service = PlaybackService(
            accountID: catalog.accountID, policyKey: catalog.policyKey, baseURL: catalog.baseURL, transport: AsyncHTTPClientTransport.shared
        ) { exchange in
            switch exchange {
            case .requested(let url, _, _): analytics.catalogRequested(url: url)
            case .answered(let url, _, _, let status, let time): analytics.catalogAnswered(url: url, status: status, responseTime: time)
            }
        }
        // The video and its bumper: two lookups.
        _ = try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, bumperID: SampleCatalog.VideoID.bumper))
        await analytics.flush()
        let events = collector.events
        #expect(events.map(\.event) == ["catalog_request", "catalog_response", "catalog_request", "catalog_response"], "\(events.map(\.event))")
        #expect(events.allSatisfy { $0.parameters["catalog_url"]?.contains("/playback/v1/accounts/\(catalog.accountID)/videos/") == true })
        #expect(events.filter { $0.event == "catalog_response" }.allSatisfy { Int($0.parameters["response_time_ms"] ?? "") != nil })
        #expect(
            events.allSatisfy { $0.parameters["account"] == catalog.accountID && !($0.parameters.values.contains { $0.contains(SampleCatalog.policyKey) }) })
        analytics.stop()
    }
}
