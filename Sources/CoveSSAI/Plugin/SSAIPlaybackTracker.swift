/// What the SSAI plugin tells the app as the stitched stream plays (the seed's ad events), plus the
/// beacons due — in order, from positions alone, so it is deterministic and testable without a player.
public enum SSAIPlaybackEvent: Sendable, Hashable {
    case enterAdSequence(breakIndex: Int)
    case enterAd(breakIndex: Int, adIndex: Int)
    /// Time into the ad and the ad's duration.
    case adProgress(breakIndex: Int, adIndex: Int, time: AdTime, duration: AdTime)
    case exitAd(breakIndex: Int, adIndex: Int)
    case exitAdSequence(breakIndex: Int)
    /// The content position (content time: ads excluded).
    case contentProgress(AdTime)
    /// Beacon URLs now due for `key` (each key once per play of its ad).
    case beacon(BeaconKey, urls: [String])
}

/// Follows the playhead through an `AdTimeline`: which ad or content it is in, when ad sequences and
/// ads start and end, which beacons fall due (impression, icon views, creativeView and start on entering an ad,
/// quartiles and offset progress events as they are crossed, complete at its end, breakStart/breakEnd).
/// Natural playback goes through `advance(to:)`; a seek or rebuild that jumps goes through `jump(to:)`,
/// which ends the ad it leaves without completing it and fires nothing for what it jumps over.
public struct SSAIPlaybackTracker: Sendable {
    public enum Place: Sendable, Hashable {
        case content
        case ad(breakIndex: Int, adIndex: Int)
    }

    public let timeline: AdTimeline
    public private(set) var place: Place = .content
    public private(set) var streamTime: AdTime = .zero
    /// Plays started per break (a break crossed again plays — and beacons — again).
    public private(set) var playsByBreak: [Int: Int] = [:]
    private var fired: Set<BeaconKey> = []
    private var started = false

    public init(timeline: AdTimeline) {
        self.timeline = timeline
    }

    /// Whether a position has been given yet.
    public var hasStarted: Bool { started }

    /// The break plays counted so far: the seed's "played" state for the app's timeline queries.
    public var playedBreaks: Set<Int> { Set(playsByBreak.keys) }

    /// Natural playback reached `time`: events for everything crossed since the last position.
    public mutating func advance(to time: AdTime) -> [SSAIPlaybackEvent] {
        var events: [SSAIPlaybackEvent] = []
        let from = started ? streamTime : nil
        started = true
        // Ads passed through whole between the two positions (a coarse progress tick) still complete.
        let target = timeline.position(atStreamTime: time)
        if let from, time > from {
            for ad in timeline.ads where ad.streamRange.lowerBound >= from && ad.streamRange.upperBound <= time {
                if case .ad(let b, let a) = place, b == ad.breakIndex, a == ad.index { continue }
                move(to: .ad(breakIndex: ad.breakIndex, adIndex: ad.index), at: ad.streamRange.lowerBound, events: &events)
                fireDue(in: ad, upTo: ad.streamRange.upperBound, events: &events)
            }
        }
        switch target {
        case .content:
            move(to: .content, at: time, events: &events)
        case .ad(let b, let a, let into, _):
            move(to: .ad(breakIndex: b, adIndex: a), at: time, events: &events)
            let ad = timeline.breaks[b].ads[a]
            fireDue(in: ad, upTo: time, events: &events)
            events.append(.adProgress(breakIndex: b, adIndex: a, time: into, duration: ad.duration))
        }
        streamTime = time
        if case .content = place { events.append(.contentProgress(timeline.contentTime(forStreamTime: time))) }
        return events
    }

    /// A seek or rebuild moved the playhead to `time`: leave the current ad or sequence (not completed),
    /// and report where playback now is without firing what was jumped over.
    public mutating func jump(to time: AdTime) -> [SSAIPlaybackEvent] {
        var events: [SSAIPlaybackEvent] = []
        leaveCurrent(completing: false, events: &events)
        started = true
        streamTime = time
        place = .content
        return events + advance(to: time)
    }

    // MARK: Moving between places

    private mutating func move(to next: Place, at time: AdTime, events: inout [SSAIPlaybackEvent]) {
        guard next != place else { return }
        let nextBreak: Int? = if case .ad(let b, _) = next { b } else { nil }
        let currentBreak: Int? = if case .ad(let b, _) = place { b } else { nil }
        // Leaving an ad forward by playing through its end completes it.
        if case .ad(let b, let a) = place {
            let ad = timeline.breaks[b].ads[a]
            let completed = time >= ad.streamRange.upperBound
            if completed { fireDue(in: ad, upTo: ad.streamRange.upperBound, events: &events) }
            events.append(.exitAd(breakIndex: b, adIndex: a))
        }
        if let currentBreak, currentBreak != nextBreak {
            let adBreak = timeline.breaks[currentBreak]
            if time >= adBreak.streamRange.upperBound { fireBreak(adBreak, event: .breakEnd, events: &events) }
            events.append(.exitAdSequence(breakIndex: currentBreak))
        }
        if let nextBreak, nextBreak != currentBreak {
            playsByBreak[nextBreak, default: 0] += 1
            events.append(.enterAdSequence(breakIndex: nextBreak))
            fireBreak(timeline.breaks[nextBreak], event: .breakStart, events: &events)
        }
        if case .ad(let b, let a) = next { enter(timeline.breaks[b].ads[a], events: &events) }
        place = next
    }

    private mutating func enter(_ ad: AdTimeline.Ad, events: inout [SSAIPlaybackEvent]) {
        events.append(.enterAd(breakIndex: ad.breakIndex, adIndex: ad.index))
        fire(ad.impressions.map(\.url), key: key(ad, "impression"), events: &events)
        // The icons appear with the ad (Cove does not draw them, and SSAI has no player-side timing
        // for an icon's offset), so each shown icon's view is counted once per play, at the start.
        fire(ad.icons.filter(\.hasResource).flatMap(\.viewTracking), key: key(ad, "iconView"), events: &events)
        for companion in ad.companions {
            fire(companion.trackingEvents.filter { $0.event == .creativeView }.map(\.url), key: key(ad, "companionCreativeView"), events: &events)
        }
    }

    /// The viewer skipped the ad playing now: it ends without its later quartiles or `complete`,
    /// its `skip` beacon fires, and playback moves on to the next ad of the break (the same play of
    /// the break) or, after the last, out of the break. The caller seeks the player to
    /// `streamTime`, the skipped ad's end. Nothing happens outside an ad.
    public mutating func skipCurrentAd() -> [SSAIPlaybackEvent] {
        guard case .ad(let b, let a) = place else { return [] }
        let adBreak = timeline.breaks[b]
        let ad = adBreak.ads[a]
        var events: [SSAIPlaybackEvent] = [.exitAd(breakIndex: b, adIndex: a)]
        fire(ad.trackingEvents.filter { $0.event == .skip }.map(\.url), key: key(ad, "skip"), events: &events)
        streamTime = ad.streamRange.upperBound
        if a + 1 < adBreak.ads.count {
            place = .ad(breakIndex: b, adIndex: a + 1)
            enter(adBreak.ads[a + 1], events: &events)
        } else {
            fireBreak(adBreak, event: .breakEnd, events: &events)
            events.append(.exitAdSequence(breakIndex: b))
            place = .content
        }
        return events
    }

    private mutating func leaveCurrent(completing: Bool, events: inout [SSAIPlaybackEvent]) {
        guard case .ad(let b, let a) = place else { return }
        events.append(.exitAd(breakIndex: b, adIndex: a))
        events.append(.exitAdSequence(breakIndex: b))
        place = .content
    }

    // MARK: Beacons

    private func play(of breakIndex: Int) -> Int { max(0, (playsByBreak[breakIndex] ?? 1) - 1) }

    private func key(_ ad: AdTimeline.Ad, _ event: String) -> BeaconKey {
        BeaconKey(breakIndex: ad.breakIndex, adIndex: ad.index, play: play(of: ad.breakIndex), event: event)
    }

    /// Fires the ad's scheduled tracking (creativeView/start at its start, quartiles, offset progress
    /// events, complete at its end) that is due at or before `time`.
    private mutating func fireDue(in ad: AdTimeline.Ad, upTo time: AdTime, events: inout [SSAIPlaybackEvent]) {
        var due: [String: [String]] = [:]
        var order: [String] = []
        for scheduled in ad.scheduledTracking where scheduled.streamTime <= time {
            let name = scheduled.event.offset.map { "\(scheduled.event.event.rawValue)@\($0)" } ?? scheduled.event.event.rawValue
            if due[name] == nil { order.append(name) }
            due[name, default: []].append(scheduled.event.url)
        }
        // creativeView and start have no offset: they are due when the ad starts.
        for event in ad.trackingEvents where event.offset == nil && (event.event == .creativeView || event.event == .start) {
            if due[event.event.rawValue] == nil { order.insert(event.event.rawValue, at: 0) }
            due[event.event.rawValue, default: []].append(event.url)
        }
        for name in order { fire(Array(Set(due[name] ?? [])).sorted(), key: key(ad, name), events: &events) }
    }

    private mutating func fireBreak(_ adBreak: AdTimeline.Break, event: VMAPTrackingEventName, events: inout [SSAIPlaybackEvent]) {
        let urls = adBreak.trackingEvents.filter { $0.event == event }.map(\.url)
        fire(urls, key: BeaconKey(breakIndex: adBreak.index, adIndex: nil, play: play(of: adBreak.index), event: event.rawValue), events: &events)
    }

    private mutating func fire(_ urls: [String], key: BeaconKey, events: inout [SSAIPlaybackEvent]) {
        guard !urls.isEmpty, !fired.contains(key) else { return }
        fired.insert(key)
        events.append(.beacon(key, urls: urls))
    }
}
