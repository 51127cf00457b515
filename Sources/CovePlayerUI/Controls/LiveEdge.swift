/// Where a live stream's playhead sits against its live edge: what the live control says ("Live"
/// or "Go to live"), where "Go to live" seeks, and the DVR slider's window.
///
/// A live player does not play at the very end of the seekable window: it starts some segments
/// behind it (HLS asks for at least three target durations), and the window's end moves in
/// segment-sized steps while the playhead moves smoothly. So "at the live edge" means "about as far
/// behind the end as playback started", with a tolerance of one and a half window steps — the
/// closest distance seen is the player's own live offset (Media3's target live offset, learnt).
/// The step is the smallest the window's end has moved by: after a pause or a stall the first report
/// jumps by the whole gap, which is not a segment.
public struct LiveEdge: Sendable, Hashable {
    /// The seekable window, in stream time.
    public private(set) var windowStart: Duration?
    public private(set) var windowEnd: Duration?
    /// The playhead, in stream time.
    public private(set) var position: Duration?
    /// The closest the playhead has been to the window's end: where playing "live" sits.
    public private(set) var liveOffset: Duration?
    /// The smallest step the window's end has moved by (about a segment); zero until it has moved.
    public private(set) var windowStep: Duration = .zero

    public init() {}

    public mutating func windowChanged(start: Duration, end: Duration, following: Bool = true) {
        if let previous = windowEnd, end > previous {
            let step = end - previous
            windowStep = windowStep == .zero ? step : min(windowStep, step)
        }
        windowStart = start
        windowEnd = max(start, end)
        if following { learn() }
    }

    /// `following` says whether playback is following the live edge as it started (1×, not moved by a
    /// seek since): only then does the playhead teach the live offset. A stream opened behind its edge,
    /// a seek back or a fast rate catching up with the end would otherwise teach a wrong "live".
    public mutating func playheadMoved(to position: Duration, following: Bool = true) {
        self.position = position
        if following { learn() }
    }

    /// How far behind the window's end the playhead is.
    public var behindEnd: Duration? {
        guard let windowEnd, let position else { return nil }
        return max(.zero, windowEnd - position)
    }

    /// How far behind its usual live position the playhead may be and still count as live.
    public var tolerance: Duration { max(.seconds(3), min(.seconds(30), windowStep) * 1.5) }

    /// Live until known otherwise (a stream starts at its edge).
    public var isAtLiveEdge: Bool {
        guard let behindEnd, let liveOffset else { return true }
        return behindEnd <= liveOffset + tolerance
    }

    /// Where "Go to live" seeks: the usual live offset behind the window's end.
    public var liveTarget: Duration? {
        guard let windowEnd else { return nil }
        return max(windowStart ?? .zero, windowEnd - (liveOffset ?? .zero))
    }

    /// `target` kept inside what can be played: no earlier than the window's start, no later than the
    /// live position (a seek past it would only stall at the edge).
    public func clamped(_ target: Duration) -> Duration {
        var result = target
        if let liveTarget { result = min(result, liveTarget) }
        if let windowStart { result = max(result, windowStart) }
        return result
    }

    /// For a DVR slider: the playhead within the window and the window's length.
    public var windowPosition: (position: Duration, length: Duration)? {
        guard let windowStart, let windowEnd, let position else { return nil }
        return (min(max(.zero, position - windowStart), windowEnd - windowStart), windowEnd - windowStart)
    }

    private mutating func learn() {
        guard let behindEnd else { return }
        liveOffset = min(liveOffset ?? behindEnd, behindEnd)
    }
}
