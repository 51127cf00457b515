extension AdTimeline {
    /// One ad break (an ad sequence, in Brightcove's terms): a point in content time, a range in
    /// stream time.
    public struct Break: Sendable, Hashable {
        /// Position in `AdTimeline.breaks`.
        public let index: Int
        /// Where the break sits in content time. Content does not advance during a break, so a
        /// break has a content offset rather than a content range.
        public let contentOffset: AdTime
        /// Where the break's ads play in the stitched stream, end excluded.
        public let streamRange: Range<AdTime>
        /// The ads in play order (document order), back to back over `streamRange`.
        public let ads: [Ad]
        /// The VMAP breaks placed here, in document order: one, or several that shared an offset.
        /// Their `breakStart`/`breakEnd` tracking, extensions and ad sources are read from here.
        public let sources: [VMAPAdBreak]
        public let kind: Kind

        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// At content time zero.
            case preRoll
            /// Between the start and the end of the content.
            case midRoll
            /// At the end of the content.
            case postRoll
        }

        /// The first `breakId` among the sources.
        public var id: String? { sources.lazy.compactMap(\.breakId).first }

        public var duration: AdTime { streamRange.upperBound.saturatingSubtracting(streamRange.lowerBound) }

        /// Every source's tracking events (`breakStart`, `breakEnd`, `error`), in document order.
        public var trackingEvents: [VMAPTrackingEvent] { sources.flatMap(\.trackingEvents) }
    }
}
