import CoveCore
import CoveStreaming
import Foundation

/// How the offline video manager downloads. A value, set once when the manager is made.
public struct OfflineConfiguration: Sendable {
    /// Downloads that run at once; the rest wait in the `requested` state (first come, first served).
    public var maxConcurrentDownloads: Int
    /// Files one download fetches at once (parallel connections to the origin).
    public var connectionsPerDownload: Int
    /// The store's size limit in bytes (finished files plus what unfinished downloads still expect); a
    /// request that would pass it is refused, and a download that grows past it stops with
    /// `storageLimitReached`. nil: no limit.
    public var storageLimit: Int64?
    /// Downloads a process left unfinished (it ended, or was killed) resume when the next manager opens
    /// the store, as Media3's download manager does; false leaves them paused until `resume`.
    public var resumesInterruptedDownloads: Bool
    /// The streaming engine's request filters, retry policy and request timeout apply to every download
    /// request (manifests, segments, keys, text, images), as they do online.
    public var streaming: StreamingConfiguration
    /// How often `.progress` is reported per download at most.
    public var progressInterval: Duration
    /// The wall clock licences are judged by. Injected so tests decide when a licence expires.
    public var now: @Sendable () -> Date

    public init(
        maxConcurrentDownloads: Int = 2, connectionsPerDownload: Int = 2, storageLimit: Int64? = nil, resumesInterruptedDownloads: Bool = true,
        streaming: StreamingConfiguration = StreamingConfiguration(retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(250))),
        progressInterval: Duration = .milliseconds(250), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.connectionsPerDownload = min(max(1, connectionsPerDownload), 8)
        self.storageLimit = storageLimit.map { max(0, $0) }
        self.resumesInterruptedDownloads = resumesInterruptedDownloads
        self.streaming = streaming
        self.progressInterval = progressInterval
        self.now = now
    }
}

/// The seed's offline delegate callbacks. Called in event order on the manager's own tasks: return
/// quickly (hand work to your own queue). Every method has an empty default.
public protocol OfflineVideoManagerDelegate: AnyObject, Sendable {
    /// Bytes stored so far, as a percentage of the (estimated) total.
    func offlineVideoToken(_ token: OfflineVideoToken, didProgressTo percent: Double)
    /// The download finished (`error` nil) or stopped with an error.
    func offlineVideoToken(_ token: OfflineVideoToken, didFinishDownloadWithError error: OfflineError?)
    func downloadWasPaused(forOfflineVideoToken token: OfflineVideoToken)
    /// The poster, thumbnail image and thumbnail track of a download are stored.
    func didDownloadStaticImages(withOfflineVideoToken token: OfflineVideoToken)
    /// Bytes used by the store changed.
    func offlineVideoStorageDidChange()
}

extension OfflineVideoManagerDelegate {
    public func offlineVideoToken(_ token: OfflineVideoToken, didProgressTo percent: Double) {}
    public func offlineVideoToken(_ token: OfflineVideoToken, didFinishDownloadWithError error: OfflineError?) {}
    public func downloadWasPaused(forOfflineVideoToken token: OfflineVideoToken) {}
    public func didDownloadStaticImages(withOfflineVideoToken token: OfflineVideoToken) {}
    public func offlineVideoStorageDidChange() {}
}
