import CoveCore
import Foundation
import GRDB

/// The events not yet delivered, on disk (SQLite in WAL mode through GRDB's pool) so that neither an outage
/// nor a restart of the app loses one. Bounded by count and bytes: past either bound the oldest events
/// are dropped first and counted (`dropped`), so a long outage costs the oldest data, never memory
/// or disk without limit.
public final class AnalyticsQueue: Sendable {
    /// An event with its place in the queue.
    public struct Entry: Sendable, Hashable {
        public let id: Int64
        public let event: AnalyticsEvent
    }

    public struct Limits: Sendable, Hashable {
        public var maxEvents: Int
        public var maxBytes: Int

        public init(maxEvents: Int = 10_000, maxBytes: Int = 4 << 20) {
            self.maxEvents = max(1, maxEvents)
            self.maxBytes = max(1_024, maxBytes)
        }
    }

    public let limits: Limits
    private let database: DatabasePool
    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    /// Opens (creating) the queue at `url`; a typed error says why it cannot be.
    public init(url: URL, limits: Limits = Limits()) throws(AnalyticsError) {
        self.limits = limits
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.label = "cove.analytics"
            configuration.busyMode = .timeout(5)
            // A pool runs SQLite in WAL mode: readers never wait for the sender's writes.
            database = try DatabasePool(path: url.path, configuration: configuration)
            try database.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS event (id INTEGER PRIMARY KEY AUTOINCREMENT, body BLOB NOT NULL, bytes INTEGER NOT NULL)")
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL)")
            }
        } catch {
            throw AnalyticsError(.storageFailed, "The analytics queue at \(url.path) could not be opened (\(error)); check that the folder is writable")
        }
    }

    /// Adds `events` at the end, then drops the oldest past the limits; returns how many were dropped.
    @discardableResult
    public func append(_ events: [AnalyticsEvent]) throws(AnalyticsError) -> Int {
        guard !events.isEmpty else { return 0 }
        let bodies: [Data]
        do {
            bodies = try events.map { try Self.encoder.encode($0) }
        } catch {
            throw AnalyticsError(.storageFailed, "An analytics event could not be encoded: \(error)")
        }
        return try write("store events") { db in
            for body in bodies {
                try db.execute(sql: "INSERT INTO event (body, bytes) VALUES (?, ?)", arguments: [body, body.count])
            }
            var dropped = 0
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event") ?? 0
            if count > limits.maxEvents {
                let excess = count - limits.maxEvents
                try db.execute(sql: "DELETE FROM event WHERE id IN (SELECT id FROM event ORDER BY id LIMIT ?)", arguments: [excess])
                dropped += excess
            }
            var bytes = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM event") ?? 0
            while bytes > limits.maxBytes {
                guard let oldest = try Row.fetchOne(db, sql: "SELECT id, bytes FROM event ORDER BY id LIMIT 1") else { break }
                try db.execute(sql: "DELETE FROM event WHERE id = ?", arguments: [oldest["id"] as Int64])
                bytes -= oldest["bytes"] as Int
                dropped += 1
            }
            if dropped > 0 {
                try db.execute(
                    sql: "INSERT INTO counter (name, value) VALUES ('dropped', ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
                    arguments: [dropped])
            }
            return dropped
        }
    }

    /// Up to `limit` of the oldest events, in order (they stay queued until `remove`).
    public func oldest(_ limit: Int) throws(AnalyticsError) -> [Entry] {
        let rows: [Row]
        do {
            rows = try database.read { db in try Row.fetchAll(db, sql: "SELECT id, body FROM event ORDER BY id LIMIT ?", arguments: [max(1, limit)]) }
        } catch {
            throw AnalyticsError(.storageFailed, "The analytics queue could not be read: \(error)")
        }
        return rows.compactMap { row in
            let body: Data = row["body"]
            // A row that no longer decodes (written by a future version) is skipped; `remove` clears it.
            return (try? Self.decoder.decode(AnalyticsEvent.self, from: body)).map { Entry(id: row["id"], event: $0) }
        }
    }

    /// Forgets delivered (or refused for good) events.
    public func remove(_ ids: [Int64]) throws(AnalyticsError) {
        guard !ids.isEmpty else { return }
        try write("forget delivered events") { db in
            for id in ids { try db.execute(sql: "DELETE FROM event WHERE id = ?", arguments: [id]) }
        }
    }

    public var count: Int { (try? database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event") ?? 0 }) ?? 0 }

    public var bytes: Int { (try? database.read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM event") ?? 0 }) ?? 0 }

    /// The viewer's identifier for this install: made once, kept with the queue (the seed's unique
    /// identifier, which an app may turn off).
    public func viewerID() throws(AnalyticsError) -> String {
        try write("keep the viewer identifier") { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS setting (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            if let existing = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'viewer'") { return existing }
            let made = UUID().uuidString.lowercased()
            try db.execute(sql: "INSERT INTO setting (name, value) VALUES ('viewer', ?)", arguments: [made])
            return made
        }
    }

    /// Events dropped to keep the limits, since the queue file was made.
    public var dropped: Int { (try? database.read { db in try Int.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'dropped'") ?? 0 }) ?? 0 }

    private func write<T>(_ what: String, _ body: (Database) throws -> T) throws(AnalyticsError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw AnalyticsError(.storageFailed, "The analytics queue could not \(what): \(error)")
        }
    }
}
