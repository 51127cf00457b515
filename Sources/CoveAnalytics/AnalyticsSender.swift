import CoveCore
import Foundation
import Logging
import Synchronization

/// Delivers queued events to the collector: each as one Data Collection API request
/// (`GET {destination}?event=…&…`), oldest first, in batches, whenever events arrive and every
/// `flushInterval`. A network failure, a timeout, a 5xx, 408 or 429 keeps the event queued and backs
/// off (doubling up to `maximumBackoff`) — an outage loses nothing and, as each event leaves the
/// queue only once answered, sends nothing twice. Any other 4xx (413, 400) is a refusal that retrying
/// cannot cure: the event is dropped and counted (`rejected`).
public final class AnalyticsSender: Sendable {
    public struct Configuration: Sendable {
        /// The collector: `https://metrics.brightcove.com/v2/tracker` by default.
        public var destination: URL
        /// Sent as `Authorization: Bearer …` (the seed sends the Playback Rights token to analytics).
        public var authToken: PlaybackRightsToken?
        public var batchSize: Int
        public var flushInterval: Duration
        public var initialBackoff: Duration
        public var maximumBackoff: Duration
        public var requestTimeout: Duration

        public init(
            destination: URL, authToken: PlaybackRightsToken? = nil, batchSize: Int = 20, flushInterval: Duration = .seconds(10),
            initialBackoff: Duration = .seconds(1),
            maximumBackoff: Duration = .seconds(60), requestTimeout: Duration = .seconds(10)
        ) {
            self.destination = destination
            self.authToken = authToken
            self.batchSize = max(1, batchSize)
            self.flushInterval = max(flushInterval, .milliseconds(10))
            self.initialBackoff = max(initialBackoff, .milliseconds(10))
            self.maximumBackoff = max(maximumBackoff, self.initialBackoff)
            self.requestTimeout = requestTimeout
        }
    }

    /// What the sender has done so far.
    public struct Status: Sendable, Hashable {
        /// Events this sender queued (`enqueue`), so `queued == delivered + rejected` once it drained
        /// and the queue dropped none: nothing lost.
        public var queued = 0
        public var delivered = 0
        /// Refused by the collector for good (4xx other than 408 and 429) and dropped.
        public var rejected = 0
        /// Sends that failed and will be tried again.
        public var failedAttempts = 0
    }

    public let queue: AnalyticsQueue
    private let transport: any HTTPTransport
    private let configuration: Configuration
    private let clock: any Clock<Duration>
    private let logger: Logger
    private let state = Mutex(Status())
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    private let loop = Mutex<Task<Void, Never>?>(nil)
    /// Whoever waits for the queue to drain (`flush`), by waiter number.
    private let drained = Mutex<[Int: CheckedContinuation<Void, Never>]>([:])
    private let nextWaiter = Mutex(0)

    public init(
        queue: AnalyticsQueue, transport: any HTTPTransport, configuration: Configuration, clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "cove.analytics")
    ) throws(AnalyticsError) {
        guard let scheme = configuration.destination.scheme?.lowercased(), ["http", "https"].contains(scheme), configuration.destination.host != nil else {
            throw AnalyticsError(
                .invalidDestination, "The analytics destination \(Redaction.redact(url: configuration.destination)) is not an absolute http(s) URL")
        }
        self.queue = queue
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    deinit {
        loop.withLock { $0?.cancel() }
        wake.finish()
    }

    public var status: Status { state.withLock { $0 } }

    /// Where events go.
    public var destination: URL { configuration.destination }

    /// Starts delivering (what a restart left queued goes first).
    public func start() {
        loop.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.run() }
        }
        wake.yield()
    }

    /// Stops delivering; queued events stay on disk for the next start.
    public func stop() {
        let task = loop.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        task?.cancel()
        resumeWaiters()
    }

    private func resumeWaiters() {
        for waiter in drained.withLock({ w -> [CheckedContinuation<Void, Never>] in
            defer { w.removeAll() }; return Array(w.values)
        }) { waiter.resume() }
    }

    /// Queues `events` and wakes the sender; returns how many old events the limits dropped.
    @discardableResult
    public func enqueue(_ events: [AnalyticsEvent]) throws(AnalyticsError) -> Int {
        let dropped = try queue.append(events)
        state.withLock { $0.queued += events.count }
        wake.yield()
        return dropped
    }

    /// Returns once the queue is empty (or the sender stopped, or the calling task was cancelled).
    public func flush() async {
        let id = nextWaiter.withLock { n -> Int in
            defer { n += 1 }
            return n
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let done = queue.count == 0 || loop.withLock { $0 == nil } || Task.isCancelled
                if done {
                    continuation.resume()
                } else {
                    drained.withLock { $0[id] = continuation }
                    // Cancelled or stopped meanwhile: their handlers may have run before the waiter was there.
                    if Task.isCancelled || loop.withLock({ $0 == nil }) { drained.withLock { $0.removeValue(forKey: id) }?.resume() }
                    wake.yield()
                }
            }
        } onCancel: {
            drained.withLock { $0.removeValue(forKey: id) }?.resume()
        }
    }

    private func run() async {
        var backoff: Duration?
        var iterator = wakes.makeAsyncIterator()
        while !Task.isCancelled {
            if let wait = backoff {
                try? await clock.sleep(for: wait)
            } else {
                // Woken by new events, or the flush interval passes.
                let interval = configuration.flushInterval
                let clock = self.clock
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await clock.sleep(for: interval) }
                    _ = await iterator.next()
                    group.cancelAll()
                }
            }
            guard !Task.isCancelled else { return }
            if await drain() {
                backoff = nil
                resumeWaiters()
            } else {
                backoff = min((backoff ?? configuration.initialBackoff / 2) * 2, configuration.maximumBackoff)
            }
        }
    }

    /// Sends until the queue is empty (true) or a send fails in a way worth retrying (false).
    private func drain() async -> Bool {
        while !Task.isCancelled {
            let batch: [AnalyticsQueue.Entry]
            do {
                batch = try queue.oldest(configuration.batchSize)
            } catch {
                logger.error("analytics queue unreadable", metadata: ["error": "\(error)"])
                return false
            }
            if batch.isEmpty { return true }
            for entry in batch {
                switch await send(entry.event) {
                case .delivered:
                    state.withLock { $0.delivered += 1 }
                case .refused(let status):
                    state.withLock { $0.rejected += 1 }
                    logger.warning("the collector refused an analytics event; dropped", metadata: ["event": "\(entry.event.name)", "status": "\(status)"])
                case .retryLater(let why):
                    state.withLock { $0.failedAttempts += 1 }
                    logger.notice("analytics delivery failed; will retry", metadata: ["reason": "\(why)"])
                    return false
                }
                do {
                    try queue.remove([entry.id])
                } catch {
                    logger.error("analytics queue not updated", metadata: ["error": "\(error)"])
                    return false
                }
            }
        }
        return false
    }

    private enum Outcome {
        case delivered
        case refused(Int)
        case retryLater(String)
    }

    private func send(_ event: AnalyticsEvent) async -> Outcome {
        guard var components = URLComponents(url: configuration.destination, resolvingAgainstBaseURL: false) else { return .refused(0) }
        components.queryItems =
            (components.queryItems ?? []) + [URLQueryItem(name: "event", value: event.name)]
            + event.parameters.map { URLQueryItem(name: $0.name, value: $0.value) }
        // `+` in a value must reach the collector as a plus, not a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { return .refused(0) }
        var request = HTTPRequest(url: url, timeout: configuration.requestTimeout, maxResponseBytes: 64 << 10)
        if let token = configuration.authToken { request.headers["Authorization"] = "Bearer \(token.compact)" }
        do {
            let response = try await transport.send(request)
            if response.isSuccess { return .delivered }
            if response.status == 408 || response.status == 429 || response.status >= 500 { return .retryLater("HTTP \(response.status)") }
            return .refused(response.status)
        } catch {
            return .retryLater(String(describing: error))
        }
    }
}
