import CoveAnalytics
import CoveCore
import CoveNetworking
import CoveTesting
import Foundation
import Testing

/// The app's switches: opting out records and sends nothing; the proxy domain routes events unless the
/// app named a destination, and then that is said.
@Suite("Analytics settings")
struct AnalyticsSettingsTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-settings-\(UUID().uuidString)")
    }

    @Test func optingOutRecordsAndSendsNothing() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        let collector = AnalyticsCollector(on: server)
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let analytics = try PlaybackAnalytics(
            configuration: .init(account: "1", queueURL: folder.appendingPathComponent("q.sqlite"), destination: collector.destination, isEnabled: false),
            transport: AsyncHTTPClientTransport.shared
        )
        #expect(analytics.sender == nil)
        try analytics.record([AnalyticsEvent(name: "video_view", parameters: [], time: Date())])
        await analytics.flush()
        #expect(collector.events.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path), "an opted-out app keeps no queue on disk")
    }

    @Test func theProxyDomainRoutesEventsUnlessTheAppNamedADestinationAndThatIsSaid() throws {
        let global = GlobalConfiguration()
        try global.setProxyDomain("bcovproxy.example.cn")
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let proxied = try PlaybackAnalytics(
            configuration: .init(account: "1", queueURL: folder.appendingPathComponent("a.sqlite")), transport: AsyncHTTPClientTransport.shared,
            globalConfiguration: global
        )
        #expect(proxied.sender?.destination.absoluteString == "https://bcovproxy.example.cn/v2/tracker")
        proxied.stop()
        let logs = LogCapture()
        let explicit = try PlaybackAnalytics(
            configuration: .init(
                account: "1", queueURL: folder.appendingPathComponent("b.sqlite"), destination: URL(string: "https://collector.example/v2/tracker")!),
            transport: AsyncHTTPClientTransport.shared, globalConfiguration: global, logger: logs.logger(label: "cove.analytics", level: .notice)
        )
        #expect(explicit.sender?.destination.absoluteString == "https://collector.example/v2/tracker")
        #expect(logs.text.contains("not through the proxy domain") && logs.text.contains("bcovproxy.example.cn"), "\(logs.text)")
        explicit.stop()
        let plain = try PlaybackAnalytics(
            configuration: .init(account: "1", queueURL: folder.appendingPathComponent("c.sqlite")), transport: AsyncHTTPClientTransport.shared,
            globalConfiguration: GlobalConfiguration())
        #expect(plain.sender?.destination == PlaybackAnalytics.defaultDestination)
        plain.stop()
    }
}
