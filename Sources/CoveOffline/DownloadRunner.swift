import CoveCore
import CoveStreaming
import Foundation
import Synchronization

/// Runs one download from the index: fetches its keys, then its unfinished files over a few parallel
/// connections, each into a part file that is checked, hashed, renamed and marked done. Throws the first
/// failure (naming the file) after stopping the other connections; cancellation stops it with every part
/// kept for a resume.
struct DownloadRunner: Sendable {
    let token: OfflineVideoToken
    let store: OfflineStore
    let loader: StreamingLoader
    let connections: Int
    let checkStorage: @Sendable (Int64) throws(OfflineError) -> Void
    let onPartial: @Sendable (String, Int) -> Void
    /// How often at most a file's partial progress reaches `onPartial`.
    let progressInterval: Duration
    let onFile: @Sendable (String, Int64) -> Void
    /// Where files are made final and the index written (see `StoreThread`).
    private let storeThread = StoreThread(label: "cove.offline.store")
    /// Files whose learned length could not be recorded: their commit fails (a resume without the
    /// validator could join two versions of the file).
    private let unrecordedLengths = UnrecordedLengths()

    func run() async throws {
        try await fetchKeys()
        let pending = try store.files(of: token, pendingOnly: true)
        removeUnrecordedFiles(pending)
        let next = NextIndex()
        // Files whose bytes are in: flushed, renamed and recorded one after another by one task, while the
        // connections go on with the next files (an fsync per file would otherwise stall each connection),
        // on a thread of its own (see `StoreThread`).
        let (written, committer) = AsyncStream<(FileRow, PartFile.Written)>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await (file, part) in written { try await storeThread.run { try commit(file, part) } }
            }
            group.addTask {
                defer { committer.finish() }
                try await withThrowingTaskGroup(of: Void.self) { connections in
                    for _ in 0..<min(self.connections, max(pending.count, 1)) {
                        connections.addTask {
                            while true {
                                try Task.checkCancellation()
                                let index = next.take()
                                guard index < pending.count else { return }
                                let file = pending[index]
                                committer.yield((file, try await fetch(file)))
                            }
                        }
                    }
                    try await connections.waitForAll()
                }
            }
            do {
                try await group.waitForAll()
            } catch {
                // The first failure (a file, or making one final) stops the rest; finished parts stay for a resume.
                group.cancelAll()
                throw error
            }
        }
    }

    /// A file renamed into place whose "done" never reached the index (the process ended in between) is
    /// fetched again: the index is the only proof a file is whole. Each folder is listed once, rather than
    /// asking after every pending file (a fresh download's files are all pending, and none is there).
    private func removeUnrecordedFiles(_ pending: [FileRow]) {
        var listed: [String: Set<String>] = [:]
        for file in pending {
            let url = store.file(file.path, of: token)
            let folder = url.deletingLastPathComponent().path
            if listed[folder] == nil { listed[folder] = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []) }
            if listed[folder]?.contains(url.lastPathComponent) == true { try? FileManager.default.removeItem(at: url) }
        }
    }

    private func fetchKeys() async throws {
        for key in try store.pendingKeys(token) {
            let loaded: StreamingLoader.Loaded
            do {
                loaded = try await loader.load(.key, url: key.url, maxBytes: 4_096)
            } catch {
                if error.code == .cancelled { throw CancellationError() }
                if error.code == .httpStatus, error.httpStatus == 401 || error.httpStatus == 403 {
                    throw OfflineError(
                        .downloadFailure,
                        "The key server refused the decryption key (HTTP \(error.httpStatus!)) for \(Redaction.redact(url: key.url)): it needs the app's token; add it with a request filter for key requests"
                    )
                }
                throw OfflineError.download(error, what: "the decryption key \(key.name)")
            }
            guard loaded.body.count == 16 else {
                throw OfflineError(
                    .downloadFailure,
                    "The decryption key \(key.name) from \(Redaction.redact(url: key.url)) has \(loaded.body.count) bytes; an AES-128 key has 16")
            }
            try store.storeKey(token, name: key.name, material: loaded.body)
        }
    }

    /// Fetches one file into its part; returns it written and checked, not yet final.
    private func fetch(_ file: FileRow) async throws -> PartFile.Written {
        try checkStorage(file.estimatedBytes)
        let store = self.store
        let token = self.token
        let path = file.path
        // A learned length is recorded on the store thread, not on the connection's path (the response head
        // arrives on the event loop); the file's own commit is queued after it and fails if it could not be.
        let storeThread = self.storeThread
        let unrecorded = self.unrecordedLengths
        let part = PartFile(finalURL: store.file(file.path, of: token), knownLength: file.expectedLength, knownValidator: file.validator) { length, validator in
            storeThread.submit {
                do {
                    try store.setExpectedLength(token, path: path, length: length, validator: validator)
                } catch {
                    unrecorded.withLock { $0[path] = "\(error)" }
                }
            }
        }
        defer { part.closeQuietly() }
        let outcome: DownloadOutcome
        do {
            // Progress is reported from the store thread, in order with the file's commit: the consumer runs
            // on the event loop that reads every connection, where an index read or an app callback must not.
            // Throttled at the source: a hop per chunk cost a thread wake-up per 64 KiB.
            let report = ThrottledProgress(path: path, thread: storeThread, interval: progressInterval, deliver: onPartial)
            outcome = try await loader.download(file.kind, url: file.url, byteRange: file.byteRange, into: part) { held in report.note(held) }
        } catch {
            if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
            throw OfflineError.download(error, what: "\(path) (\(Redaction.redact(url: file.url)))")
        }
        if file.kind == .segment || file.kind == .initSegment, outcome.length > 0 {
            try checkMedia(part, path: path, url: file.url)
        }
        do {
            return try part.finishWriting()
        } catch {
            throw OfflineError(.storageFailed, "Storing \(path) failed: \(error)")
        }
    }

    /// Makes a written file final — hashed, flushed to disk, at its name — and only then records it done.
    private func commit(_ file: FileRow, _ part: PartFile.Written) throws {
        if let reason = unrecordedLengths.withLock({ $0[file.path] }) {
            throw OfflineError(.storageFailed, "Storing \(file.path) failed: its length could not be recorded in the index (\(reason))")
        }
        let sha256: String
        do {
            sha256 = try part.commit()
        } catch {
            throw OfflineError(.storageFailed, "Storing \(file.path) failed: \(error)")
        }
        try store.markDone(token, path: file.path, length: part.length, sha256: sha256)
        onFile(file.path, Int64(part.length))
    }

    /// A segment must be media: an HTML error page answered with 200 is a failed download, not a file.
    private func checkMedia(_ part: PartFile, path: String, url: URL) throws {
        var head = part.leadingBytes() ?? Data()
        if head.isEmpty {
            // A resumed part: its first bytes came from an earlier attempt.
            do {
                let handle = try FileHandle(forReadingFrom: part.partURL)
                defer { try? handle.close() }
                head = try handle.read(upToCount: PartFile.leadingCapacity) ?? Data()
            } catch {
                throw OfflineError(.storageFailed, "Storing \(path) failed: its bytes could not be read back (\(OfflineStore.reason(error)))")
            }
        }
        // Encrypted segments are noise until decrypted: only a document (a page) is refused for them.
        if MediaSniffer.segmentFormat(head) == nil, MediaSniffer.looksLikeDocument(head) {
            try? FileManager.default.removeItem(at: part.partURL)
            throw OfflineError(
                .downloadFailure,
                "Downloading \(path) (\(Redaction.redact(url: url))) failed: the server sent a document, not media; check the URL (a captive portal or CDN error page answers like this)"
            )
        }
    }
}

/// Paths whose learned length the index did not take, with why.
private final class UnrecordedLengths: Sendable {
    private let reasons = Mutex<[String: String]>([:])

    func withLock<T>(_ body: (inout [String: String]) -> T) -> T { reasons.withLock { body(&$0) } }
}

/// A file's progress on its way to the store thread: at most one report per `interval` (the manager
/// reports progress no more often than that anyway). Reports queued before the file's commit run before
/// it (one serial queue); the commit itself accounts for the file's last bytes.
private final class ThrottledProgress: Sendable {
    private let path: String
    private let thread: StoreThread
    private let interval: Duration
    private let deliver: @Sendable (String, Int) -> Void
    private let lastQueued = Mutex<ContinuousClock.Instant?>(nil)

    init(path: String, thread: StoreThread, interval: Duration, deliver: @escaping @Sendable (String, Int) -> Void) {
        self.path = path
        self.thread = thread
        self.interval = interval
        self.deliver = deliver
    }

    func note(_ held: Int) {
        let now = ContinuousClock.now
        let due = lastQueued.withLock { last -> Bool in
            if let last, now - last < interval { return false }
            last = now
            return true
        }
        guard due else { return }
        let (path, deliver) = (self.path, self.deliver)
        thread.submit { deliver(path, held) }
    }
}

/// Hands out file positions to a download's connections, each once.
private final class NextIndex: Sendable {
    private let value = Mutex(0)

    func take() -> Int {
        value.withLock { current in
            defer { current += 1 }
            return current
        }
    }
}
