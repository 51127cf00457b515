import CoveAnalytics
import CoveCore
import CoveNetworking
import CoveTesting
import Foundation
import Testing

/// Analytics delivery against a real loopback collector: every event once and in order, nothing lost
/// to an outage or a restart, the queue bounded with what it dropped counted, refusals dropped.
@Suite("Analytics delivery", .serialized)
struct AnalyticsDeliveryTests {
    struct Setup {
        let server: MediaServer
        let collector: AnalyticsCollector
        let folder: URL

        var queueURL: URL { folder.appendingPathComponent("analytics.sqlite") }

        func stop() async {
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static func start() async throws -> Setup {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try await MediaServer.start(root: folder)
        return Setup(server: server, collector: AnalyticsCollector(on: server), folder: folder)
    }

    static func events(_ count: Int, from first: Int = 0) -> [AnalyticsEvent] {
        (first..<(first + count)).map { i in
            AnalyticsEvent(
                name: "video_engagement",
                parameters: [.init("account", "6000000000001"), .init("session", "s-1"), .init("range", "\(i)..\(i + 1)"), .init("note", "a+b & c")],
                time: Date())
        }
    }

    static func sender(_ queue: AnalyticsQueue, to destination: URL, token: PlaybackRightsToken? = nil) throws -> AnalyticsSender {
        try AnalyticsSender(
            queue: queue, transport: AsyncHTTPClientTransport.shared,
            configuration: .init(
                destination: destination, authToken: token, batchSize: 7, flushInterval: .milliseconds(50), initialBackoff: .milliseconds(100),
                maximumBackoff: .milliseconds(400), requestTimeout: .seconds(2))
        )
    }

    static func ranges(_ received: [AnalyticsCollector.Received]) -> [String] { received.compactMap { $0.parameters["range"] } }

    @Test func everyEventArrivesOnceInOrderWithItsParameters() async throws {
        let s = try await Self.start()
        defer { Task { await s.stop() } }
        let token = try PlaybackRightsToken.parse("eyJhbGciOiJIUzI1NiJ9.eyJhY2NpZCI6IjYwMDAwMDAwMDAwMDEifQ.c2ln")
        let sender = try Self.sender(try AnalyticsQueue(url: s.queueURL), to: s.collector.destination, token: token)
        sender.start()
        try sender.enqueue(Self.events(50))
        await sender.flush()
        #expect(Self.ranges(s.collector.events) == Self.events(50).compactMap { $0["range"] })
        #expect(s.collector.events.allSatisfy { $0.event == "video_engagement" && $0.parameters["note"] == "a+b & c" && $0.authorized })
        #expect(sender.status.delivered == 50)
        #expect(sender.queue.count == 0)
        sender.stop()
    }

    /// The collector down for a while: events wait on disk, backing off, and all arrive once it is back.
    @Test func anOutageLosesNothingAndDuplicatesNothing() async throws {
        let s = try await Self.start()
        defer { Task { await s.stop() } }
        let sender = try Self.sender(try AnalyticsQueue(url: s.queueURL), to: s.collector.destination)
        sender.start()
        try sender.enqueue(Self.events(5))
        await sender.flush()
        await s.server.beginOutage()
        try sender.enqueue(Self.events(20, from: 5))
        // An outage cannot be awaited from the client's side: let a few backoffs happen.
        try await Task.sleep(for: .seconds(1))
        #expect(s.collector.events.count == 5)
        #expect(sender.queue.count == 20)
        #expect(sender.status.failedAttempts >= 2)
        try await s.server.endOutage()
        await sender.flush()
        #expect(Self.ranges(s.collector.events) == Self.events(25).compactMap { $0["range"] })
        sender.stop()
    }

    /// What a stopped app left queued is sent by the next one, from the same file.
    @Test func aRestartSendsWhatWasQueued() async throws {
        let s = try await Self.start()
        defer { Task { await s.stop() } }
        let refusing = try RefusingPort()
        do {
            let first = try Self.sender(try AnalyticsQueue(url: s.queueURL), to: refusing.url("v2/tracker"))
            first.start()
            try first.enqueue(Self.events(12))
            try await Task.sleep(for: .milliseconds(300))
            #expect(first.status.delivered == 0 && first.status.failedAttempts >= 1)
            first.stop()
        }
        let second = try Self.sender(try AnalyticsQueue(url: s.queueURL), to: s.collector.destination)
        #expect(second.queue.count == 12)
        second.start()
        await second.flush()
        #expect(Self.ranges(s.collector.events) == Self.events(12).compactMap { $0["range"] })
        second.stop()
    }

    /// Waiting for a collector that is down ends when the waiter gives up (cancellation) or the sender
    /// stops, so an app's exit never hangs on analytics; the events stay queued.
    @Test func aFlushForACollectorThatIsDownEndsOnCancellationOrStop() async throws {
        let s = try await Self.start()
        defer { Task { await s.stop() } }
        let refusing = try RefusingPort()
        let sender = try Self.sender(try AnalyticsQueue(url: s.queueURL), to: refusing.url("v2/tracker"))
        sender.start()
        try sender.enqueue(Self.events(3))
        let waiting = Task { await sender.flush() }
        waiting.cancel()
        await waiting.value
        let second = Task { await sender.flush() }
        sender.stop()
        await second.value
        #expect(sender.queue.count == 3 && sender.status.delivered == 0)
    }

    @Test func theQueueIsBoundedAndDropsTheOldestFirstWithACount() async throws {
        let s = try await Self.start()
        defer { Task { await s.stop() } }
        let byCount = try AnalyticsQueue(url: s.folder.appendingPathComponent("count.sqlite"), limits: .init(maxEvents: 10, maxBytes: 1 << 20))
        #expect(try byCount.append(Self.events(25)) == 15)
        #expect(byCount.count == 10)
        #expect(byCount.dropped == 15)
        #expect(try byCount.oldest(1).first?.event["range"] == "15..16")
        let byBytes = try AnalyticsQueue(url: s.folder.appendingPathComponent("bytes.sqlite"), limits: .init(maxEvents: 1_000, maxBytes: 2_048))
        try byBytes.append(Self.events(100))
        #expect(byBytes.bytes <= 2_048)
        #expect(byBytes.count + byBytes.dropped == 100)
        #expect(try byBytes.oldest(1_000).last?.event["range"] == "99..100", "the newest are kept")
    }

    /// A refusal retrying cannot cure (413) drops that event only; the rest go on.
    @Test func aRefusedEventIsDroppedAndTheRestDelivered() async throws {
        let s = try await Self.start()
        defer { Task { await s.stop() } }
        s.server.forceStatus(413, forPathsContaining: "/v2/tracker", count: 1)
        let sender = try Self.sender(try AnalyticsQueue(url: s.queueURL), to: s.collector.destination)
        sender.start()
        try sender.enqueue(Self.events(5))
        await sender.flush()
        #expect(Self.ranges(s.collector.events) == Self.events(5, from: 0).dropFirst().compactMap { $0["range"] })
        #expect(sender.status.rejected == 1)
        #expect(sender.status.delivered == 4)
        sender.stop()
    }

    @Test func aDestinationThatIsNotHTTPIsATypedError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try AnalyticsQueue(url: folder.appendingPathComponent("q.sqlite"))
        #expect(throws: AnalyticsError.self) {
            _ = try AnalyticsSender(queue: queue, transport: AsyncHTTPClientTransport.shared, configuration: .init(destination: URL(fileURLWithPath: "/tmp/x")))
        }
        #expect(throws: AnalyticsError.self) { _ = try AnalyticsQueue(url: URL(fileURLWithPath: "/proc/cove-analytics/q.sqlite")) }
    }
}
