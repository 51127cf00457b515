import Foundation

/// Measures one session's quality of experience from the controller's events: a pure state machine
/// (events and their wall times in, `QualityOfExperience` out), so it is tested with scripted events and
/// runs the same in an app, in `cove probe` and in `cove monitor`.
///
/// Played media is the union of what the playhead crossed while playing (progress reports, broken by
/// seeks and by jumps no playback rate explains). Each media segment the engine fetched carries its
/// presentation time (`MediaTransfer.span`): the last complete copy of a stretch is the one that played,
/// so the bitrate played and the bytes wasted follow from the two. (A stretch played, sought back over
/// and fetched again counts its first copy as wasted; variants cut into segments at different times
/// are matched by start time only.) One meter measures one session: make a new one per video.
public struct QoEMeter: Sendable {
    /// The fastest the playhead moves while playing (the playback rate): a further jump ahead is a seek.
    /// nil for playback not paced by the clock (a probe's fast mode), where only seek frames and moves
    /// back say so.
    public let maximumRate: Double?
    private var requestedAt: Date
    private var catalog: Duration?
    private var firstFrameAt: Double?
    private var firstManifest: MediaTransfer?
    private var firstSegment: MediaTransfer?
    private var transfers: [MediaTransfer] = []
    private var ladder: [Variant] = []
    private var upSwitches = 0
    private var downSwitches = 0
    private var errors: [PlaybackError] = []
    private var seekLatencies: [Duration] = []
    private var seekStartedAt: Date?
    // Clock state: playing since, stalled since, and the totals.
    private var playingSince: Date?
    private var stalledSince: Date?
    private var playing: Duration = .zero
    private var rebuffering: Duration = .zero
    private var stalls = 0
    // The playhead: the played intervals so far, the open one, and the last report.
    private var played: [ClosedRange<Double>] = []
    private var openStart: Double?
    private var lastPosition: Double?
    private var lastReportAt: Date?
    private var jumpPending = false
    /// The media's duration (VOD): reaching the end plays the stretch up to it.
    private var duration: Double?
    /// Frame counts: the running ones of the current pipeline, and the sum of earlier pipelines'.
    private var lastFrames: (rendered: Int, dropped: Int)?
    private var frameBase = (rendered: 0, dropped: 0)

    /// - Parameters:
    ///   - requestedAt: when the app asked to play (startup counts from here).
    ///   - maximumRate: see `maximumRate` (4 allows rates up to 4×).
    public init(requestedAt: Date, maximumRate: Double? = 4) {
        self.requestedAt = requestedAt
        self.maximumRate = maximumRate
    }

    /// The Playback API lookup that came before the play (its time is startup's `catalog` part).
    public mutating func noteCatalog(_ duration: Duration) {
        catalog = duration
    }

    /// Where the playhead is, when the app can tell at a moment no progress report covers (at the first
    /// frame): unpaced playback, whose first report comes seconds of media later, starts its first stretch
    /// there instead of at that report.
    public mutating func notePlayhead(_ seconds: Double) {
        guard seconds.isFinite, openStart == nil, lastPosition == nil else { return }
        lastPosition = seconds
    }

    /// `handle(_:at:)`, with the engine's state as the event came (`event.session?.player?.status`): a start
    /// frame's position starts the first stretch there (see `notePlayhead`), and the output's frame counts
    /// give the rendered and dropped frames.
    public mutating func handle(_ event: PlaybackEvent, at now: Date, status: EngineStatus?) {
        if case .framePresented(_, let frame) = event, frame.cause == .start, let playhead = status?.position?.seconds { notePlayhead(playhead) }
        if let rendered = status?.renderedFrames, let dropped = status?.droppedFrames { noteFrames(rendered: rendered, dropped: dropped) }
        handle(event, at: now)
    }

    /// The video output's running frame counts (the engine's totals for its pipeline). A rebuilt pipeline
    /// (a retry, a resume) counts from zero again: what the previous one counted is kept.
    public mutating func noteFrames(rendered: Int, dropped: Int) {
        if let last = lastFrames, rendered < last.rendered || dropped < last.dropped {
            frameBase = (frameBase.rendered + last.rendered, frameBase.dropped + last.dropped)
        }
        lastFrames = (rendered, dropped)
    }

    public mutating func handle(_ event: PlaybackEvent, at now: Date) {
        switch event {
        case .framePresented(_, let frame):
            switch frame.cause {
            case .start where firstFrameAt == nil:
                firstFrameAt = frame.wallTime
            case .seek:
                if let started = seekStartedAt {
                    seekLatencies.append(.milliseconds(Int64(((frame.wallTime - started.timeIntervalSince1970) * 1000).rounded())))
                    seekStartedAt = nil
                }
                breakPlayhead()
            case .resume, .transition, .bumper:
                breakPlayhead()
            default:
                break
            }
        case .lifecycle(_, let lifecycle):
            handle(lifecycle, at: now)
        case .progress(_, let time):
            advance(to: time.seconds, at: now)
        case .mediaTransferred(_, let transfer):
            transfers.append(transfer)
            if transfer.kind == .manifest, firstManifest == nil { firstManifest = transfer }
            if transfer.kind == .segment, firstSegment == nil, (200..<300).contains(transfer.status) { firstSegment = transfer }
        case .durationChanged(_, let value):
            duration = value.map { MediaTime($0).seconds }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        case .variantsDiscovered(_, let discovered):
            ladder = discovered.variants
        case .variantChanged(_, let change):
            if let from = change.from {
                if change.to.bandwidth > from.bandwidth { upSwitches += 1 } else if change.to.bandwidth < from.bandwidth { downSwitches += 1 }
            }
        default:
            break
        }
    }

    private mutating func handle(_ lifecycle: LifecycleEvent, at now: Date) {
        switch lifecycle {
        case .play, .recovered:
            endStall(at: now)
            if playingSince == nil { playingSince = now }
        case .end:
            // The end of the media: the open stretch ran to it (the last report came up to an interval before).
            if openStart != nil, let duration, let last = lastPosition, duration > last { lastPosition = duration }
            endStall(at: now)
            stopClock(at: now)
            closeInterval()
        case .pause, .terminate:
            endStall(at: now)
            stopClock(at: now)
            closeInterval()
        case .stalled:
            // A stall says BufferEmpty too: it starts no seek.
            seekStartedAt = nil
            stopClock(at: now)
            closeInterval()
            if stalledSince == nil && firstFrameAt != nil {
                stalls += 1
                stalledSince = now
            }
        case .bufferEmpty where firstFrameAt != nil:
            // The controller says BufferEmpty as a seek starts.
            seekStartedAt = now
        case .error(let error):
            errors.append(error)
        case .fail(let error), .failedToPlayToEndTime(let error):
            errors.append(error)
            endStall(at: now)
            stopClock(at: now)
            closeInterval()
        default:
            break
        }
    }

    private mutating func stopClock(at now: Date) {
        if let since = playingSince { playing += Self.duration(now.timeIntervalSince(since)) }
        playingSince = nil
    }

    private mutating func endStall(at now: Date) {
        if let since = stalledSince { rebuffering += Self.duration(now.timeIntervalSince(since)) }
        stalledSince = nil
    }

    /// A seek or a resume moved the playhead: the next report opens a new interval.
    private mutating func breakPlayhead() {
        closeInterval()
        jumpPending = true
        lastPosition = nil
    }

    private mutating func closeInterval() {
        if let start = openStart, let end = lastPosition, end > start { played.append(start...end) }
        openStart = nil
    }

    private mutating func advance(to position: Double, at now: Date) {
        guard position.isFinite else { return }
        defer { lastReportAt = now }
        guard playingSince != nil else {
            lastPosition = position
            openStart = nil
            return
        }
        if let last = lastPosition, openStart != nil {
            let wall = lastReportAt.map { now.timeIntervalSince($0) } ?? 0
            let bound = maximumRate.map { last + wall * $0 + 1 } ?? .infinity
            if position < last - 0.5 || position > bound {
                closeInterval()
                openStart = position
            }
        } else {
            // The first report of a stretch: after a jump it starts where the playhead landed, else where
            // the playhead was last seen (the clock started there) — or, with none seen yet, as far back as
            // the clock has run since it started, at 1× (unpaced playback cannot tell: from here).
            let sinceStart = maximumRate != nil ? playingSince.map { now.timeIntervalSince($0) } ?? 0 : 0
            openStart = jumpPending ? position : (lastPosition ?? max(position - sinceStart, 0))
        }
        jumpPending = false
        lastPosition = position
    }

    /// The figures so far (an open stall, play interval or clock counts up to `now`).
    public func summary(at now: Date) -> QualityOfExperience {
        var intervals = played
        if let start = openStart, let end = lastPosition, end > start { intervals.append(start...end) }
        let union = Self.union(intervals)
        let mediaPlayed = union.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }

        // The copy of each stretch that played: the last complete one of its stream.
        let segments = transfers.filter { $0.kind == .segment && $0.span != nil }
        var lastCopy: [SpanKey: Int] = [:]
        for (index, transfer) in segments.enumerated() where (200..<300).contains(transfer.status) {
            lastCopy[Self.key(transfer.span!)] = index
        }
        var wasted = 0
        var weighted = 0.0
        var covered = 0.0
        var byVariant: [Int: Double] = [:]
        for (index, transfer) in segments.enumerated() {
            let span = transfer.span!
            guard lastCopy[Self.key(span)] == index else {
                wasted += transfer.bytes
                continue
            }
            let overlap = union.reduce(0.0) { $0 + max(0, min($1.upperBound, span.end) - max($1.lowerBound, span.start)) }
            if overlap <= 0.01 { wasted += transfer.bytes }
            if span.stream == .main, overlap > 0 {
                let bandwidth = transfer.variantBandwidth ?? 0
                byVariant[bandwidth, default: 0] += overlap
                if bandwidth > 0 {
                    weighted += Double(bandwidth) * overlap
                    covered += overlap
                }
            }
        }
        let startup = firstFrameAt.map { frame -> QualityOfExperience.Startup in
            let manifest = firstManifest.map { $0.duration }
            let segment = firstSegment.map { $0.duration }
            let decode = firstSegment.map { Self.duration(frame - ($0.startedAt + MediaTime($0.duration).seconds)) }
            return QualityOfExperience.Startup(
                total: Self.duration(frame - requestedAt.timeIntervalSince1970), catalog: catalog, manifest: manifest, firstSegment: segment,
                decode: decode.map { max($0, .zero) }
            )
        }
        var playingNow = playing
        if let since = playingSince { playingNow += Self.duration(now.timeIntervalSince(since)) }
        var rebufferNow = rebuffering
        if let since = stalledSince { rebufferNow += Self.duration(now.timeIntervalSince(since)) }
        let heights = Dictionary(ladder.map { ($0.bandwidth, $0.height) }, uniquingKeysWith: { first, _ in first })
        return QualityOfExperience(
            startup: startup, rebufferCount: stalls, rebufferDuration: rebufferNow, playingDuration: playingNow, mediaPlayed: mediaPlayed,
            averageBitrate: covered > 0 ? Int((weighted / covered).rounded()) : nil,
            timeAtVariant: byVariant.sorted { $0.key < $1.key }.map {
                QualityOfExperience.VariantTime(bandwidth: $0.key, height: heights[$0.key] ?? nil, played: $0.value)
            },
            upSwitches: upSwitches, downSwitches: downSwitches, seekLatencies: seekLatencies,
            bytesFetched: transfers.reduce(0) { $0 + $1.bytes }, bytesWasted: wasted,
            droppedFrames: lastFrames.map { frameBase.dropped + $0.dropped }, renderedFrames: lastFrames.map { frameBase.rendered + $0.rendered },
            errors: errors
        )
    }

    /// A segment's identity for "the same stretch again": its stream and start to the millisecond.
    private struct SpanKey: Hashable {
        let stream: MediaTransfer.Stream
        let startMilliseconds: Int64
    }

    private static func key(_ span: MediaTransfer.Span) -> SpanKey {
        SpanKey(stream: span.stream, startMilliseconds: Int64((span.start * 1000).rounded()))
    }

    private static func union(_ intervals: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var merged: [ClosedRange<Double>] = []
        for interval in intervals.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, interval.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, interval.upperBound)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
