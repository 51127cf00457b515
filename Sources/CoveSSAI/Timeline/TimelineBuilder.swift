/// The steps of `AdTimeline.make`, in order, each recording its own warnings.
struct TimelineBuilder {
    /// A VMAP break with placeable ads and an offset that needs no further checks to be read.
    private struct Candidate {
        let source: VMAPAdBreak
        let ads: [PlacedAd]
        let location: String
    }

    /// Breaks that share one content offset, not yet laid out in stream time.
    struct Group {
        let offset: AdTime
        var sources: [VMAPAdBreak]
        var ads: [PlacedAd]
    }

    let document: VMAPDocument
    let givenContentDuration: AdTime?
    let streamDuration: AdTime?
    private(set) var warnings: [AdTimelineWarning] = []

    init(document: VMAPDocument, contentDuration: AdTime?, streamDuration: AdTime?) {
        self.document = document
        self.givenContentDuration = contentDuration
        self.streamDuration = streamDuration
    }

    mutating func build() throws(AdTimelineError) -> AdTimeline {
        let candidates = collect()
        let adTotal = try Self.sum(candidates.flatMap(\.ads).map(\.duration))
        let content = contentDuration(adTotal: adTotal)
        if let content { _ = try Self.sum([content, adTotal]) }
        var groups = try merge(candidates, content: content)
        checkPayload(content: content, adTotal: adTotal)
        var breaks = try Self.layout(groups, content: content)
        if let streamDuration {
            groups = dropBeyondStream(groups, breaks: breaks, streamDuration: streamDuration, content: content)
            breaks = try Self.layout(groups, content: content)
        }
        let placedTotal = try Self.sum(breaks.map(\.duration))
        return AdTimeline(breaks: breaks, contentDuration: content, totalAdDuration: placedTotal, warnings: warnings)
    }

    /// Keeps breaks that have ads and an offset that can be read without the content duration's help.
    private mutating func collect() -> [Candidate] {
        var candidates: [Candidate] = []
        for (position, source) in document.adBreaks.enumerated() {
            let location = "".step("AdBreak", position + 1, id: source.breakId)
            let ads = PlacedAd.playable(in: source, at: location, warnings: &warnings)
            guard !ads.isEmpty else {
                warn(.emptyBreak, location, "The break has no inline linear ad with a duration to place in the stream; it was dropped.")
                continue
            }
            switch source.timeOffset {
            case .position:
                warn(
                    .positionOffsetUnsupported, location,
                    "The offset \(source.timeOffset) names a cue point; SSAI places breaks by content time only. The break was dropped.")
                continue
            case .time(let time) where time.nanoseconds < 0:
                warn(.invalidOffset, location, "The offset is negative. The break was dropped.")
                continue
            case .percentage(let percent) where !percent.isFinite || percent < 0:
                warn(.invalidOffset, location, "The offset \(source.timeOffset) is not a percentage from 0 to 100. The break was dropped.")
                continue
            default:
                break
            }
            if source.repeatAfter != nil {
                warn(.repeatAfterIgnored, location, "repeatAfter is ignored: the stitched stream holds the break once, at its offset.")
            }
            candidates.append(Candidate(source: source, ads: ads, location: location))
        }
        return candidates
    }

    private mutating func contentDuration(adTotal: AdTime) -> AdTime? {
        if let length = document.stream.contentLength {
            if let given = givenContentDuration, given.distance(to: length) > AdTimeline.lengthTolerance {
                warn(.contentDurationMismatch, "document", "contentlength is \(length) but \(given) was passed; contentlength was used.")
            }
            return length
        }
        if let givenContentDuration { return givenContentDuration }
        for (name, total) in [("payloadlength", document.stream.payloadLength), ("the stream's duration", streamDuration)] {
            guard let total, total >= adTotal else { continue }
            let derived = total.saturatingSubtracting(adTotal)
            warn(.contentDurationDerived, "document", "The VMAP has no contentlength; the content duration was taken as \(name) minus the ads: \(derived).")
            return derived
        }
        return nil
    }

    /// Resolves offsets to content times and merges breaks that land on the same one, keeping
    /// document order within a merged break (sorting by offset, then by document position).
    private mutating func merge(_ candidates: [Candidate], content: AdTime?) throws(AdTimelineError) -> [Group] {
        var placed: [(offset: AdTime, order: Int, candidate: Candidate)] = []
        for (order, candidate) in candidates.enumerated() {
            placed.append((try offset(of: candidate, content: content), order, candidate))
        }
        placed.sort { ($0.offset, $0.order) < ($1.offset, $1.order) }
        var groups: [Group] = []
        var mergedLocations: [String] = []
        for item in placed {
            if let last = groups.last, last.offset == item.offset {
                groups[groups.count - 1].sources.append(item.candidate.source)
                groups[groups.count - 1].ads += item.candidate.ads
                mergedLocations.append(item.candidate.location)
                continue
            }
            flushMerged(&mergedLocations, into: groups.last)
            groups.append(Group(offset: item.offset, sources: [item.candidate.source], ads: item.candidate.ads))
            mergedLocations = [item.candidate.location]
        }
        flushMerged(&mergedLocations, into: groups.last)
        return groups
    }

    private mutating func flushMerged(_ locations: inout [String], into group: Group?) {
        defer { locations = [] }
        guard locations.count > 1, let group else { return }
        warn(
            .mergedBreaks, locations.joined(separator: " + "),
            "These breaks share content offset \(group.offset); they were merged into one break, ads in document order.")
    }

    private mutating func offset(of candidate: Candidate, content: AdTime?) throws(AdTimelineError) -> AdTime {
        let offset = candidate.source.timeOffset
        switch offset {
        case .start:
            return .zero
        case .end, .percentage:
            guard let content else {
                throw AdTimelineError(
                    .unknownContentDuration, location: candidate.location,
                    detail:
                        "The break's offset \(offset) is relative to the content's end, but the content duration is unknown (no contentlength in the VMAP).",
                    advice: "Pass contentDuration (for example the video's duration from the Playback API) or streamDuration once the stream is loaded."
                )
            }
            guard case .percentage(let percent) = offset else { return content }
            if percent > 100 {
                warn(.offsetBeyondContent, candidate.location, "The offset \(offset) is past the end of the content; the break plays as a post-roll.")
                return content
            }
            return content.fraction(percent: percent)
        case .time(let time):
            if let content, time > content {
                warn(
                    .offsetBeyondContent, candidate.location, "The offset \(time) is past the end of the content (\(content)); the break plays as a post-roll.")
                return content
            }
            return time
        case .position:
            return .zero  // Filtered out in `collect`.
        }
    }

    private mutating func checkPayload(content: AdTime?, adTotal: AdTime) {
        guard let payload = document.stream.payloadLength, let content else { return }
        let expected = content.saturatingAdding(adTotal)
        guard expected.distance(to: payload) > AdTimeline.lengthTolerance else { return }
        warn(
            .payloadMismatch, "document",
            "payloadlength is \(payload) but content plus ads is \(expected); ad positions may be off. The timeline follows the ad durations.")
    }

    /// Ads are laid out back to back, so once one ends past the stream every later one does too:
    /// the kept ads are a prefix of the stream order.
    private mutating func dropBeyondStream(
        _ groups: [Group], breaks: [AdTimeline.Break], streamDuration: AdTime, content: AdTime?
    ) -> [Group] {
        let limit = streamDuration.saturatingAdding(AdTimeline.lengthTolerance)
        var kept: [Group] = []
        var adTotal = AdTime.zero
        for (group, laidOut) in zip(groups, breaks) {
            var trimmed = group
            trimmed.ads = []
            for (ad, placed) in zip(group.ads, laidOut.ads) {
                if placed.streamRange.upperBound <= limit {
                    trimmed.ads.append(ad)
                    adTotal = adTotal.saturatingAdding(ad.duration)
                } else {
                    warn(
                        .adsBeyondStream, ad.location,
                        "The ad would end at stream time \(placed.streamRange.upperBound), after the stream's end (\(streamDuration)); it was dropped.")
                }
            }
            if !trimmed.ads.isEmpty { kept.append(trimmed) }
        }
        if let content, content.saturatingAdding(adTotal) > limit {
            warn(
                .streamShorterThanContent, "document",
                "The stream (\(streamDuration)) ends before content plus the remaining ads (\(content.saturatingAdding(adTotal))); the end of the content is missing."
            )
        }
        return kept
    }

    private mutating func warn(_ kind: AdTimelineWarning.Kind, _ location: String, _ message: String) {
        warnings.append(AdTimelineWarning(kind, location: location, message: message))
    }
}
