import CoveCore
import Foundation
import Logging
import Synchronization

/// One SSAI session: the ad timeline of a stitched stream and the play of it. It is the session's
/// `providerExtension` (the seed's `ssai_*` calls: seek in content time, can-seek, time mapping,
/// the raw VMAP) and the controller's hooks, which turn engine positions into content time and ad
/// events and fire the ad beacons.
///
/// ```swift
/// if let ssai = session.ssai, ssai.canSeek {
///     ssai.seek(toContentTime: .seconds(90)) { landed in … }
/// }
/// ```
public final class SSAISession: PlaybackSessionHooks, SessionProviderExtension, Sendable {
    /// Where every break and ad sits; query it for the scrub bar (beyond the seed).
    public let timeline: AdTimeline
    /// The VMAP as parsed; nil when none could be read (the session then plays without ads).
    public let document: VMAPDocument?
    /// The VMAP response bytes (the seed's `vmapResponseData`).
    public let vmapResponseData: [UInt8]?
    /// The thumbnails track the VMAP names (`bc:thumbnailURL`), if any.
    public let thumbnailsURL: URL?
    /// Which breaks a forward seek plays.
    public let skipPolicy: AdSkipPolicy

    private let vmapURL: URL?
    private let problems: [PlaybackError]
    private let beacons: BeaconSender
    /// The ads' own closed captions, offered as text tracks while each ad plays.
    private let captions: SSAIAdCaptions
    /// Hand-overs to the beacon sender not yet done (hooks run synchronously on the controller's
    /// loop; the sender is an actor), so `drainBeacons()` also waits for beacons fired just now.
    private let handOvers = Mutex<[Task<Void, Never>]>([])
    private let logger: Logger
    private let state: Mutex<State>

    private struct State: Sendable {
        var tracker: SSAIPlaybackTracker
        var session: PlaybackSession?
        var control: SessionControl?
        /// The breaks a seek still has to play before it continues, and where it continues.
        var seekPlan: PendingSeek?
        /// Paused inside an ad: the next play resumes it.
        var pausedAd: Ad?
        var pauses = 0
        var clicks = 0
        /// Content impressions (legacy flavour) already sent, by index.
        var contentImpressionsSent: Set<Int> = []
        /// The stream's real length was compared with the timeline's (once).
        var checkedStreamLength = false
        var ended = false
        /// The ad-caption tracks offered to the controller now (their ids), so only changes are sent.
        var offeredCaptionIDs: [String] = []
    }

    private struct PendingSeek: Sendable {
        var breaks: [Int]
        let resume: AdTime
        let completion: (@Sendable (Bool) -> Void)?
    }

    init(
        timeline: AdTimeline, document: VMAPDocument?, vmapResponseData: [UInt8]?, vmapURL: URL?, thumbnailsURL: URL?,
        problems: [PlaybackError], skipPolicy: AdSkipPolicy, beacons: BeaconSender, captions: SSAIAdCaptions, logger: Logger
    ) {
        self.timeline = timeline
        self.document = document
        self.vmapResponseData = vmapResponseData
        self.vmapURL = vmapURL
        self.thumbnailsURL = thumbnailsURL
        self.problems = problems
        self.skipPolicy = skipPolicy
        self.beacons = beacons
        self.captions = captions
        self.logger = logger
        self.state = Mutex(State(tracker: SSAIPlaybackTracker(timeline: timeline)))
    }

    // MARK: The seed's provider-extension API

    /// False while an ad plays or a seek made here is still playing its ads (the seed's `ssai_canSeek`).
    public var canSeek: Bool {
        state.withLock { $0.seekPlan == nil && !Self.inAd($0.tracker) }
    }

    /// Seeks to `time` in content time, by the seek rules (the seed's `ssai_seekToTime`): a forward
    /// seek across breaks plays the break(s) the skip policy picks, then continues to the target;
    /// backward seeks play none; `PlaybackController.adsDisabled` plays none. The completion gets
    /// true once the playhead is at the target, false when the seek is refused (during an ad or
    /// another pending seek) or interrupted. Same as `PlaybackController.seek(to:)` on this session.
    public func seek(toContentTime time: MediaTime, completion: (@Sendable (Bool) -> Void)? = nil) {
        guard let control = state.withLock({ $0.control }) else {
            completion?(false)
            return
        }
        control.seek(to: time, completion: completion)
    }

    /// The stream time content time `time` plays at (the seed's `ssai_absoluteTimeAtContentTime`):
    /// after any break at that point — with a 30 s pre-roll, content 0 is stream 30 s.
    public func streamTime(forContentTime time: MediaTime) -> MediaTime {
        Self.media(timeline.streamTimeAfterBreaks(atContentTime: Self.ad(time)))
    }

    /// The content time at a stream time; inside a break, the break's content offset (the seed's
    /// `ssai_contentTimeAtAbsoluteTime`).
    public func contentTime(forStreamTime time: MediaTime) -> MediaTime {
        Self.media(timeline.contentTime(forStreamTime: Self.ad(time)))
    }

    /// The breaks played so far in this session (by `AdTimeline.Break.index`).
    public var playedBreaks: Set<Int> { state.withLock { $0.tracker.playedBreaks } }

    /// The ad playing now, if any.
    public var currentAd: Ad? {
        state.withLock { state in
            guard case .ad(let b, let a) = state.tracker.place else { return nil }
            return SSAIAdValues.ad(timeline.breaks[b].ads[a])
        }
    }

    /// The ad's place in its break ("Ad 1 of 2") and the time left in it and in the break, for ad UI.
    public var adStatus: SSAIAdStatus? {
        state.withLock { state in
            guard case .ad(let b, let a) = state.tracker.place else { return nil }
            let adBreak = timeline.breaks[b]
            let ad = adBreak.ads[a]
            let now = state.tracker.streamTime
            return SSAIAdStatus(
                ad: SSAIAdValues.ad(ad), number: a + 1, count: adBreak.ads.count,
                remainingInAd: SSAIAdValues.duration(ad.streamRange.upperBound.saturatingSubtracting(now)),
                remainingInBreak: SSAIAdValues.duration(adBreak.streamRange.upperBound.saturatingSubtracting(now)),
                canSkip: ad.skipStreamTime.map { now >= $0 } ?? false
            )
        }
    }

    /// Skips the ad playing now, when it is skippable and past its skip offset: its `skip` beacon
    /// fires, `AdSkipped` is reported and playback continues with the next ad or the content.
    /// Returns false (and does nothing) otherwise.
    @discardableResult
    public func skipAd() -> Bool {
        let outcome: (events: [SSAIPlaybackEvent], target: AdTime, ad: Ad, control: SessionControl, session: PlaybackSession)? = state.withLock { state in
            guard case .ad(let b, let a) = state.tracker.place, let control = state.control, let session = state.session else { return nil }
            let ad = timeline.breaks[b].ads[a]
            guard let skipAt = ad.skipStreamTime, state.tracker.streamTime >= skipAt else { return nil }
            let events = state.tracker.skipCurrentAd()
            return (events, ad.streamRange.upperBound, SSAIAdValues.ad(ad), control, session)
        }
        guard let outcome else { return false }
        outcome.control.report(.adSkipped(outcome.session, outcome.ad))
        for event in translate(outcome.events, session: outcome.session) { outcome.control.report(event) }
        outcome.control.seekEngine(to: Self.media(outcome.target))
        return true
    }

    /// The viewer chose "Learn More": fires the ad's click tracking and returns where to go (nil
    /// outside an ad, or when the ad has no click-through).
    public func clickThrough() -> URL? {
        let click: (ad: AdTimeline.Ad, count: Int)? = state.withLock { state in
            guard case .ad(let b, let a) = state.tracker.place else { return nil }
            state.clicks += 1
            return (timeline.breaks[b].ads[a], state.clicks)
        }
        guard let click else { return nil }
        let key = BeaconKey(breakIndex: click.ad.breakIndex, adIndex: click.ad.index, play: 0, event: "clickTracking#\(click.count)")
        fire(click.ad.clickTracking.map(\.url), key: key, macros: BeaconMacros())
        return click.ad.clickThrough.flatMap { URL(string: $0.url) }
    }

    /// Waits until every beacon fired so far has been sent (or given up on).
    public func drainBeacons() async {
        let pending = handOvers.withLock { tasks -> [Task<Void, Never>] in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in pending { await task.value }
        await beacons.drain()
    }

    /// What every beacon send came to, in completion order (for diagnostics and tests).
    public func beaconResults() async -> [BeaconResult] { await beacons.results }

    // MARK: Hooks

    public func sessionStarted(_ session: PlaybackSession, control: SessionControl) -> [PlaybackEvent] {
        state.withLock {
            $0.session = session
            $0.control = control
        }
        var events: [PlaybackEvent] = []
        if let bytes = vmapResponseData {
            var properties: JSONObject = ["vmap": .string(String(decoding: bytes, as: UTF8.self))]
            if let vmapURL { properties["url"] = .string(Redaction.redact(url: vmapURL)) }
            events.append(.lifecycle(session, .custom(name: SSAIEventName.vmapResponseReceived, properties: properties)))
        }
        events += problems.map { .lifecycle(session, .error($0)) }
        prefetchCaptions(at: .zero)
        return events
    }

    public func reportedTime(forEngineTime position: MediaTime) -> MediaTime {
        contentTime(forStreamTime: position)
    }

    public func engineTime(forReportedTime time: MediaTime) -> MediaTime {
        Self.media(timeline.streamTimeAfterBreaks(atContentTime: Self.ad(time)))
    }

    public func reportedDuration(forEngineDuration duration: MediaTime?) -> MediaTime? {
        checkStreamLength(duration)
        if let content = timeline.contentDuration { return Self.media(content) }
        guard let duration, duration.isFinite else { return nil }
        return Self.media(Self.ad(duration).saturatingSubtracting(timeline.totalAdDuration))
    }

    public func playheadMoved(to position: MediaTime, jumped: Bool, ended: Bool) -> [PlaybackEvent] {
        var time = Self.ad(position)
        let step: (events: [SSAIPlaybackEvent], session: PlaybackSession?, follow: FollowUp?) = state.withLock { state in
            // After the end only a jump (a seek, play from the start) moves the tracker again.
            if state.ended && !jumped { return ([], nil, nil) }
            state.ended = ended
            // An accurate seek lands within a few milliseconds of its target: one that lands just
            // short of where the tracker already is (a skipped ad's end) is taken as that point.
            let shortfall = state.tracker.streamTime.nanoseconds - time.nanoseconds
            if jumped, shortfall > 0, shortfall <= 250_000_000 { time = state.tracker.streamTime }
            var events: [SSAIPlaybackEvent]
            if jumped && !Self.isContinuation(state.tracker, at: time, timeline: timeline) {
                events = state.tracker.jump(to: time)
            } else {
                events = state.tracker.advance(to: time)
            }
            let follow = Self.followUp(&state, after: events, timeline: timeline)
            return (events, state.session, follow)
        }
        guard let session = step.session else { return [] }
        prefetchCaptions(at: time)
        fireContentImpressions(at: time)
        if let follow = step.follow { follow.run() }
        return translate(step.events, session: session)
    }

    public func playingChanged(_ playing: Bool, at position: MediaTime) -> [PlaybackEvent] {
        let start: (events: [SSAIPlaybackEvent], session: PlaybackSession)? = state.withLock { state in
            // Playing starts where the tracker starts (at 0, the pre-roll), so that coarse progress
            // reports after it still pass through every ad from there.
            guard playing, !state.tracker.hasStarted, let session = state.session else { return nil }
            return (state.tracker.advance(to: Self.ad(position)), session)
        }
        if let start { return translate(start.events, session: start.session) }
        let change: (event: PlaybackEvent?, beacon: (ad: AdTimeline.Ad, event: VASTTrackingEventName, count: Int)?) = state.withLock { state in
            guard let session = state.session else { return (nil, nil) }
            if playing {
                guard let ad = state.pausedAd else { return (nil, nil) }
                state.pausedAd = nil
                return (.adResumed(session, ad), (timeline.breaks[ad.sequenceIndex].ads[ad.index], .resume, state.pauses))
            }
            guard case .ad(let b, let a) = state.tracker.place else { return (nil, nil) }
            let ad = SSAIAdValues.ad(timeline.breaks[b].ads[a])
            state.pausedAd = ad
            state.pauses += 1
            return (.adPaused(session, ad), (timeline.breaks[b].ads[a], .pause, state.pauses))
        }
        if let beacon = change.beacon {
            // Each pause (and its resume) is its own beacon: the key counts them.
            let urls = beacon.ad.trackingEvents.filter { $0.event == beacon.event }.map(\.url)
            let key = BeaconKey(breakIndex: beacon.ad.breakIndex, adIndex: beacon.ad.index, play: 0, event: "\(beacon.event.rawValue)#\(beacon.count)")
            fire(urls, key: key, macros: BeaconMacros())
        }
        return change.event.map { [$0] } ?? []
    }

    public func seekRequested(to time: MediaTime, from position: MediaTime, adsDisabled: Bool, completion: (@Sendable (Bool) -> Void)?) -> HookedSeek {
        state.withLock { state in
            if state.seekPlan != nil { return .refuse(reason: "an SSAI seek is still playing the ads it crossed; wait for its completion (canSeek)") }
            if Self.inAd(state.tracker) { return .refuse(reason: "an ad is playing; seeking is not allowed until it ends (canSeek)") }
            let from = timeline.contentTime(forStreamTime: Self.ad(position))
            let plan = timeline.planSeek(fromContent: from, toContent: Self.ad(time), policy: skipPolicy, adsDisabled: adsDisabled)
            state.ended = false
            guard let resume = plan.resumeStreamTime, !plan.breaksToPlay.isEmpty else { return .seek(Self.media(plan.streamTime)) }
            state.seekPlan = PendingSeek(breaks: plan.breaksToPlay, resume: resume, completion: completion)
            return .seekKeepingCompletion(Self.media(plan.streamTime))
        }
    }

    /// No seeking while an ad plays or a seek made here still plays the ads it crossed (`canSeek`), no
    /// rate change during an ad, and skipping once a skippable ad is past its offset.
    public func availableCommands(adjusting commands: Set<PlayerCommand>) -> Set<PlayerCommand> {
        var commands = commands
        if !canSeek { commands.remove(.seek) }
        if let status = adStatus {
            commands.remove(.changeRate)
            if status.canSkip { commands.insert(.skipAd) }
        }
        return commands
    }

    public func sessionEnded() {
        let (pending, control) = state.withLock { state -> (PendingSeek?, SessionControl?) in
            defer { state.seekPlan = nil; state.control = nil }
            return (state.seekPlan, state.control)
        }
        if let completion = pending?.completion {
            if let control { control.deliver(completion, false) } else { completion(false) }
        }
    }

    // MARK: Internals

    /// Ads placed past the end of the stream the engine really has cannot play: say so once.
    private func checkStreamLength(_ duration: MediaTime?) {
        guard let duration, duration.isFinite, let expected = timeline.streamDuration else { return }
        let report: (SessionControl, PlaybackSession)? = state.withLock { state in
            guard !state.checkedStreamLength, let control = state.control, let session = state.session else { return nil }
            state.checkedStreamLength = true
            return (control, session)
        }
        guard let (control, session) = report else { return }
        let actual = Self.ad(duration)
        guard let lastAd = timeline.ads.last, lastAd.streamRange.upperBound.nanoseconds > actual.nanoseconds + AdTimeline.lengthTolerance.nanoseconds else {
            return
        }
        let error = PlaybackError(
            .ssaiTimelineAdjusted,
            "The VMAP's ads run past the end of the stream (the timeline needs \(Self.media(expected)), the stream is \(duration)); ads after the end will not play and their beacons are not sent"
        )
        logger.warning("SSAI timeline longer than the stream", metadata: ["error": "\(error)"])
        control.report(.lifecycle(session, .error(error)))
    }

    /// What to do once a seek's breaks have played: seek on to the next break, or to the target.
    private struct FollowUp: Sendable {
        let control: SessionControl
        /// Nil when the playhead is already where the seek was going (a seek to the end, whose
        /// post-roll has just played out).
        let target: AdTime?
        let completion: (@Sendable (Bool) -> Void)?
        func run() {
            if let target {
                control.seekEngine(to: SSAISession.media(target), completion: completion)
            } else if let completion {
                control.deliver(completion, true)
            }
        }
    }

    private static func followUp(_ state: inout State, after events: [SSAIPlaybackEvent], timeline: AdTimeline) -> FollowUp? {
        guard var plan = state.seekPlan, let control = state.control, let playing = plan.breaks.first else { return nil }
        // The break is over once the tracker leaves it — by a coarse report possibly already into
        // content past the target, or into the next break: then the seek has arrived.
        let finished = events.contains { if case .exitAdSequence(let b) = $0 { return b == playing } else { return false } }
        guard finished else { return nil }
        plan.breaks.removeFirst()
        if let next = plan.breaks.first {
            state.seekPlan = plan
            return FollowUp(control: control, target: timeline.breaks[next].streamRange.lowerBound, completion: nil)
        }
        state.seekPlan = nil
        let arrived = state.ended || plan.resume <= state.tracker.streamTime
        return FollowUp(control: control, target: arrived ? nil : plan.resume, completion: plan.completion)
    }

    /// A "jump" that lands where natural playback would have (a rebuild at the same spot, the
    /// landing of a skip) continues the play instead of restarting the ad or break.
    private static func isContinuation(_ tracker: SSAIPlaybackTracker, at time: AdTime, timeline: AdTimeline) -> Bool {
        guard tracker.streamTime.nanoseconds > 0 || tracker.place != .content else { return false }
        let delta = time.nanoseconds - tracker.streamTime.nanoseconds
        guard delta >= -500_000_000, delta <= 2_000_000_000 else { return false }
        switch (tracker.place, timeline.position(atStreamTime: time)) {
        case (.content, .content): return true
        case (.ad(let b, let a), .ad(let b2, let a2, _, _)): return b == b2 && a == a2
        default: return false
        }
    }

    private static func inAd(_ tracker: SSAIPlaybackTracker) -> Bool {
        if case .ad = tracker.place { return true }
        return false
    }

    private func translate(_ events: [SSAIPlaybackEvent], session: PlaybackSession) -> [PlaybackEvent] {
        var out: [PlaybackEvent] = []
        // Beacon macros describe the playhead these events were produced at.
        let now = state.withLock { $0.tracker.streamTime }
        let content = SSAIAdValues.duration(timeline.contentTime(forStreamTime: now))
        for event in events {
            switch event {
            case .enterAdSequence(let b):
                out.append(.lifecycle(session, .willPauseForAd))
                out.append(.adSequenceEntered(session, SSAIAdValues.sequence(timeline.breaks[b])))
            case .exitAdSequence(let b):
                out.append(.adSequenceExited(session, SSAIAdValues.sequence(timeline.breaks[b])))
            case .enterAd(let b, let a):
                out.append(.adEntered(session, SSAIAdValues.ad(timeline.breaks[b].ads[a])))
            case .exitAd(let b, let a):
                out.append(.adExited(session, SSAIAdValues.ad(timeline.breaks[b].ads[a])))
            case .adProgress(let b, let a, let time, _):
                out.append(.adProgressed(session, AdProgress(ad: SSAIAdValues.ad(timeline.breaks[b].ads[a]), time: Self.media(time))))
            case .contentProgress:
                break  // the controller reports content progress itself
            case .beacon(let key, let urls):
                let ad = key.adIndex.flatMap { index in key.breakIndex < timeline.breaks.count ? timeline.breaks[key.breakIndex].ads[safe: index] : nil }
                let into = ad.map { now.saturatingSubtracting($0.streamRange.lowerBound) }
                fire(urls, key: key, macros: BeaconMacros(contentPlayhead: content, adPlayhead: into.map(SSAIAdValues.duration)))
            }
        }
        offerAdCaptions()
        return out
    }

    // MARK: The ads' closed captions

    /// Starts fetching the captions of the ads that start within `SSAIAdCaptions.lookahead` of `time`
    /// (or are playing), so they are there when the ad starts.
    private func prefetchCaptions(at time: AdTime) {
        let horizon = time.saturatingAdding(SSAIAdCaptions.lookahead)
        for ad in timeline.ads where ad.streamRange.upperBound > time && ad.streamRange.lowerBound <= horizon && SSAIAdCaptions.hasCaptions(ad) {
            _ = captions.tracks(for: ad) { [weak self] error in self?.adCaptionsFailed(error) }
        }
    }

    /// Offers the playing ad's caption tracks to the controller (the ones not failed), or withdraws
    /// them once no ad with captions plays; only changes are sent.
    private func offerAdCaptions() {
        let offer: (control: SessionControl, tracks: [SidecarTextTrack])? = state.withLock { state in
            guard let control = state.control else { return nil }
            var tracks: [SidecarTextTrack] = []
            if case .ad(let b, let a) = state.tracker.place, SSAIAdCaptions.hasCaptions(timeline.breaks[b].ads[a]) {
                tracks = captions.tracks(for: timeline.breaks[b].ads[a]) { [weak self] error in self?.adCaptionsFailed(error) }
                tracks.removeAll { if case .failed = $0.status { true } else { false } }
            }
            let ids = tracks.map(\.mediaTrack.id)
            guard ids != state.offeredCaptionIDs else { return nil }
            state.offeredCaptionIDs = ids
            return (control, tracks)
        }
        if let offer { offer.control.offerTextTracks(offer.tracks) }
    }

    /// A caption file could not be used: a warning, and the ad's other tracks (if any) offered instead.
    private func adCaptionsFailed(_ error: PlaybackError) {
        guard let (control, session) = state.withLock({ state in state.control.flatMap { control in state.session.map { (control, $0) } } }) else { return }
        control.report(.lifecycle(session, .error(error)))
        offerAdCaptions()
    }

    private func fireContentImpressions(at time: AdTime) {
        guard let impressions = document?.stream.contentImpressions, !impressions.isEmpty else { return }
        let content = timeline.contentTime(forStreamTime: time)
        let due: [(Int, VMAPContentImpression)] = state.withLock { state in
            // Content impressions count content seen: none while an ad plays (content time 0 lasts
            // the whole pre-roll).
            guard case .content = state.tracker.place else { return [] }
            var due: [(Int, VMAPContentImpression)] = []
            for (index, impression) in impressions.enumerated() where !state.contentImpressionsSent.contains(index) && (impression.time ?? .zero) <= content {
                state.contentImpressionsSent.insert(index)
                due.append((index, impression))
            }
            return due
        }
        for (index, impression) in due {
            fire([impression.url], key: BeaconKey(breakIndex: -1, adIndex: index, play: 0, event: "contentImpression"), macros: BeaconMacros())
        }
    }

    private func fire(_ urls: [String], key: BeaconKey, macros: BeaconMacros) {
        guard !urls.isEmpty else { return }
        let beacons = self.beacons
        // Awaiting the sends keeps the sender alive until they are done, even if the session goes.
        let task = Task {
            _ = await beacons.fire(urls, for: key, macros: macros)
            await beacons.drain()
        }
        handOvers.withLock { tasks in
            tasks.removeAll { $0.isCancelled }
            tasks.append(task)
        }
    }

    static func media(_ time: AdTime) -> MediaTime { SSAIAdValues.media(time) }
    static func ad(_ time: MediaTime) -> AdTime { AdTime(nanoseconds: max(0, time.nanoseconds ?? 0)) ?? .zero }
}

/// What an ad UI shows while an ad plays ("Ad 1 of 2 · 0:12 left").
public struct SSAIAdStatus: Sendable, Hashable {
    public let ad: Ad
    /// The ad's place in its break, from 1.
    public let number: Int
    public let count: Int
    public let remainingInAd: Duration
    public let remainingInBreak: Duration
    /// The ad is skippable and past its skip offset.
    public let canSkip: Bool
}

extension PlaybackSession {
    /// The session's SSAI API, when an SSAI provider built it.
    public var ssai: SSAISession? { providerExtension as? SSAISession }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
