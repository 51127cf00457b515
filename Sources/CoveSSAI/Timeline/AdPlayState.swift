/// Which breaks of one timeline have played: session state, kept apart from the immutable
/// `AdTimeline` so the timeline can be shared and compared while playback moves on.
///
/// Brightcove plays a crossed break again even when it was played before, so this does not
/// gate playback; the app reads it (with the timeline) to show played markers, and the
/// resume-without-ads flow uses it.
public struct AdPlayState: Sendable, Hashable {
    /// Indices into `AdTimeline.breaks`.
    public let playedBreakIndices: Set<Int>

    public init(playedBreakIndices: Set<Int> = []) {
        self.playedBreakIndices = playedBreakIndices
    }

    public func hasPlayed(_ adBreak: AdTimeline.Break) -> Bool {
        playedBreakIndices.contains(adBreak.index)
    }

    /// A copy with `adBreak` marked as played.
    public func markingPlayed(_ adBreak: AdTimeline.Break) -> AdPlayState {
        AdPlayState(playedBreakIndices: playedBreakIndices.union([adBreak.index]))
    }

    /// The breaks of `timeline` not yet played, in order.
    public func unplayedBreaks(in timeline: AdTimeline) -> [AdTimeline.Break] {
        timeline.breaks.filter { !hasPlayed($0) }
    }
}
