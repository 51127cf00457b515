extension TimelineBuilder {
    /// Assigns stream ranges: a break's stream start is its content offset plus every earlier
    /// break's duration.
    static func layout(_ groups: [Group], content: AdTime?) throws(AdTimelineError) -> [AdTimeline.Break] {
        var breaks: [AdTimeline.Break] = []
        var prior = AdTime.zero
        for (index, group) in groups.enumerated() {
            let start = try sum([group.offset, prior])
            var cursor = start
            var ads: [AdTimeline.Ad] = []
            for (adIndex, ad) in group.ads.enumerated() {
                let end = try sum([cursor, ad.duration])
                ads.append(AdTimeline.Ad(breakIndex: index, index: adIndex, streamRange: cursor..<end, placed: ad))
                cursor = end
            }
            let kind: AdTimeline.Break.Kind =
                group.offset == .zero ? .preRoll : (group.offset == content ? .postRoll : .midRoll)
            breaks.append(
                AdTimeline.Break(
                    index: index, contentOffset: group.offset, streamRange: start..<cursor, ads: ads, sources: group.sources, kind: kind
                ))
            prior = try sum([prior, cursor.saturatingSubtracting(start)])
        }
        return breaks
    }

    static func sum(_ times: [AdTime]) throws(AdTimelineError) -> AdTime {
        var total = AdTime.zero
        for time in times {
            guard let next = total.adding(time) else {
                throw AdTimelineError(
                    .timeOverflow,
                    detail: "Offsets and ad durations add up to more than 292 years.",
                    advice: "Check the VMAP's Duration and timeOffset values; they are not plausible for any stream."
                )
            }
            total = next
        }
        return total
    }
}
