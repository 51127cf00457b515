/// Which crossed ad breaks a forward seek plays before reaching its target. The seed's rule is the
/// default; the others are for apps whose ad contracts differ (beyond the seed).
public enum AdSkipPolicy: String, Sendable, Hashable, CaseIterable {
    /// Crossing one break plays it; crossing several plays only the last (the seed's rule).
    case playLast
    /// Every crossed break plays, in order.
    case playAll
    /// Seeks never play ads.
    case playNone
}

/// How to carry out a seek in content time on a stitched stream.
public struct SSAISeekPlan: Sendable, Hashable {
    /// Where to seek the stitched stream now.
    public let streamTime: AdTime
    /// The breaks to play first, in order (empty: straight to the target).
    public let breaksToPlay: [Int]
    /// Where to continue once they have played (the target's stream time, after its breaks).
    public let resumeStreamTime: AdTime?

    public init(streamTime: AdTime, breaksToPlay: [Int] = [], resumeStreamTime: AdTime? = nil) {
        self.streamTime = streamTime
        self.breaksToPlay = breaksToPlay
        self.resumeStreamTime = resumeStreamTime
    }
}

extension AdTimeline {
    /// The plan for a seek from content time `from` to `to`: backward seeks play no ads; forward ones
    /// play the crossed breaks `policy` picks (a break exactly at the target counts as crossed, so a
    /// seek to the end plays the post-roll); `adsDisabled` (the seed's "seek without ads") plays none.
    public func planSeek(fromContent from: AdTime, toContent to: AdTime, policy: AdSkipPolicy = .playLast, adsDisabled: Bool = false) -> SSAISeekPlan {
        let target = streamTimeAfterBreaks(atContentTime: to)
        let crossed = breaks(crossedFrom: from, to: to)
        guard !adsDisabled, policy != .playNone, let first = crossed.first, let last = crossed.last else {
            return SSAISeekPlan(streamTime: target)
        }
        switch policy {
        case .playLast:
            return SSAISeekPlan(streamTime: last.streamRange.lowerBound, breaksToPlay: [last.index], resumeStreamTime: target)
        case .playAll:
            return SSAISeekPlan(streamTime: first.streamRange.lowerBound, breaksToPlay: crossed.map(\.index), resumeStreamTime: target)
        case .playNone:
            return SSAISeekPlan(streamTime: target)
        }
    }
}
