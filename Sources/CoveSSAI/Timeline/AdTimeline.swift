/// Where every ad of a Brightcove SSAI session sits in the stitched stream, and how content time
/// (the position in the content without ads) and stream time (the position in the stitched
/// stream the engine plays) map onto each other.
///
/// A pure value built once from the VMAP by `make(from:contentDuration:streamDuration:)`: no
/// play state, no clocks, so the engine, the ad-event layer and the app can all query it from any
/// thread. Whether a break was played is session state and lives in `AdPlayState`.
///
/// The model, from Brightcove's documentation and its iOS plugin: break offsets are content
/// time; a break at content offset `c` occupies stream time `[c + P, c + P + D)`, where `P` is the
/// total duration of the breaks before it and `D` its own; the stream is content plus every ad.
public struct AdTimeline: Sendable, Hashable {
    /// The breaks by content offset; offsets are distinct (breaks that shared one are merged),
    /// so stream ranges strictly increase with content between any two.
    public let breaks: [Break]
    /// The content's duration without ads; nil when the VMAP has no `contentlength` and none
    /// was passed. Then content time is not capped and there is no post-roll.
    public let contentDuration: AdTime?
    /// The sum of every placed ad's duration.
    public let totalAdDuration: AdTime
    /// What could not be placed as written, and what was done instead.
    public let warnings: [AdTimelineWarning]

    /// The most `payloadlength`, `contentlength` and the stream's own duration may disagree
    /// before a warning (or, for the stream, a dropped ad): segment boundaries and rounding in
    /// the VMAP's four fractional digits make small differences normal.
    public static let lengthTolerance = AdTime(uncheckedNanoseconds: 500_000_000)

    init(breaks: [Break], contentDuration: AdTime?, totalAdDuration: AdTime, warnings: [AdTimelineWarning]) {
        self.breaks = breaks
        self.contentDuration = contentDuration
        self.totalAdDuration = totalAdDuration
        self.warnings = warnings
    }

    /// Content plus every ad, as the stitched stream should last; nil when the content duration is unknown.
    public var streamDuration: AdTime? { contentDuration?.saturatingAdding(totalAdDuration) }

    /// Every ad in stream order.
    public var ads: [Ad] { breaks.flatMap(\.ads) }

    /// A timeline with no breaks, for content that plays without ads (after an `AdTimelineError`).
    public static func contentOnly(contentDuration: AdTime?) -> AdTimeline {
        AdTimeline(breaks: [], contentDuration: contentDuration, totalAdDuration: .zero, warnings: [])
    }
}
