import CoveCore
import Foundation
import Logging
import Synchronization

/// Stream concurrency as a session provider (the seed's `streamConcurrencyEnabled`): a video found
/// under a Playback Rights token with `uid` and `climit` takes a stream slot before it may load — a
/// refusal fails the session with `playbackRightsDenied` (and `maxConcurrencyReached` with the active
/// sessions) before any media request — and keeps the slot with heartbeats at the interval the
/// service returns while it plays. Heartbeats stop while paused and after the end; the slot is
/// released when the session ends. A heartbeat that fails without a refusal is logged and the stream
/// goes on; a refusal of a renewal stops the stream.
///
/// ```swift
/// let provider = StreamConcurrencySessionProvider(upstream: BasicSessionProvider(), service: StreamConcurrencyService(accountID: account, transport: transport))
/// let controller = PlayerSDKManager.shared.makePlaybackController(engine: engine, sessionProvider: provider)
/// ```
public struct StreamConcurrencySessionProvider: PlaybackSessionProvider {
    public let upstream: any PlaybackSessionProvider
    public let service: StreamConcurrencyService
    /// The slot's name when the token has no `sid` (the token's wins): the app's
    /// (`kBCOVAuthHeartbeatPropertyKeySessionId`), else one made for this provider, so that every
    /// video this controller plays holds the same slot.
    public let sessionID: String
    private let clock: any Clock<Duration>
    private let logger: Logger
    /// The slot's release in flight, which the next video's first heartbeat waits for (they name the same slot).
    private let releases = SlotReleases()

    public init(
        upstream: any PlaybackSessionProvider, service: StreamConcurrencyService, sessionID: String? = nil, clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "cove.stream-concurrency")
    ) {
        self.upstream = upstream
        self.service = service
        self.sessionID = sessionID.flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString.lowercased()
        self.clock = clock
        self.logger = logger
        if let proxy = service.route.overriddenProxy {
            logger.notice(
                "stream-concurrency heartbeats go to the service's own base URL, not through the proxy domain",
                metadata: ["proxy": "\(proxy)", "base": "\(Redaction.redact(url: service.route.url))"])
        }
    }

    /// Preloading would take a stream slot for a video nobody watches yet.
    public var sessionPreloadingPolicy: SessionPreloadingPolicy { .never }

    public func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
        var plan = try await upstream.prepareSession(for: video, context: context)
        guard let token = video.playbackRights else { return plan }
        guard token.claims.userID != nil, token.claims.concurrencyLimit != nil else {
            logger.notice("the video's Playback Rights token has no uid and climit: no stream limit to keep", metadata: ["video": "\(video.id ?? "?")"])
            return plan
        }
        let slot = token.claims.sessionID ?? sessionID
        // The previous video's release must land before this take, or it would free the slot just taken.
        await releases.settled()
        var interval = StreamConcurrencyService.defaultInterval
        do {
            interval = try await service.heartbeat(token: token, sessionID: slot, videoID: video.id, renewal: false).interval
        } catch {
            switch error {
            case .denied(let denial, let sessions, let status):
                if case .streamLimit = denial { context.report { .maxConcurrencyReached($0, sessions: sessions) } }
                throw PlaybackError(
                    .playbackRightsDenied, "The stream-concurrency service refused to start this stream (\(denial)). \(denial.advice)", httpStatus: status)
            case .unavailable:
                logger.warning("the first heartbeat failed; playing, and trying again at the next", metadata: ["error": "\(error)"])
            }
        }
        plan.hooks = StreamConcurrencyHooks(
            wrapping: plan.hooks, service: service, token: token, slot: slot, videoID: video.id, interval: interval, clock: clock, releases: releases,
            logger: logger
        )
        return plan
    }
}

/// Releases of a provider's slot, in flight.
final class SlotReleases: Sendable {
    private let pending = Mutex<[Task<Void, Never>]>([])

    func add(_ release: Task<Void, Never>) {
        pending.withLock { $0.append(release) }
    }

    /// Returns once every release started so far has finished.
    func settled() async {
        let releases = pending.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for release in releases { await release.value }
    }
}

/// One session's heartbeats; the upstream plugin's hooks (SSAI) are passed every call.
final class StreamConcurrencyHooks: PlaybackSessionHooks {
    private let upstream: (any PlaybackSessionHooks)?
    private let service: StreamConcurrencyService
    private let token: PlaybackRightsToken
    private let slot: String
    private let videoID: String?
    private let clock: any Clock<Duration>
    private let releases: SlotReleases
    private let logger: Logger

    private struct State {
        var interval: Duration
        var session: PlaybackSession?
        var control: SessionControl?
        var beating: Task<Void, Never>?
        /// Which heartbeat task is current: a cancelled one must not clear its successor's handle.
        var generation = 0
        /// Heartbeats ran before: playing again is a resume, which renews at once (the slot may have lapsed).
        var hasBeaten = false
        var ended = false
    }
    private let state: Mutex<State>

    init(
        wrapping upstream: (any PlaybackSessionHooks)?, service: StreamConcurrencyService, token: PlaybackRightsToken, slot: String, videoID: String?,
        interval: Duration,
        clock: any Clock<Duration>, releases: SlotReleases, logger: Logger
    ) {
        self.releases = releases
        self.upstream = upstream
        self.service = service
        self.token = token
        self.slot = slot
        self.videoID = videoID
        self.clock = clock
        self.logger = logger
        state = Mutex(State(interval: interval))
    }

    func sessionStarted(_ session: PlaybackSession, control: SessionControl) -> [PlaybackEvent] {
        state.withLock { s in
            s.session = session
            s.control = control
        }
        return upstream?.sessionStarted(session, control: control) ?? []
    }

    func reportedTime(forEngineTime position: MediaTime) -> MediaTime {
        upstream?.reportedTime(forEngineTime: position) ?? position
    }

    func engineTime(forReportedTime time: MediaTime) -> MediaTime {
        upstream?.engineTime(forReportedTime: time) ?? time
    }

    func reportedDuration(forEngineDuration duration: MediaTime?) -> MediaTime? {
        upstream.map { $0.reportedDuration(forEngineDuration: duration) } ?? duration
    }

    func playheadMoved(to position: MediaTime, jumped: Bool, ended: Bool) -> [PlaybackEvent] {
        if ended { stopBeating() }
        return upstream?.playheadMoved(to: position, jumped: jumped, ended: ended) ?? []
    }

    /// Heartbeats run while playing: paused, the slot is left to lapse as the service expects.
    func playingChanged(_ playing: Bool, at position: MediaTime) -> [PlaybackEvent] {
        if playing { startBeating() } else { stopBeating() }
        return upstream?.playingChanged(playing, at: position) ?? []
    }

    func seekRequested(to time: MediaTime, from position: MediaTime, adsDisabled: Bool, completion: (@Sendable (Bool) -> Void)?) -> HookedSeek {
        upstream?.seekRequested(to: time, from: position, adsDisabled: adsDisabled, completion: completion) ?? .seek(time)
    }

    func sessionEnded() {
        let wasRunning = state.withLock { s -> Bool in
            defer {
                s.ended = true
                s.beating?.cancel()
                s.beating = nil
            }
            return !s.ended
        }
        upstream?.sessionEnded()
        guard wasRunning else { return }
        let (service, token, slot, logger) = (service, token, slot, logger)
        releases.add(
            Task {
                do throws(StreamConcurrencyError) {
                    try await service.release(token: token, sessionID: slot)
                } catch {
                    logger.notice("the stream slot could not be released; the service frees it when heartbeats stop", metadata: ["error": "\(error)"])
                }
            })
    }

    private func stopBeating() {
        let task = state.withLock { s -> Task<Void, Never>? in
            defer {
                s.beating = nil
                s.generation += 1
            }
            return s.beating
        }
        task?.cancel()
    }

    private func startBeating() {
        let start = state.withLock { s -> (generation: Int, resume: Bool)? in
            guard s.beating == nil, !s.ended else { return nil }
            s.generation += 1
            defer { s.hasBeaten = true }
            return (s.generation, s.hasBeaten)
        }
        guard let start else { return }
        let task = Task { [self] in await beat(generation: start.generation, renewingAtOnce: start.resume) }
        let stale = state.withLock { s -> Bool in
            guard s.generation == start.generation, !s.ended else { return true }
            s.beating = task
            return false
        }
        if stale { task.cancel() }
    }

    /// Renews every interval until cancelled (at once first when resuming); a refusal stops the session.
    private func beat(generation: Int, renewingAtOnce: Bool) async {
        var waits = !renewingAtOnce
        while !Task.isCancelled {
            if waits {
                let interval = state.withLock { $0.interval }
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
            }
            waits = true
            guard !Task.isCancelled else { return }
            do throws(StreamConcurrencyError) {
                let answer = try await service.heartbeat(token: token, sessionID: slot, videoID: videoID, renewal: true)
                state.withLock { $0.interval = answer.interval }
            } catch {
                switch error {
                case .denied(let denial, let sessions, let status):
                    let (session, control) = state.withLock { s in
                        if s.generation == generation { s.beating = nil }
                        return (s.session, s.control)
                    }
                    guard !Task.isCancelled, let session, let control else { return }
                    if case .streamLimit = denial { control.report(.maxConcurrencyReached(session, sessions: sessions)) }
                    control.fail(
                        PlaybackError(
                            .playbackRightsDenied, "The stream-concurrency service stopped this stream (\(denial)). \(denial.advice)", httpStatus: status))
                    return
                case .unavailable:
                    logger.warning("a heartbeat failed; playing on, and trying again at the next", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
