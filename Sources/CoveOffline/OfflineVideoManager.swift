import CoveCore
import CovePlaybackService
import CoveStreaming
import Foundation
import Logging
import Synchronization

/// Downloads videos for offline playback and plays them back from the store (the seed's
/// `BCOVOfflineVideoManager`).
///
/// Downloads go through the streaming engine's loader — the same request filters, retry policy and
/// accounting as online playback — into a store on disk (`OfflineStore`: files plus a GRDB index).
/// `videoObject(fromOfflineVideoToken:)` gives a `Video` whose source is the stored copy
/// (`cove-offline://TOKEN/master.m3u8`); any controller plays it with no network request at all, because
/// `cove-offline:` URLs are answered by this manager through `LocalResources`.
///
/// One manager per store: a second one on the same root (in any process) is refused with `storeInUse`.
public final class OfflineVideoManager: Sendable {
    /// The URL scheme of stored copies.
    public static let scheme = "cove-offline"

    public let root: URL
    public let configuration: OfflineConfiguration
    let store: OfflineStore
    private let loader: StreamingLoader
    private let planner: DownloadPlanner
    private let logger: Logger
    private let state = Mutex(ManagerState())

    struct ManagerState {
        var running: [OfflineVideoToken: Task<Void, Never>] = [:]
        var queue: [OfflineVideoToken] = []
        var subscribers: [UUID: AsyncStream<OfflineEvent>.Continuation] = [:]
        var delegate: (any OfflineVideoManagerDelegate)?
        var closed = false
        /// Bytes held in part files of running downloads, by token and path.
        var partial: [OfflineVideoToken: [String: Int]] = [:]
        var lastProgress: [OfflineVideoToken: ContinuousClock.Instant] = [:]
        /// Waiting for a download to end (completed, failed, paused, cancelled).
        var waiters: [OfflineVideoToken: [CheckedContinuation<Void, Never>]] = [:]
        /// Being stopped by pause, cancel or delete: not settled until that call has recorded the new state.
        var stopping: Set<OfflineVideoToken> = []
        /// Resumed while its task was still finishing (a failure just reported): queued again when it ends.
        var requeue: Set<OfflineVideoToken> = []
    }

    /// No task, no queue entry, no stop in progress: the state in the index is the download's final word.
    private static func isSettled(_ token: OfflineVideoToken, _ s: ManagerState) -> Bool {
        s.running[token] == nil && !s.queue.contains(token) && !s.stopping.contains(token) && !s.requeue.contains(token)
    }

    /// Opens (or creates) the store at `root`. `transport` makes the downloads' requests (the app's
    /// `AsyncHTTPClientTransport.shared`, or a test's).
    public init(
        root: URL, transport: any HTTPTransport, configuration: OfflineConfiguration = OfflineConfiguration(), logger: Logger = Logger(label: "cove.offline")
    ) throws(OfflineError) {
        self.root = root.standardizedFileURL
        self.configuration = configuration
        self.logger = logger
        store = try OfflineStore(root: root)
        let streaming = configuration.streaming
        loader = StreamingLoader(transport: transport, filters: streaming.requestFilters, retry: streaming.retryPolicy, timeout: streaming.requestTimeout)
        planner = DownloadPlanner(
            loader: loader, wallClock: { configuration.now().timeIntervalSince1970 }, decryptionModules: configuration.streaming.decryptionModules)
        OfflineResourceRouter.shared.add(self)
        // Queued only once recovery succeeded: an init that throws leaves nothing running.
        for token in try recover() { enqueue(token) }
    }

    deinit {
        OfflineResourceRouter.shared.remove(self)
    }

    /// Stops every running download — they stay as they were (requested or downloading, their parts kept),
    /// so the next manager on the store carries them on, as after an app restart — ends the event streams
    /// and releases the store for another manager.
    public func close() async {
        let (tasks, subscribers) = state.withLock { s -> ([OfflineVideoToken: Task<Void, Never>], [AsyncStream<OfflineEvent>.Continuation]) in
            s.closed = true
            s.queue = []
            defer { s.running = [:]; s.subscribers = [:] }
            return (s.running, Array(s.subscribers.values))
        }
        for task in tasks.values {
            task.cancel()
            await task.value
        }
        for continuation in subscribers { continuation.finish() }
        OfflineResourceRouter.shared.remove(self)
        store.release()
        wakeAllWaiters()
    }

    // MARK: Events

    /// Every event from now on, in order. Each call makes a new stream; it ends when the manager closes.
    public func events() -> AsyncStream<OfflineEvent> {
        let (stream, continuation) = AsyncStream<OfflineEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        let closed = state.withLock { s -> Bool in
            if !s.closed { s.subscribers[id] = continuation }
            return s.closed
        }
        if closed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    /// The seed's delegate (held weakly is the app's job: it is held strongly here until replaced).
    public func setDelegate(_ delegate: (any OfflineVideoManagerDelegate)?) {
        state.withLock { $0.delegate = delegate }
    }

    private func emit(_ event: OfflineEvent) {
        let (subscribers, delegate) = state.withLock { (Array($0.subscribers.values), $0.delegate) }
        for continuation in subscribers { continuation.yield(event) }
        guard let delegate else { return }
        switch event {
        case .progress(let token, let bytes, let total):
            delegate.offlineVideoToken(token, didProgressTo: total > 0 ? min(100, Double(bytes) / Double(total) * 100) : 0)
        case .completed(let token): delegate.offlineVideoToken(token, didFinishDownloadWithError: nil)
        case .failed(let token, let error): delegate.offlineVideoToken(token, didFinishDownloadWithError: error)
        case .paused(let token): delegate.downloadWasPaused(forOfflineVideoToken: token)
        case .storageChanged: delegate.offlineVideoStorageDidChange()
        default: break
        }
    }

    // MARK: Requests

    /// What a download of `video` with `parameters` would store, in bytes (the seed's
    /// `estimateDownloadSize`, which answers in MB): exact for byte-ranged segments, from declared
    /// bitrates otherwise. Loads the manifest and the chosen playlists; stores nothing.
    public func estimateDownloadSize(_ video: Video, parameters: OfflineDownloadParameters = OfflineDownloadParameters()) async throws(OfflineError) -> Int64 {
        try checkDownloadable(video)
        return try await planner.plan(video, parameters: parameters).estimatedBytes
    }

    /// Plans, records and queues a download of `video`; returns its token at once (the download runs in
    /// the background: follow it with `events()` or `status(of:)`). Fails before storing anything when the
    /// video cannot be downloaded, a parameter is wrong, or the storage limit would be passed.
    @discardableResult
    public func requestVideoDownload(
        _ video: Video, parameters: OfflineDownloadParameters = OfflineDownloadParameters()
    ) async throws(OfflineError) -> OfflineVideoToken {
        try checkOpen()
        try checkDownloadable(video)
        let plan = try await planner.plan(video, parameters: parameters)
        // Closed while planning: the store may already belong to another manager.
        try checkOpen()
        try checkStorage(adding: plan.estimatedBytes)
        let token = OfflineVideoToken.make()
        let source = try DownloadPlanner.downloadableSource(of: video, parameters: parameters, keySystems: configuration.streaming.decryptionModules.keySystems)
        let now = configuration.now()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let name =
            parameters.displayName ?? video.name
            ?? (source.url.deletingPathExtension().lastPathComponent.isEmpty ? token.rawValue : source.url.lastPathComponent)
        do {
            try store.insert(
                NewDownload(
                    token: token, displayName: name, videoID: video.id, sourceURL: source.url.absoluteString,
                    videoJSON: PlaybackAPIEncoder.json(video).serialized(), parametersJSON: String(decoding: try encoder.encode(parameters), as: UTF8.self),
                    layoutJSON: String(decoding: try encoder.encode(plan.layout), as: UTF8.self), requestedAt: now, terms: parameters.license
                ),
                plan: plan
            )
        } catch let error as OfflineError {
            throw error
        } catch {
            throw OfflineError(.storageFailed, "The download could not be recorded: \(error)")
        }
        logger.info("Download requested", metadata: ["token": "\(token)", "files": "\(plan.files.count)", "estimatedBytes": "\(plan.estimatedBytes)"])
        emit(.requested(token, estimatedBytes: plan.estimatedBytes))
        enqueue(token)
        return token
    }

    private func checkOpen() throws(OfflineError) {
        if state.withLock({ $0.closed }) {
            throw OfflineError(.invalidState, "The offline video manager was closed; make a new one for the store at \(root.path)")
        }
    }

    /// The catalog's `offline_enabled` decides for catalog videos (the seed's `canBeDownloaded`: a catalog
    /// video without the flag may not be downloaded); a video made from a URL has no catalog and may be.
    private func checkDownloadable(_ video: Video) throws(OfflineError) {
        let isCatalogVideo = video.id != nil
        if isCatalogVideo ? !video.canBeDownloaded : video.properties[Video.PropertyKey.offlineEnabled]?.boolValue == false {
            throw OfflineError(
                .notDownloadable,
                "The video \(video.id.map { "\"\($0)\" " } ?? "")is not enabled for offline playback in the catalog (offline_enabled is \(video.properties[Video.PropertyKey.offlineEnabled]?.boolValue == false ? "false" : "missing")); enable it in Video Cloud to download it"
            )
        }
        if video.isOfflinePlayback {
            throw OfflineError(.invalidParameter, "The video is already a downloaded copy; download the catalog video instead")
        }
    }

    private func checkStorage(adding bytes: Int64, excluding token: OfflineVideoToken? = nil) throws(OfflineError) {
        guard let limit = configuration.storageLimit else { return }
        let used = try store.usedBytes()
        let reserved = try store.reservedBytes(excluding: token)
        if used + reserved + bytes > limit {
            throw OfflineError(
                .storageLimitReached,
                "The download needs about \(Self.megabytes(bytes)) but the store has \(Self.megabytes(max(0, limit - used - reserved))) of its \(Self.megabytes(limit)) limit left (\(Self.megabytes(used)) stored, \(Self.megabytes(reserved)) promised to unfinished downloads); delete downloads or raise the limit"
            )
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    // MARK: Control

    /// Stops a download, keeping what it stored (parts included) for `resumeVideoDownload`.
    public func pauseVideoDownload(_ token: OfflineVideoToken) async throws(OfflineError) {
        let row = try existing(token)
        guard row.state == .requested || row.state == .downloading else {
            if row.state == .paused { return }
            throw OfflineError(.invalidState, "Download \(token) is \(row.state); only a requested or running download can be paused")
        }
        try checkOpen()
        await stop(token)
        defer { stopped(token) }
        // It may have completed (or failed) while it was being stopped: that state stands.
        guard try store.transition(token, to: .paused, from: [.requested, .downloading]) else { return }
        emit(.paused(token))
    }

    /// Carries on a paused, failed or interrupted download from the bytes already stored.
    public func resumeVideoDownload(_ token: OfflineVideoToken) throws(OfflineError) {
        try checkOpen()
        let row = try existing(token)
        switch row.state {
        case .paused, .failed:
            try checkStorage(adding: 0)
            guard try store.transition(token, to: .requested, from: [.paused, .failed]) else { return try resumeVideoDownload(token) }
            enqueue(token)
        case .requested, .downloading:
            enqueue(token)
        case .completed:
            throw OfflineError(.invalidState, "Download \(token) is already complete")
        case .cancelled:
            throw OfflineError(.invalidState, "Download \(token) was cancelled; request the video again")
        }
    }

    /// Stops a download and removes its files; the token stays listed as cancelled until deleted.
    public func cancelVideoDownload(_ token: OfflineVideoToken) async throws(OfflineError) {
        let row = try existing(token)
        guard row.state != .completed && row.state != .cancelled else {
            throw OfflineError(.invalidState, "Download \(token) is \(row.state); delete it instead")
        }
        try checkOpen()
        await stop(token)
        defer { stopped(token) }
        // The index first, then the files: a process ending in between leaves a cancelled download whose folder
        // the next manager removes, never a "completed" one with its files gone.
        guard try store.transition(token, to: .cancelled, from: [.requested, .downloading, .paused, .failed]) else {
            throw OfflineError(.invalidState, "Download \(token) completed before it could be cancelled; delete it instead")
        }
        try store.resetFiles(token)
        try? FileManager.default.removeItem(at: store.folder(of: token))
        emit(.cancelled(token))
        emit(.storageChanged(usedBytes: (try? store.usedBytes()) ?? 0))
    }

    /// Removes a download — files, keys and its index entry — whatever its state.
    public func deleteOfflineVideo(_ token: OfflineVideoToken) async throws(OfflineError) {
        try checkOpen()
        _ = try existing(token)
        await stop(token)
        defer { stopped(token) }
        // The index entry first: a folder without one is removed by the next manager if this process ends here.
        try store.remove(token)
        do {
            let folder = store.folder(of: token)
            if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
        } catch {
            throw OfflineError(
                .storageFailed,
                "The files of download \(token) could not be removed: \(OfflineStore.reason(error)); the download is forgotten, the folder is removed when a manager next opens the store"
            )
        }
        emit(.deleted(token))
        emit(.storageChanged(usedBytes: (try? store.usedBytes()) ?? 0))
    }

    /// Waits until the download is no longer requested or running (completed, failed, paused, cancelled or
    /// deleted) and returns its status then (nil when deleted).
    public func waitUntilSettled(_ token: OfflineVideoToken) async -> OfflineVideoStatus? {
        while true {
            let settled = state.withLock { s in Self.isSettled(token, s) }
            if settled { return try? status(of: token) }
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { s -> Bool in
                    if Self.isSettled(token, s) { return true }
                    s.waiters[token, default: []].append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    private func wakeWaiters(_ token: OfflineVideoToken) {
        let waiting = state.withLock { $0.waiters.removeValue(forKey: token) ?? [] }
        for continuation in waiting { continuation.resume() }
    }

    private func wakeAllWaiters() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            defer { s.waiters = [:] }
            return s.waiters.values.flatMap { $0 }
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Stops the download's task; it counts as unsettled until `stopped(_:)` (after its caller recorded the
    /// new state), so a waiter never reads the state in between.
    private func stop(_ token: OfflineVideoToken) async {
        let task = state.withLock { s -> Task<Void, Never>? in
            s.queue.removeAll { $0 == token }
            s.requeue.remove(token)
            s.stopping.insert(token)
            return s.running[token]
        }
        task?.cancel()
        await task?.value
    }

    private func stopped(_ token: OfflineVideoToken) {
        state.withLock { _ = $0.stopping.remove(token) }
        wakeWaiters(token)
    }

    func existing(_ token: OfflineVideoToken) throws(OfflineError) -> DownloadRow {
        guard let row = try store.download(token) else {
            throw OfflineError(.unknownToken, "No download has the token \(token) in the store at \(root.path); list them with offlineVideoStatus()")
        }
        return row
    }

    // MARK: Status

    /// Every download's token, oldest first (the seed's `offlineVideoTokens`).
    public var offlineVideoTokens: [OfflineVideoToken] {
        get throws(OfflineError) { try store.downloads().map(\.token) }
    }

    /// Every download's status, oldest first.
    public func offlineVideoStatus() throws(OfflineError) -> [OfflineVideoStatus] {
        try store.downloads().map { row throws(OfflineError) in try status(of: row) }
    }

    public func status(of token: OfflineVideoToken) throws(OfflineError) -> OfflineVideoStatus {
        try status(of: try existing(token))
    }

    private func status(of row: DownloadRow) throws(OfflineError) -> OfflineVideoStatus {
        let totals = try store.totals(of: row.token)
        let partial = Int64(state.withLock { $0.partial[row.token]?.values.reduce(0, +) ?? 0 })
        let done = totals.doneBytes + partial
        return OfflineVideoStatus(
            token: row.token, state: row.state, displayName: row.displayName, videoID: row.videoID, sourceURL: Redaction.redact(urlString: row.sourceURL),
            requestedAt: row.requestedAt,
            downloadStartTime: row.startedAt, downloadEndTime: row.endedAt, bytesDownloaded: done,
            estimatedTotalBytes: max(totals.doneBytes + totals.pendingEstimate, done), filesCompleted: totals.filesDone, fileCount: totals.fileCount,
            error: row.state == .failed ? row.error : nil, licenseExpiration: row.licenseExpiration
        )
    }

    /// Bytes of finished files in the store.
    public func usedBytes() throws(OfflineError) -> Int64 { try store.usedBytes() }

    // MARK: Licences

    /// Starts the licence again from now with `terms` (the seed's renew). Online apps call it after
    /// checking the viewer's rights.
    public func renewLicense(_ token: OfflineVideoToken, terms: OfflineLicenseTerms) throws(OfflineError) {
        try checkOpen()
        try terms.validate()
        _ = try existing(token)
        try store.updateLicense(token, requestedAt: configuration.now(), terms: terms)
        emit(.licenseChanged(token, expiration: try existing(token).licenseExpiration))
    }

    /// Makes the download unplayable until renewed (the seed's invalidate).
    public func invalidateLicense(_ token: OfflineVideoToken) throws(OfflineError) {
        try checkOpen()
        _ = try existing(token)
        try store.invalidateLicense(token)
        emit(.licenseChanged(token, expiration: configuration.now()))
    }

    // MARK: Scheduling

    /// Tidies what an ended process left and returns the downloads to carry on.
    private func recover() throws(OfflineError) -> [OfflineVideoToken] {
        let rows = try store.downloads()
        let known = Set(rows.map(\.token.rawValue))
        // A folder without an index entry was being recorded when a process ended: nothing refers to it.
        let downloads = store.root.appendingPathComponent(OfflineStore.downloadsFolder)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? [] where !known.contains(name) {
            try? FileManager.default.removeItem(at: downloads.appendingPathComponent(name))
        }
        var resume: [OfflineVideoToken] = []
        for row in rows {
            switch row.state {
            case .downloading, .requested:
                if configuration.resumesInterruptedDownloads {
                    try store.setState(row.token, .requested)
                    resume.append(row.token)
                } else {
                    try store.setState(row.token, .paused)
                }
            case .cancelled:
                // Cancelled, but the process ended before its files were removed.
                let folder = store.folder(of: row.token)
                if FileManager.default.fileExists(atPath: folder.path) { try? FileManager.default.removeItem(at: folder) }
            default:
                break
            }
        }
        return resume
    }

    private func enqueue(_ token: OfflineVideoToken) {
        state.withLock { s in
            guard !s.closed, !s.queue.contains(token) else { return }
            if s.running[token] != nil {
                // Its task is still finishing (a failure being reported): queued again when it has.
                s.requeue.insert(token)
            } else {
                s.queue.append(token)
            }
        }
        schedule()
    }

    private func schedule() {
        let started = state.withLock { s -> [(OfflineVideoToken, Task<Void, Never>)] in
            var started: [(OfflineVideoToken, Task<Void, Never>)] = []
            while !s.closed && s.running.count < configuration.maxConcurrentDownloads && !s.queue.isEmpty {
                let token = s.queue.removeFirst()
                let task = Task { [self] in await self.run(token) }
                s.running[token] = task
                started.append((token, task))
            }
            return started
        }
        _ = started
    }

    private func finished(_ token: OfflineVideoToken) {
        state.withLock { s in
            s.running[token] = nil
            s.partial[token] = nil
            s.lastProgress[token] = nil
            if s.requeue.remove(token) != nil, !s.closed { s.queue.append(token) }
        }
        wakeWaiters(token)
        schedule()
    }

    private func run(_ token: OfflineVideoToken) async {
        defer { finished(token) }
        do {
            guard let row = try store.download(token), row.state == .requested || row.state == .downloading else { return }
            try store.setState(token, .downloading, started: row.startedAt == nil ? configuration.now() : nil)
            emit(.started(token))
            let runner = DownloadRunner(
                token: token, store: store, loader: loader, connections: configuration.connectionsPerDownload,
                checkStorage: { [self] bytes throws(OfflineError) in try checkStorage(adding: bytes, excluding: token) },
                onPartial: { [self] path, held in notePartial(token, path: path, held: held) },
                // Half the manager's own interval: each report it sends then counts bytes at most that old.
                progressInterval: configuration.progressInterval / 2,
                onFile: { [self] path, bytes in
                    state.withLock { _ = $0.partial[token]?.removeValue(forKey: path) }
                    emit(.fileCompleted(token, path: path, bytes: bytes))
                    reportProgress(token, force: false)
                }
            )
            try await runner.run()
            try Task.checkCancellation()
            try store.setState(token, .completed, ended: configuration.now())
            reportProgress(token, force: true)
            logger.info("Download completed", metadata: ["token": "\(token)"])
            if let layout = try store.download(token)?.layout, layout.posterPath != nil || layout.thumbnailTrackPath != nil || layout.thumbnailImagePath != nil
            {
                state.withLock { $0.delegate }?.didDownloadStaticImages(withOfflineVideoToken: token)
            }
            emit(.completed(token))
            emit(.storageChanged(usedBytes: (try? store.usedBytes()) ?? 0))
        } catch is CancellationError {
            // Paused, cancelled, deleted or closed: whoever stopped it records the state.
        } catch let error as OfflineError {
            if Task.isCancelled { return }
            logger.warning("Download failed", metadata: ["token": "\(token)", "error": "\(error)"])
            try? store.setState(token, .failed, error: error)
            emit(.failed(token, error))
        } catch {
            if Task.isCancelled { return }
            let failure = OfflineError(.downloadFailure, "The download stopped: \(error)")
            try? store.setState(token, .failed, error: failure)
            emit(.failed(token, failure))
        }
    }

    private func notePartial(_ token: OfflineVideoToken, path: String, held: Int) {
        state.withLock { $0.partial[token, default: [:]][path] = held }
        reportProgress(token, force: false)
    }

    private func reportProgress(_ token: OfflineVideoToken, force: Bool) {
        let now = ContinuousClock.now
        let due = state.withLock { s -> Bool in
            if !force, let last = s.lastProgress[token], now - last < configuration.progressInterval { return false }
            s.lastProgress[token] = now
            return true
        }
        guard due, let status = try? status(of: token) else { return }
        emit(.progress(token, bytesDownloaded: status.bytesDownloaded, estimatedTotalBytes: status.estimatedTotalBytes))
    }
}
