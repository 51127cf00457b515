import CoveCore
import Foundation

/// Turns one controller's playback events into the Data Collection API events the seed SDK sends:
/// `player_load` once, then per video `video_impression` (loaded), `video_view` (first played),
/// `video_engagement` with the ranges watched, and `error`. A pure state machine (events in,
/// analytics events out), so it is tested without a network or an engine.
///
/// Watched ranges are half-open whole seconds of content (`range=3..10` covers [3 s, 10 s)): the
/// playhead's advance while playing, broken by a seek, a pause, a stall or the end, and reported when
/// broken or once `engagementInterval` of it has accumulated — so a linear watch is covered once,
/// with nothing reported twice.
///
/// Each engagement event also carries the quality of experience since the previous one, from the
/// streaming engine's own accounting (the Data Collection API's QoE fields): the variant playing
/// (`rendition_indicated_bps`, `rendition_width`, `rendition_height`, `rendition_url`), the throughput
/// its media downloads measured (`measured_bps`), stalls (`rebuffering_count`, `rebuffering_seconds`),
/// and — Cove's own field — `media_bytes`, the exact body bytes of the media, key and text requests,
/// so the events of a play add up to every byte it fetched.
public struct EngagementTracker: Sendable {
    public struct Configuration: Sendable {
        public var account: String
        /// The app's name for this player (`player`, `player_name`).
        public var player: String
        public var playerName: String
        /// The SDK session (one per app launch: `PlayerSDKManager.shared.sessionID`).
        public var session: String
        /// The viewer (`user`); nil when the app turned the unique identifier off.
        public var viewerID: String?
        /// The page or app the video plays in (`destination`).
        public var destination: String?
        public var engagementInterval: Duration
        /// The fastest the playhead moves while watching (the playback rate): a further jump ahead is a
        /// seek. nil for playback that is not paced by the clock (probes), where only the seek's frame
        /// and moves back say so.
        public var maximumRate: Double?

        public init(
            account: String, player: String = "cove", playerName: String = "Cove", session: String, viewerID: String?, destination: String? = nil,
            engagementInterval: Duration = .seconds(10), maximumRate: Double? = 4
        ) {
            self.maximumRate = maximumRate
            self.account = account
            self.player = player
            self.playerName = playerName
            self.session = session
            self.viewerID = viewerID
            self.destination = destination
            self.engagementInterval = max(engagementInterval, .seconds(1))
        }

        /// An event with the parameters every event carries (account, session, player, viewer, …) and `specific`.
        public func event(_ name: String, _ specific: [AnalyticsEvent.Parameter], at now: Date) -> AnalyticsEvent {
            var parameters: [AnalyticsEvent.Parameter] = [
                .init("domain", "videocloud"), .init("account", account), .init("session", session),
                .init("player", player), .init("player_name", playerName), .init("platform", "linux"),
                .init("time", String(Int64((now.timeIntervalSince1970 * 1000).rounded()))),
            ]
            if let viewerID { parameters.append(.init("user", viewerID)) }
            if let destination { parameters.append(.init("destination", destination)) }
            return AnalyticsEvent(name: name, parameters: parameters + specific, time: now)
        }
    }

    public let configuration: Configuration
    private var loaded = false
    private var video: VideoState?

    private struct VideoState {
        let sessionID: Int
        let id: String?
        let name: String?
        var duration: Duration?
        var viewed = false
        var playing = false
        /// The open range's start and the playhead's last position in it.
        var rangeStart: Double?
        var last: Double = 0
        var lastWall: Date?
        /// A seek's frame arrived: the next position opens a new range.
        var jumpPending = false
        /// The variant playing (the latest switch).
        var variant: Variant?
        /// Since the last engagement event: bytes fetched, and the media downloads' bits and seconds.
        var bytes = 0
        var downloadBits = 0.0
        var downloadSeconds = 0.0
        /// Since the last engagement event: stalls begun, and seconds stalled (the open stall's from `stallSince`).
        var stalls = 0
        var stalledSeconds = 0.0
        var stallSince: Date?
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The analytics events `event` produces, stamped at `now`.
    public mutating func handle(_ event: PlaybackEvent, at now: Date) -> [AnalyticsEvent] {
        var out: [AnalyticsEvent] = []
        if !loaded {
            loaded = true
            out.append(make("player_load", [], now))
        }
        switch event {
        case .sessionAdvanced(let session):
            out += closeRange(now)
            video = VideoState(sessionID: session.id, id: session.video.id, name: session.video.name, duration: session.video.duration)
        case .durationChanged(let session, let duration):
            guard video?.sessionID == session.id else { break }
            video?.duration = duration
        case .lifecycle(let session, let lifecycle):
            guard video?.sessionID == session.id else { break }
            switch lifecycle {
            case .ready:
                out.append(make("video_impression", videoParameters(), now))
            case .play, .recovered:
                endStall(now)
                if video?.viewed == false {
                    video?.viewed = true
                    out.append(make("video_view", videoParameters(), now))
                }
                video?.playing = true
            case .stalled:
                out += closeRange(now)
                video?.playing = false
                if video?.stallSince == nil {
                    video?.stalls += 1
                    video?.stallSince = now
                }
            case .pause, .end, .terminate:
                endStall(now)
                out += closeRange(now)
                video?.playing = false
            case .fail(let error), .failedToPlayToEndTime(let error):
                endStall(now)
                out += closeRange(now)
                video?.playing = false
                out.append(make("error", videoParameters() + [.init("error_code", String(error.code.rawValue)), .init("error_type", error.code.name)], now))
            default:
                break
            }
        case .framePresented(let session, let frame) where frame.cause == .seek || frame.cause == .resume:
            // The playhead jumped: what came before is closed, the next range starts where it landed.
            guard video?.sessionID == session.id else { break }
            out += closeRange(now)
            video?.rangeStart = nil
            video?.jumpPending = true
        case .variantChanged(let session, let change):
            guard video?.sessionID == session.id else { break }
            video?.variant = change.to
        case .mediaTransferred(let session, let transfer):
            guard video?.sessionID == session.id else { break }
            account(transfer)
        case .progress(let session, let time):
            let seconds = time.seconds
            guard video?.sessionID == session.id, seconds.isFinite else { break }
            out += advance(to: seconds, now: now)
        default:
            break
        }
        return out
    }

    /// The playhead moved: the open range grows, or — after a jump (a seek) — closes and a new one opens
    /// where the playhead landed. A jump is a move back, or further ahead than four times the wall time
    /// since the last report allows (plus a second), so rates up to 4x read as watching.
    private mutating func advance(to seconds: Double, now: Date) -> [AnalyticsEvent] {
        guard var state = video else { return [] }
        defer { video?.lastWall = now }
        guard state.playing else {
            // Not playing (a seek while paused): the next range starts where the playhead is.
            video?.last = seconds
            video?.rangeStart = nil
            return []
        }
        var out: [AnalyticsEvent] = []
        let wall = state.lastWall.map { now.timeIntervalSince($0) } ?? 0
        let aheadBound = configuration.maximumRate.map { state.last + wall * $0 + 1 } ?? .infinity
        let jumped = seconds < state.last - 0.5 || seconds > aheadBound
        if state.rangeStart != nil, jumped {
            out += closeRange(now)
            video?.rangeStart = nil
            state = video ?? state
        }
        if state.rangeStart == nil { state.rangeStart = jumped || state.jumpPending ? seconds : state.last }
        state.jumpPending = false
        state.last = seconds
        video = state
        if let start = state.rangeStart, seconds - start >= Self.seconds(configuration.engagementInterval) {
            out += closeRange(now)
        }
        return out
    }

    /// Reports the open range in whole seconds, half-open, once it covers at least one; the range then
    /// goes on from its end (the fraction not yet reported is reported with the next one).
    private mutating func closeRange(_ now: Date) -> [AnalyticsEvent] {
        guard let state = video, let start = state.rangeStart else { return [] }
        let from = Int(start.rounded(.down))
        let to = Int(state.last.rounded(.down))
        guard to > from else { return [] }
        video?.rangeStart = Double(to)
        let event = make(
            "video_engagement",
            videoParameters() + [.init("range", "\(from)..\(to)"), .init("video_seconds_viewed", String(to - from))] + qualityParameters(now), now)
        resetQuality(now)
        return [event]
    }

    /// A request the engine finished: its bytes count (a media segment's also time the link).
    private mutating func account(_ transfer: MediaTransfer) {
        guard transfer.kind != .manifest else { return }
        video?.bytes += transfer.bytes
        let seconds = MediaTime(transfer.duration).seconds
        if (transfer.kind == .segment || transfer.kind == .initSegment), (200..<300).contains(transfer.status), seconds > 0 {
            video?.downloadBits += Double(transfer.bytes) * 8
            video?.downloadSeconds += seconds
        }
    }

    private mutating func endStall(_ now: Date) {
        guard let since = video?.stallSince else { return }
        video?.stalledSeconds += now.timeIntervalSince(since)
        video?.stallSince = nil
    }

    /// The QoE fields since the last engagement event (an open stall counts up to `now`).
    private func qualityParameters(_ now: Date) -> [AnalyticsEvent.Parameter] {
        guard let video else { return [] }
        var parameters: [AnalyticsEvent.Parameter] = [.init("media_bytes", String(video.bytes))]
        if let variant = video.variant {
            // A media playlist played on its own declares no bandwidth (0): no indicated rate then.
            if variant.bandwidth > 0 { parameters.append(.init("rendition_indicated_bps", String(variant.bandwidth))) }
            if let width = variant.width, let height = variant.height {
                parameters += [.init("rendition_width", String(width)), .init("rendition_height", String(height))]
            }
            parameters.append(.init("rendition_url", variant.url))
        }
        if video.downloadSeconds > 0 { parameters.append(.init("measured_bps", String(Int((video.downloadBits / video.downloadSeconds).rounded())))) }
        let stalled = video.stalledSeconds + (video.stallSince.map { now.timeIntervalSince($0) } ?? 0)
        if video.stalls > 0 || stalled > 0 {
            parameters += [.init("rebuffering_count", String(video.stalls)), .init("rebuffering_seconds", String(format: "%.3f", stalled))]
        }
        return parameters
    }

    /// Starts the next engagement event's QoE window (an open stall goes on in it, already counted).
    private mutating func resetQuality(_ now: Date) {
        video?.bytes = 0
        video?.downloadBits = 0
        video?.downloadSeconds = 0
        video?.stalls = 0
        video?.stalledSeconds = 0
        if video?.stallSince != nil { video?.stallSince = now }
    }

    private func videoParameters() -> [AnalyticsEvent.Parameter] {
        guard let video else { return [] }
        var parameters: [AnalyticsEvent.Parameter] = []
        if let id = video.id { parameters.append(.init("video", id)) }
        if let name = video.name { parameters.append(.init("video_name", name)) }
        if let duration = video.duration { parameters.append(.init("video_duration", String(Int(Self.seconds(duration).rounded())))) }
        return parameters
    }

    private func make(_ name: String, _ specific: [AnalyticsEvent.Parameter], _ now: Date) -> AnalyticsEvent {
        configuration.event(name, specific, at: now)
    }

    private static func seconds(_ duration: Duration) -> Double { MediaTime(duration).seconds }
}
