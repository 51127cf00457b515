import CoveCore
import Foundation
import Synchronization

/// Watches one controller of a chaos run: a session consumer that checks the lifecycle grammar as the
/// events arrive (nothing after a session's `Terminate`, every session terminated by shutdown, no `Play` before `Ready`, no `Ready` after `Fail` but through a resume,
/// one `Ready`, no second `End` without a seek, play or resume between, every seek answered once and
/// landing where it was sent) and keeps what a checkpoint asks about. It holds no session (only ids), so
/// watching keeps no engine player alive.
final class ChaosWatch: PlaybackSessionConsumer {
    struct SessionState: Sendable {
        let id: Int
        let stream: ChaosStream?
        var ready = 0
        var failedToLoad = false
        var terminated = false
        /// A (first or next) `End` is lawful.
        var endArmed = true
        var lastPlayRequest = -1
        /// The last event that stops a play request: `PauseRequest`, `End`, a failure, `ResumeBegin`.
        var lastStop = -1
        /// Playhead moves (a progress report at a new position) plus outcomes (`End`, failures).
        var moves = 0
        var lastPosition: MediaTime?
        var duration: Duration?
        var isLive = false
        var seekable: [TimeRange] = []

        var wantsToPlay: Bool { lastPlayRequest > lastStop }
        var describe: String { "session \(id)\(stream.map { " (\($0.name))" } ?? "")" }
    }

    struct Seek: Sendable {
        let target: MediaTime
        let tolerance: ChaosSeekTolerance
        let text: String
        var answers = 0
    }

    struct Landing: Sendable {
        let seek: Int
        let session: Int
        let at: ContinuousClock.Instant
    }

    struct State: Sendable {
        var index = 0
        var sessions: [Int: SessionState] = [:]
        var current: Int?
        var sessionsSeen = 0
        /// `setVideos` was issued and no session (or `NoPlayableVideosFound`) followed yet.
        var awaitingSession = false
        var streamEnded: ContinuousClock.Instant?
        var seeks: [Int: Seek] = [:]
        var nextSeek = 0
        var landing: Landing?
        var recent: [String] = []
        /// The last sign of recovery work (a retry, an error, a stall, a rebuild): a hang's deadline moves with it.
        var lastRecovery = ContinuousClock.Instant.now
    }

    let state = Mutex(State())
    private let streams: [String: ChaosStream]
    private let report: @Sendable (ChaosViolation.Kind, String, [String]) -> Void
    private let started: ContinuousClock.Instant
    private let checksLandings: Bool

    /// `report` gets each violation with the controller's last events. `checksLandings` checks where seeks
    /// land (for a controller paced in real time: unsynchronised, the playhead runs ahead too fast to tell a
    /// seek's own report from a later one).
    /// Event times are shown from `started` (the run's start).
    init(
        streams: [ChaosStream], started: ContinuousClock.Instant, checksLandings: Bool,
        report: @escaping @Sendable (ChaosViolation.Kind, String, [String]) -> Void
    ) {
        var byURL: [String: ChaosStream] = [:]
        for stream in streams { byURL[stream.video.sources.first?.url.absoluteString ?? ""] = stream }
        self.streams = byURL
        self.report = report
        self.checksLandings = checksLandings
        self.started = started
    }

    var snapshot: State { state.withLock { $0 } }

    // MARK: Commands the runner issues

    func willSetVideos() {
        state.withLock { $0.awaitingSession = true }
    }

    /// A seek about to be sent: its id, for `answered`.
    func issueSeek(_ target: MediaTime, tolerance: ChaosSeekTolerance, text: String) -> Int {
        state.withLock { s in
            s.nextSeek += 1
            s.seeks[s.nextSeek] = Seek(target: target, tolerance: tolerance, text: text)
            s.landing = nil
            if let current = s.current { s.sessions[current]?.endArmed = true }
            return s.nextSeek
        }
    }

    func willResume() {
        state.withLock { s in
            s.landing = nil
            if let current = s.current { s.sessions[current]?.endArmed = true }
        }
    }

    /// A seek's completion ran.
    func answered(_ id: Int, succeeded: Bool) {
        let problem = state.withLock { s -> String? in
            guard var seek = s.seeks[id] else { return "an answer to seek #\(id), which was never sent" }
            seek.answers += 1
            s.seeks[id] = seek
            if seek.answers > 1 { return "seek #\(id) (\(seek.text)) answered \(seek.answers) times" }
            if succeeded, let current = s.current { s.landing = Landing(seek: id, session: current, at: .now) }
            return nil
        }
        if let problem { report(.grammar, problem, snapshot.recent) }
    }

    /// Seeks sent and not answered yet, oldest first.
    var unansweredSeeks: [(id: Int, seek: Seek)] {
        state.withLock { s in s.seeks.filter { $0.value.answers == 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    func streamDidEnd() {
        state.withLock { $0.streamEnded = .now }
    }

    /// Sessions seen that have not reported `Terminate` (yet).
    var unterminatedSessions: [SessionState] {
        state.withLock { s in s.sessions.values.filter { !$0.terminated }.sorted { $0.id < $1.id } }
    }

    // MARK: Events

    func didReceive(_ event: PlaybackEvent) {
        let now = ContinuousClock.Instant.now
        var problems: [String] = []
        state.withLock { s in
            let index = s.index
            s.index += 1
            switch event {
            case .progress, .mediaTransferred, .availableCommandsChanged, .adProgressed: break
            default:
                let at = now - started
                s.recent.append("t+\(chaosSeconds(Double(at.components.seconds) + Double(at.components.attoseconds) / 1e18)) #\(index) \(event)")
                if s.recent.count > 80 { s.recent.removeFirst(s.recent.count - 80) }
            }
            switch event {
            case .sessionAdvanced(let session):
                let stream = session.video.sources.first.flatMap { streams[$0.url.absoluteString] }
                s.sessions[session.id] = SessionState(id: session.id, stream: stream)
                s.current = session.id
                s.sessionsSeen += 1
                s.awaitingSession = false
                return
            case .noPlayableVideosFound:
                s.awaitingSession = false
                return
            default: break
            }
            guard let id = event.session?.id else { return }
            var session = s.sessions[id] ?? SessionState(id: id, stream: nil)
            defer { s.sessions[id] = session }
            if session.terminated {
                problems.append("\(event) for \(session.describe) after its Terminate")
            }
            switch event {
            case .lifecycle(_, let lifecycle):
                handle(lifecycle, index: index, session: &session, state: &s, now: now, problems: &problems)
            case .progress(_, let time):
                if time != session.lastPosition { session.moves += 1 }
                session.lastPosition = time
                if let landing = s.landing, landing.session == id {
                    s.landing = nil
                    // The seek's own report follows its answer at once; a later one is the ticker's (not checked).
                    if checksLandings, now - landing.at < .milliseconds(60), let seek = s.seeks[landing.seek],
                        let problem = Self.landingProblem(seek, at: time, in: session)
                    {
                        problems.append(problem)
                    }
                }
            case .durationChanged(_, let duration):
                session.duration = duration
            case .videoTypeDetermined(_, let type):
                session.isLive = type == .live
            case .seekableRangesChanged(_, let ranges):
                session.seekable = ranges
            case .retry:
                s.lastRecovery = now
            default: break
            }
        }
        let recent = problems.isEmpty ? [] : snapshot.recent
        for problem in problems { report(.grammar, problem, recent) }
    }

    private func handle(
        _ lifecycle: LifecycleEvent, index: Int, session: inout SessionState, state s: inout State, now: ContinuousClock.Instant, problems: inout [String]
    ) {
        switch lifecycle {
        case .ready:
            if session.failedToLoad { problems.append("Ready after Fail in \(session.describe)") }
            if session.ready > 0 { problems.append("a second Ready in \(session.describe)") }
            session.ready += 1
        case .play:
            if session.ready == 0 { problems.append("Play before Ready in \(session.describe)") }
        case .playRequest:
            session.lastPlayRequest = index
            session.endArmed = true
        case .pauseRequest:
            session.lastStop = index
        case .end:
            if !session.endArmed { problems.append("a second End in \(session.describe) with no seek, play or resume since the first") }
            session.endArmed = false
            session.lastStop = index
            session.moves += 1
        case .fail:
            session.failedToLoad = true
            session.lastStop = index
            session.moves += 1
        case .failedToPlayToEndTime, .resumeFail:
            session.lastStop = index
            session.moves += 1
        case .resumeBegin:
            // What a resume leaves playing depends on its autoPlay; the next play request says it again. A
            // session that never loaded loads afresh (its Ready comes then).
            session.lastStop = index
            session.failedToLoad = false
            session.endArmed = true
            s.lastRecovery = now
        case .resumeComplete, .error, .stalled, .bufferEmpty, .recovered:
            s.lastRecovery = now
        case .terminate:
            session.terminated = true
            if s.current == session.id { s.current = nil }
        default: break
        }
    }

    /// Why a landed seek is not where it was sent (nil when it is), for on-demand media of known duration:
    /// the target clamped to 0…duration, within 0.6 s (a keyframe seek: the keyframe interval more); a
    /// target at the end may land on the last keyframe.
    static func landingProblem(_ seek: Seek, at position: MediaTime, in session: SessionState) -> String? {
        guard !session.isLive, let duration = session.duration, position.isFinite, seek.target.isFinite else { return nil }
        let end = MediaTime(duration).seconds
        let target = min(max(seek.target.seconds, 0), end)
        let keyframe = MediaTime(session.stream?.keyframeInterval ?? .seconds(2)).seconds
        let slack = 0.6 + (seek.tolerance == .keyframe ? keyframe : 0)
        let landed = position.seconds
        if target >= end - keyframe - 0.1, landed >= end - keyframe - slack { return nil }
        guard abs(landed - target) > slack else { return nil }
        return
            "seek \(seek.text) (to \(chaosSeconds(seek.target.seconds)), clamped \(chaosSeconds(target)) of \(chaosSeconds(end))) landed at \(chaosSeconds(landed)) in "
            + "\(session.describe) (allowed ±\(chaosSeconds(slack)))"
    }
}

/// Seconds with millisecond precision, for messages.
func chaosSeconds(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let millis = Int((value * 1000).rounded())
    let sign = millis < 0 ? "-" : ""
    let magnitude = abs(millis)
    let fraction = String(magnitude % 1000)
    return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
}
