import ArgumentParser
import CoveAnalytics
import CoveCore
import CoveNetworking
import CoveTesting
import Foundation

/// Issue 17: what the analytics queue and sender sustain, and what a full queue costs. Events shaped like
/// the tracker's engagement events (about 20 parameters), written to the on-disk queue one call per event
/// as the tracker records them, and delivered one GET each to a collector on loopback; then the queue
/// filled half again past its default bound, to show the process's memory does not follow it.
enum AnalyticsBench {
    struct Result: Sendable {
        /// Single-event appends per second (each its own SQLite transaction, as the tracker records).
        let appendsPerSecond: Double
        let appendCount: Int
        /// Events per second delivered end to end (queue → HTTP → collector) on loopback.
        let deliveredPerSecond: Double
        let deliveredCount: Int
        let limits: AnalyticsQueue.Limits
        let offered: Int
        let kept: Int
        let dropped: Int
        let keptBytes: Int
        /// The queue's files on disk (database and WAL) once filled past its bound.
        let fileBytes: Int
        /// Resident memory of the process before the queue was opened and once it was filled past its bound.
        let residentBeforeKB: Int
        let residentAtBoundKB: Int
    }

    static func run(say: (String) -> Void) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-bench-analytics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Appends: the tracker records each event as it happens.
        let appendCount = 2_000
        let appendQueue = try AnalyticsQueue(url: folder.appendingPathComponent("append.sqlite"))
        let appendStart = Date()
        for i in 0..<appendCount { try appendQueue.append([event(i)]) }
        let appendSeconds = Date().timeIntervalSince(appendStart)
        say(String(format: "analytics: %d single-event appends in %.2f s (%.0f/s)", appendCount, appendSeconds, Double(appendCount) / appendSeconds))

        // Delivery: queued events drained to a loopback collector.
        let server = try await MediaServer.start(root: folder)
        let collector = AnalyticsCollector(on: server)
        let deliveredCount = 2_000
        let sendQueue = try AnalyticsQueue(url: folder.appendingPathComponent("send.sqlite"))
        try sendQueue.append((0..<deliveredCount).map(event))
        let sender = try AnalyticsSender(
            queue: sendQueue, transport: AsyncHTTPClientTransport.shared,
            configuration: .init(destination: collector.destination, flushInterval: .milliseconds(10)))
        let sendStart = Date()
        sender.start()
        await sender.flush()
        let sendSeconds = Date().timeIntervalSince(sendStart)
        sender.stop()
        await server.stop()
        guard collector.events.count == deliveredCount else {
            throw ValidationError("the collector received \(collector.events.count) of \(deliveredCount) events")
        }
        say(String(format: "analytics: %d events delivered in %.2f s (%.0f/s)", deliveredCount, sendSeconds, Double(deliveredCount) / sendSeconds))

        // The bound: half again as many events as the default queue keeps, offered in the tracker's
        // small batches; the oldest go, the process's memory stays where it was.
        let before = StressBench.Footprint.now().residentKB
        let boundURL = folder.appendingPathComponent("bound.sqlite")
        let bounded = try AnalyticsQueue(url: boundURL)
        let offered = bounded.limits.maxEvents * 3 / 2
        var next = 0
        while next < offered {
            let batch = (next..<min(next + 10, offered)).map(event)
            try bounded.append(batch)
            next += batch.count
        }
        let atBound = StressBench.Footprint.now().residentKB
        let files = ["", "-wal", "-shm"].compactMap { try? FileManager.default.attributesOfItem(atPath: boundURL.path + $0)[.size] as? Int }.reduce(0, +)
        say(
            String(
                format: "analytics: %d offered to a queue bounded at %d events / %d bytes: kept %d (%d bytes), dropped %d, files %.1f MB; RSS %.1f → %.1f MB",
                offered, bounded.limits.maxEvents, bounded.limits.maxBytes, bounded.count, bounded.bytes, bounded.dropped, Double(files) / 1e6,
                Double(before) / 1024, Double(atBound) / 1024))
        return Result(
            appendsPerSecond: Double(appendCount) / appendSeconds, appendCount: appendCount,
            deliveredPerSecond: Double(deliveredCount) / sendSeconds, deliveredCount: deliveredCount,
            limits: bounded.limits, offered: offered, kept: bounded.count, dropped: bounded.dropped, keptBytes: bounded.bytes, fileBytes: files,
            residentBeforeKB: before, residentAtBoundKB: atBound
        )
    }

    /// An engagement event as the tracker makes it (its parameters and their sizes).
    static func event(_ i: Int) -> AnalyticsEvent {
        let parameters: [AnalyticsEvent.Parameter] = [
            .init("domain", "videocloud"), .init("account", "6000000000001"), .init("session", "c0ffee00-1234-4321-8888-0123456789ab"),
            .init("player", "cove"), .init("player_name", "Cove"), .init("platform", "linux"), .init("time", String(1_800_000_000_000 + i * 5_000)),
            .init("user", "a1b2c3d4-5678-90ab-cdef-1234567890ab"), .init("video", "6000000000101"), .init("video_name", "Sample ladder"),
            .init("video_duration", "120"), .init("range", "\(i * 5)..\(i * 5 + 5)"), .init("video_seconds_viewed", "5"),
            .init("media_bytes", "1874532"), .init("rendition_indicated_bps", "2700000"), .init("rendition_width", "1280"), .init("rendition_height", "720"),
            .init("rendition_url", "https://cdn.example.com/media/v2/index.m3u8"), .init("measured_bps", "48213344"),
        ]
        return AnalyticsEvent(name: "video_engagement", parameters: parameters, time: Date(timeIntervalSince1970: 1_800_000_000 + Double(i) * 5))
    }

    static func markdown(_ r: Result) -> String {
        """

        ### Analytics queue and sender (issue #17)

        Engagement-shaped events (19 parameters). Appends: one `AnalyticsQueue.append` per event, each its
        own SQLite (WAL) transaction, as the tracker records them. Delivery: a queue of \(r.deliveredCount)
        drained by `AnalyticsSender` to a collector on loopback, one GET per event (the Data Collection API
        takes one event per request). The bound: \(r.offered) events offered in batches of 10 to a queue with
        the default limits.

        | metric | value |
        |---|---|
        \(String(format: "| single-event appends per second (%d appends) | **%.0f** |", r.appendCount, r.appendsPerSecond))
        \(String(format: "| events delivered per second, queue → collector (%d events) | **%.0f** |", r.deliveredCount, r.deliveredPerSecond))
        \(String(format: "| queue at its bound (%d events / %.1f MB): kept, dropped (oldest first) | %d kept (%.2f MB of events), %d dropped |", r.limits.maxEvents, Double(r.limits.maxBytes) / 1e6, r.kept, Double(r.keptBytes) / 1e6, r.dropped))
        \(String(format: "| the queue's files on disk at the bound | %.1f MB |", Double(r.fileBytes) / 1e6))
        \(String(format: "| process RSS before the queue was opened → at its bound | %.1f → %.1f MB (**%+.1f MB**) |", Double(r.residentBeforeKB) / 1024, Double(r.residentAtBoundKB) / 1024, Double(r.residentAtBoundKB - r.residentBeforeKB) / 1024))
        """
    }
}
