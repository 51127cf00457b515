extension AdTimeline {
    /// Builds the timeline of a parsed VMAP.
    ///
    /// - Parameters:
    ///   - document: the parsed VMAP (its breaks, inline VAST and Brightcove extensions).
    ///   - contentDuration: used when the VMAP has no `contentlength` (which wins when both are
    ///     known; a disagreement is a warning). Without either, the duration is worked out as
    ///     `payloadlength` (or `streamDuration`) minus the ads, else left unknown.
    ///   - streamDuration: the stitched stream's real duration, once the engine knows it. Ads
    ///     ending more than `lengthTolerance` past it are dropped (`adsBeyondStream`).
    /// - Throws: `AdTimelineError` when a break needs the content duration (`end`, `n%`) and it
    ///   is unknown, or when the times overflow. Everything else is placed, clamped or dropped
    ///   with a warning; see `AdTimelineWarning.Kind` for each case.
    public static func make(
        from document: VMAPDocument, contentDuration: AdTime? = nil, streamDuration: AdTime? = nil
    ) throws(AdTimelineError) -> AdTimeline {
        var builder = TimelineBuilder(document: document, contentDuration: contentDuration, streamDuration: streamDuration)
        return try builder.build()
    }
}
