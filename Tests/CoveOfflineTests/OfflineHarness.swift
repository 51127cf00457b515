import CoveCore
import CoveNetworking
import CoveOffline
import CoveTesting
import Crypto
import Foundation
import Logging

/// A served offline title and a fresh store folder per test.
struct OfflineHarness {
    let fixture: OfflineFixture
    let server: MediaServer
    let root: URL
    let logs = LogCapture()

    static func start(duration: Int = 20) async throws -> OfflineHarness {
        let fixture = try await OfflineFixture.prepare(duration: duration)
        let server = try await MediaServer.start(root: fixture.root)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-offline-test-\(UUID().uuidString)")
        return OfflineHarness(fixture: fixture, server: server, root: root)
    }

    func manager(_ configuration: OfflineConfiguration = OfflineConfiguration(), root: URL? = nil) throws -> OfflineVideoManager {
        try OfflineVideoManager(
            root: root ?? self.root, transport: AsyncHTTPClientTransport.shared, configuration: configuration,
            logger: logs.logger(label: "cove.offline", level: .trace))
    }

    var video: Video { fixture.video(on: server.baseURL) }

    /// The fixture file a stored file was fetched from (its URL's path under the served root).
    func origin(of file: StoredFile) -> URL {
        let path = URLComponents(string: file.origin)?.path ?? ""
        return fixture.root.appendingPathComponent(String(path.drop { $0 == "/" }))
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Each stored file's bytes equal its origin's (the byte range of it, for ranged segments).
    func mismatches(_ files: [StoredFile]) throws -> [String] {
        var bad: [String] = []
        for file in files {
            var expected = try Data(contentsOf: origin(of: file))
            if let range = file.byteRange { expected = expected.subdata(in: range.offset..<(range.offset + range.length)) }
            let stored = try Data(contentsOf: file.localURL)
            if Self.sha256(stored) != Self.sha256(expected) || file.sha256 != Self.sha256(expected) { bad.append(file.path) }
        }
        return bad
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: root)
    }
}

/// Collects a manager's events from the moment it is made.
final class OfflineEventLog: Sendable {
    private let storage = EventStorage()
    private let task: Task<Void, Never>

    init(_ manager: OfflineVideoManager) {
        let stream = manager.events()
        let storage = self.storage
        task = Task { for await event in stream { storage.append(event) } }
    }

    deinit { task.cancel() }

    var events: [OfflineEvent] { storage.all }

    /// Returns the first event (already seen or still to come) that matches.
    @discardableResult
    func waitFor(_ predicate: @escaping @Sendable (OfflineEvent) -> Bool) async -> OfflineEvent {
        await withCheckedContinuation { continuation in storage.wait(predicate, continuation) }
    }

    private final class EventStorage: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [OfflineEvent] = []
        private var waiters: [(predicate: @Sendable (OfflineEvent) -> Bool, continuation: CheckedContinuation<OfflineEvent, Never>)] = []

        func append(_ event: OfflineEvent) {
            let due = lock.withLock { () -> [CheckedContinuation<OfflineEvent, Never>] in
                events.append(event)
                let due = waiters.filter { $0.predicate(event) }.map(\.continuation)
                waiters.removeAll { $0.predicate(event) }
                return due
            }
            for continuation in due { continuation.resume(returning: event) }
        }

        func wait(_ predicate: @escaping @Sendable (OfflineEvent) -> Bool, _ continuation: CheckedContinuation<OfflineEvent, Never>) {
            let found = lock.withLock { () -> OfflineEvent? in
                if let seen = events.first(where: predicate) { return seen }
                waiters.append((predicate, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }

        var all: [OfflineEvent] { lock.withLock { events } }
    }
}
