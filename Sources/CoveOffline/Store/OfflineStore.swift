import CoveCore
import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The store on disk: one root folder holding `index.sqlite` (GRDB, WAL) and a folder per download.
///
/// Crash safety comes from the order of writes: a file is filled under a temporary name, checked (length)
/// and hashed (SHA-256), renamed into place, and only then marked done in the index, in one transaction.
/// So the index never names a file that is not whole; a process killed at any moment loses at most the
/// file in flight, and even that keeps its bytes (`*.part`) for an HTTP `Range` resume.
///
/// One manager holds a store at a time: opening takes an exclusive `flock` on `root/.lock`, and a second
/// opener — in this process or another — gets `storeInUse` instead of sharing the index and racing
/// on the same files.
final class OfflineStore: Sendable {
    let root: URL
    let database: DatabasePool
    /// The held lock's descriptor; -1 once released.
    private let lockDescriptor: Mutex<Int32>

    static let indexName = "index.sqlite"
    static let downloadsFolder = "downloads"

    init(root: URL) throws(OfflineError) {
        self.root = root.standardizedFileURL
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: self.root.appendingPathComponent(Self.downloadsFolder), withIntermediateDirectories: true)
        } catch {
            throw OfflineError(
                .storageFailed, "The offline store at \(self.root.path) could not be set up: \(Self.reason(error)); choose a folder this process can write to")
        }
        let lockPath = self.root.appendingPathComponent(".lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OfflineError(
                .storageFailed, "The offline store's lock file \(lockPath) could not be opened: \(String(cString: strerror(errno))); choose a writable folder")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: lockPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw OfflineError(
                .storeInUse,
                "Another offline video manager holds the store at \(self.root.path)\(holder.map { $0.isEmpty ? "" : " (process \($0))" } ?? ""); use that one, or close it first — two managers on one store would race on the same files"
            )
        }
        _ = ftruncate(descriptor, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
        lockDescriptor = Mutex(descriptor)
        do {
            var configuration = Configuration()
            configuration.label = "cove.offline"
            configuration.busyMode = .timeout(5)
            database = try DatabasePool(path: self.root.appendingPathComponent(Self.indexName).path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            flock(descriptor, LOCK_UN)
            close(descriptor)
            throw OfflineError(.storageFailed, "The offline store's index in \(self.root.path) could not be opened: \(Self.reason(error))")
        }
    }

    deinit { release() }

    /// Lets another manager open the store (this one must not be used for it afterwards).
    func release() {
        lockDescriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    /// The folder of one download. (Paths are joined with a stated directory hint throughout: left to
    /// guess, Foundation asks the file system about every component, a `stat` each, and a download joins
    /// paths for every file it fetches.)
    func folder(of token: OfflineVideoToken) -> URL {
        root.appending(path: Self.downloadsFolder, directoryHint: .isDirectory).appending(path: token.rawValue, directoryHint: .isDirectory)
    }

    /// A file of a download, by its path inside the download's folder (paths are made by the planner:
    /// plain relative names, never `..`).
    func file(_ path: String, of token: OfflineVideoToken) -> URL {
        folder(of: token).appending(path: path, directoryHint: .notDirectory)
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return "\(underlying.localizedDescription) (\(error.code.rawValue))"
        }
        return (error as NSError).localizedDescription
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE download (
                        token TEXT PRIMARY KEY NOT NULL,
                        state INTEGER NOT NULL,
                        display_name TEXT NOT NULL,
                        video_id TEXT,
                        source_url TEXT NOT NULL,
                        video_json TEXT NOT NULL,
                        parameters_json TEXT NOT NULL,
                        offline_json TEXT NOT NULL,
                        requested_at REAL NOT NULL,
                        started_at REAL,
                        ended_at REAL,
                        error_code INTEGER,
                        error_message TEXT,
                        license_requested_at REAL NOT NULL,
                        rental_expires_at REAL,
                        play_duration REAL,
                        first_played_at REAL,
                        license_invalidated INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE file (
                        token TEXT NOT NULL REFERENCES download(token) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        ordinal INTEGER NOT NULL,
                        url TEXT NOT NULL,
                        range_offset INTEGER,
                        range_length INTEGER,
                        kind TEXT NOT NULL,
                        estimated_bytes INTEGER NOT NULL,
                        expected_length INTEGER,
                        done INTEGER NOT NULL DEFAULT 0,
                        length INTEGER,
                        sha256 TEXT,
                        PRIMARY KEY (token, path)
                    );
                    CREATE INDEX file_pending ON file(token, done, ordinal);
                    CREATE TABLE key (
                        token TEXT NOT NULL REFERENCES download(token) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        url TEXT NOT NULL,
                        material BLOB,
                        PRIMARY KEY (token, name)
                    );
                    """)
        }
        migrator.registerMigration("v2: file validators") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN validator TEXT")
        }
        return migrator
    }
}
