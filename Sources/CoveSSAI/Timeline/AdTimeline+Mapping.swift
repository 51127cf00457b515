/// Content time ↔ stream time. Progress, duration and cue points reach the app in content time;
/// the engine seeks and reports in stream time.
///
/// Every query is total: times before zero cannot exist, times past the end clamp to the end
/// (when the content duration is known), sums saturate. No input traps.
extension AdTimeline {
    /// Where in the stitched stream playing from, or seeking to, content time `contentTime` starts.
    /// A break at exactly that offset comes first, so the result is the break's start: content
    /// 0 maps to the start of the pre-roll, the content's end to the start of the post-roll.
    public func streamTime(forContentTime contentTime: AdTime) -> AdTime {
        let time = clampedToContent(contentTime)
        guard let index = lastBreak(withContentOffsetAtOrBefore: time) else { return time }
        let adBreak = breaks[index]
        if adBreak.contentOffset == time { return adBreak.streamRange.lowerBound }
        return time.saturatingAdding(adBreak.streamRange.upperBound.saturatingSubtracting(adBreak.contentOffset))
    }

    /// Like `streamTime(forContentTime:)`, but past a break at exactly that offset: for seeking
    /// without ads (resuming, `adsDisabled`). The content's end maps to the stream's end.
    public func streamTimeAfterBreaks(atContentTime contentTime: AdTime) -> AdTime {
        let time = clampedToContent(contentTime)
        guard let index = lastBreak(withContentOffsetAtOrBefore: time) else { return time }
        let adBreak = breaks[index]
        return time.saturatingAdding(adBreak.streamRange.upperBound.saturatingSubtracting(adBreak.contentOffset))
    }

    /// The content time at stream time `streamTime`. Inside a break content does not advance, so
    /// every stream time in a break maps to the break's content offset (Brightcove: with a 30 s
    /// break at 1:30, "a content time of 1:30 would correspond to any absolute stream time from
    /// 1:30 to 2:00").
    public func contentTime(forStreamTime streamTime: AdTime) -> AdTime {
        guard let index = lastBreak(withStreamStartAtOrBefore: streamTime) else { return clampedToContent(streamTime) }
        let adBreak = breaks[index]
        if streamTime < adBreak.streamRange.upperBound { return adBreak.contentOffset }
        let shift = adBreak.streamRange.upperBound.saturatingSubtracting(adBreak.contentOffset)
        return clampedToContent(streamTime.saturatingSubtracting(shift))
    }

    /// What plays at stream time `streamTime`: content (at a content time) or an ad.
    public func position(atStreamTime streamTime: AdTime) -> Position {
        guard let index = lastBreak(withStreamStartAtOrBefore: streamTime),
            streamTime < breaks[index].streamRange.upperBound
        else { return .content(contentTime(forStreamTime: streamTime)) }
        let adBreak = breaks[index]
        let adIndex = adBreak.ads.lastIndex { $0.streamRange.lowerBound <= streamTime } ?? 0
        return .ad(
            breakIndex: index, adIndex: adIndex,
            timeIntoAd: streamTime.saturatingSubtracting(adBreak.ads[adIndex].streamRange.lowerBound),
            timeIntoBreak: streamTime.saturatingSubtracting(adBreak.streamRange.lowerBound)
        )
    }

    /// The breaks a forward move in content time passes, in order, for the seek rules: those with
    /// `from < contentOffset <= to`. The start is excluded (a break at the current position has
    /// already played, or is about to play anyway); the target is included (seeking to a
    /// break's offset, or to the end, plays that break). Empty when `to <= from` (backward moves
    /// pass no ads).
    public func breaks(crossedFrom from: AdTime, to: AdTime) -> [Break] {
        guard from < to else { return [] }
        let first = lastBreak(withContentOffsetAtOrBefore: from).map { $0 + 1 } ?? 0
        let end = lastBreak(withContentOffsetAtOrBefore: to).map { $0 + 1 } ?? 0
        return first < end ? Array(breaks[first..<end]) : []
    }

    /// The first break strictly after content time `contentTime`; nil when none is left.
    public func nextBreak(afterContentTime contentTime: AdTime) -> Break? {
        let index = lastBreak(withContentOffsetAtOrBefore: contentTime).map { $0 + 1 } ?? 0
        return index < breaks.count ? breaks[index] : nil
    }

    /// The break at exactly content offset `contentTime`, if any.
    public func adBreak(atContentOffset contentTime: AdTime) -> Break? {
        guard let index = lastBreak(withContentOffsetAtOrBefore: contentTime), breaks[index].contentOffset == contentTime else {
            return nil
        }
        return breaks[index]
    }

    private func clampedToContent(_ time: AdTime) -> AdTime {
        guard let contentDuration else { return time }
        return Swift.min(time, contentDuration)
    }

    /// Binary search: offsets and stream ranges both strictly increase.
    private func lastBreak(withContentOffsetAtOrBefore time: AdTime) -> Int? {
        lastIndex { $0.contentOffset <= time }
    }

    private func lastBreak(withStreamStartAtOrBefore time: AdTime) -> Int? {
        lastIndex { $0.streamRange.lowerBound <= time }
    }

    /// The last index whose break satisfies `isAtOrBefore`, which must hold for a prefix of `breaks`.
    private func lastIndex(_ isAtOrBefore: (Break) -> Bool) -> Int? {
        var low = 0
        var high = breaks.count
        while low < high {
            let middle = low + (high - low) / 2
            if isAtOrBefore(breaks[middle]) { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}

extension AdTimeline {
    /// What the stitched stream shows at one stream time.
    public enum Position: Sendable, Hashable {
        /// Content, at this content time.
        case content(AdTime)
        /// Ad `adIndex` of break `breakIndex`, with how far into the ad and into the break.
        case ad(breakIndex: Int, adIndex: Int, timeIntoAd: AdTime, timeIntoBreak: AdTime)
    }
}
