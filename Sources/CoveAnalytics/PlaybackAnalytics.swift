import CoveCore
import Foundation
import Logging
import Synchronization

/// Brightcove analytics for an app's controllers (the seed's built-in analytics): the events each
/// tracked controller's playback produces (`EngagementTracker`), queued on disk and delivered by an
/// `AnalyticsSender`. One per app; `track(_:)` each controller.
public final class PlaybackAnalytics: Sendable {
    public static let defaultDestination = URL(string: "https://metrics.brightcove.com/v2/tracker")!

    public struct Configuration: Sendable {
        public var account: String
        /// Where the queue lives (a file; its folder is made).
        public var queueURL: URL
        /// The collector; nil: the proxy domain's `/v2/tracker` when one is set, else Brightcove's.
        public var destination: URL?
        /// Off: nothing is recorded or sent (the app's opt-out).
        public var isEnabled: Bool
        /// Off: events carry no viewer identifier (`user`).
        public var uniqueIdentifierEnabled: Bool
        public var authToken: PlaybackRightsToken?
        public var player: String
        public var playerName: String
        /// The page or app the video plays in.
        public var source: String?
        public var engagementInterval: Duration
        public var limits: AnalyticsQueue.Limits
        public var batchSize: Int
        public var flushInterval: Duration

        public init(
            account: String, queueURL: URL, destination: URL? = nil, isEnabled: Bool = true, uniqueIdentifierEnabled: Bool = true,
            authToken: PlaybackRightsToken? = nil,
            player: String = "cove", playerName: String = "Cove", source: String? = nil, engagementInterval: Duration = .seconds(10),
            limits: AnalyticsQueue.Limits = AnalyticsQueue.Limits(), batchSize: Int = 20, flushInterval: Duration = .seconds(10)
        ) {
            self.account = account
            self.queueURL = queueURL
            self.destination = destination
            self.isEnabled = isEnabled
            self.uniqueIdentifierEnabled = uniqueIdentifierEnabled
            self.authToken = authToken
            self.player = player
            self.playerName = playerName
            self.source = source
            self.engagementInterval = engagementInterval
            self.limits = limits
            self.batchSize = batchSize
            self.flushInterval = flushInterval
        }
    }

    public let configuration: Configuration
    /// nil when analytics is turned off.
    public let sender: AnalyticsSender?
    private let trackerConfiguration: EngagementTracker.Configuration
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let logger: Logger

    public init(
        configuration: Configuration, transport: any HTTPTransport, sdkSession: String = PlayerSDKManager.shared.sessionID,
        globalConfiguration: GlobalConfiguration = .shared,
        logger: Logger = Logger(label: "cove.analytics")
    ) throws(AnalyticsError) {
        self.configuration = configuration
        self.logger = logger
        var viewer: String?
        if configuration.isEnabled {
            let queue = try AnalyticsQueue(url: configuration.queueURL, limits: configuration.limits)
            if configuration.uniqueIdentifierEnabled { viewer = try queue.viewerID() }
            let route = globalConfiguration.route(explicit: configuration.destination, proxyPath: "/v2/tracker", brightcove: Self.defaultDestination)
            if let proxy = route.overriddenProxy {
                logger.notice(
                    "analytics go to the app's destination, not through the proxy domain",
                    metadata: ["proxy": "\(proxy)", "destination": "\(Redaction.redact(url: route.url))"])
            }
            let destination = route.url
            sender = try AnalyticsSender(
                queue: queue, transport: transport,
                configuration: .init(
                    destination: destination, authToken: configuration.authToken, batchSize: configuration.batchSize, flushInterval: configuration.flushInterval
                ),
                logger: logger
            )
            sender?.start()
        } else {
            sender = nil
        }
        trackerConfiguration = EngagementTracker.Configuration(
            account: configuration.account, player: configuration.player, playerName: configuration.playerName, session: sdkSession, viewerID: viewer,
            destination: configuration.source, engagementInterval: configuration.engagementInterval
        )
    }

    deinit { stop() }

    /// Records what `controller` plays from now on, until it shuts down or `stop()`. `pacing` is the
    /// controller's: unsynchronized playback (a probe) is not read for seeks by its speed.
    public func track(_ controller: PlaybackController, pacing: Pacing = .realTime) {
        guard let sender else { return }
        let events = controller.events
        var configuration = trackerConfiguration
        if pacing == .unsynchronized { configuration.maximumRate = nil }
        var tracker = EngagementTracker(configuration: configuration)
        let logger = self.logger
        let task = Task {
            for await event in events {
                let made = tracker.handle(event, at: Date())
                guard !made.isEmpty else { continue }
                do {
                    let dropped = try sender.enqueue(made)
                    if dropped > 0 { logger.warning("analytics queue full; oldest events dropped", metadata: ["dropped": "\(dropped)"]) }
                } catch {
                    logger.error("analytics events not stored", metadata: ["error": "\(error)"])
                }
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// `catalog_request` for a Playback API request (`url` redacted), as the seed sends it.
    public func catalogRequested(url: String) {
        recordQuietly([makeEvent("catalog_request", [.init("catalog_url", url)])])
    }

    /// `catalog_response` with the response time, or nothing when no answer came.
    public func catalogAnswered(url: String, status: Int?, responseTime: Duration) {
        guard status != nil else { return }
        let milliseconds = Int((MediaTime(responseTime).seconds * 1000).rounded())
        recordQuietly([makeEvent("catalog_response", [.init("catalog_url", url), .init("response_time_ms", String(milliseconds))])])
    }

    private func makeEvent(_ name: String, _ specific: [AnalyticsEvent.Parameter]) -> AnalyticsEvent {
        trackerConfiguration.event(name, specific, at: Date())
    }

    private func recordQuietly(_ events: [AnalyticsEvent]) {
        do {
            try record(events)
        } catch {
            logger.error("analytics events not stored", metadata: ["error": "\(error)"])
        }
    }

    /// A download event of the offline video manager (`OfflineEvent.analyticsEventName`:
    /// `video_download_request`, `…_complete`, `…_cancellation`, `…_error`) for the download `token`.
    public func downloadEvent(_ name: String, token: String, videoID: String?, errorCode: String? = nil) {
        var parameters: [AnalyticsEvent.Parameter] = [.init("offline_video_token", token)]
        if let videoID { parameters.append(.init("video", videoID)) }
        if let errorCode { parameters.append(.init("error_code", errorCode)) }
        recordQuietly([makeEvent(name, parameters)])
    }

    /// Queues events made elsewhere (catalog requests, downloads) with the same delivery.
    public func record(_ events: [AnalyticsEvent]) throws(AnalyticsError) {
        guard let sender else { return }
        try sender.enqueue(events)
    }

    /// Returns once everything recorded so far has been delivered (or the sender stopped).
    public func flush() async {
        await sender?.flush()
    }

    /// Waits for the tracked controllers to shut down (their event streams end) and for everything
    /// they produced to be delivered: for an app's exit, and for tests.
    public func finish() async {
        for task in tasks.withLock({ $0 }) { await task.value }
        await flush()
    }

    /// `finish()`, but no longer than `limit`: what is not delivered by then stays queued on disk for the
    /// next start (a command that exits while the collector is down loses nothing).
    public func finish(within limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.finish() }
            group.addTask { try? await Task.sleep(for: limit) }
            _ = await group.next()
            // Whichever came first, stopping ends the other: the tracking tasks end and a flush waiting
            // for a collector that is down returns (the group cannot leave before both have).
            stop()
            group.cancelAll()
        }
    }

    /// Stops tracking and delivering; undelivered events stay queued for the next start.
    public func stop() {
        for task in tasks.withLock({ t -> [Task<Void, Never>] in
            defer { t.removeAll() }; return t
        }) { task.cancel() }
        sender?.stop()
    }
}
