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

    public init(
        upstream: any PlaybackSessionProvider, service: StreamConcurrencyService, sessionID: String? = nil, clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "cove.stream-concurrency")
    ) {
        self.upstream = upstream
        self.service = service
        self.sessionID = sessionID.flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString.lowercased()
        self.clock = clock
        self.logger = logger
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
        var interval = StreamConcurrencyService.defaultInterval
        do {
            interval = try await service.heartbeat(token: token, sessionID: slot, videoID: video.id, renewal: false).interval
        } catch {
            switch error {
            case .denied(let denial, let sessions, let status):
                if case .streamLimit = denial { context.report { .maxConcurrencyReached($0, sessions: sessions) } }
                throw PlaybackError(.playbackRightsDenied, "The stream-concurrency service refused to start this stream (\(denial)). \(denial.advice)", httpStatus: status)
            case .unavailable:
                logger.warning("the first heartbeat failed; playing, and trying again at the next", metadata: ["error": "\(error)"])
            }
        }
        plan.hooks = StreamConcurrencyHooks(
            wrapping: plan.hooks, service: service, token: token, slot: slot, videoID: video.id, interval: interval, clock: clock, logger: logger
        )
        return plan
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
    private let logger: Logger

    private struct State {
        var interval: Duration
        var session: PlaybackSession?
        var control: SessionControl?
        var beating: Task<Void, Never>?
        var ended = false
    }
    private let state: Mutex<State>

    init(
        wrapping upstream: (any PlaybackSessionHooks)?, service: StreamConcurrencyService, token: PlaybackRightsToken, slot: String, videoID: String?, interval: Duration,
        clock: any Clock<Duration>, logger: Logger
    ) {
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
        Task {
            do throws(StreamConcurrencyError) {
                try await service.release(token: token, sessionID: slot)
            } catch {
                logger.notice("the stream slot could not be released; the service frees it when heartbeats stop", metadata: ["error": "\(error)"])
            }
        }
    }

    private func stopBeating() {
        state.withLock { s in
            s.beating?.cancel()
            s.beating = nil
        }
    }

    private func startBeating() {
        state.withLock { s in
            guard s.beating == nil, !s.ended else { return }
            s.beating = Task { [self] in await beat() }
        }
    }

    /// Renews every interval until cancelled; a refusal stops the session.
    private func beat() async {
        while !Task.isCancelled {
            let interval = state.withLock { $0.interval }
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            guard !Task.isCancelled else { return }
            do throws(StreamConcurrencyError) {
                let answer = try await service.heartbeat(token: token, sessionID: slot, videoID: videoID, renewal: true)
                state.withLock { $0.interval = answer.interval }
            } catch {
                switch error {
                case .denied(let denial, let sessions, let status):
                    let (session, control) = state.withLock { s in
                        s.beating = nil
                        return (s.session, s.control)
                    }
                    guard !Task.isCancelled, let session, let control else { return }
                    if case .streamLimit = denial { control.report(.maxConcurrencyReached(session, sessions: sessions)) }
                    control.fail(PlaybackError(.playbackRightsDenied, "The stream-concurrency service stopped this stream (\(denial)). \(denial.advice)", httpStatus: status))
                    return
                case .unavailable:
                    logger.warning("a heartbeat failed; playing on, and trying again at the next", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
