extension AdTimeline {
    /// One linear ad in the stitched stream. It keeps the parsed VAST values it came from rather
    /// than copies of their fields, so nothing the ad server sent is lost and the beacon and UI
    /// layers read the same values the parser produced.
    public struct Ad: Sendable, Hashable {
        /// Position of the break in `AdTimeline.breaks`.
        public let breakIndex: Int
        /// Position within the break.
        public let index: Int
        /// Where the ad plays in the stitched stream, end excluded.
        public let streamRange: Range<AdTime>
        /// The VAST `<Ad>` as parsed (always inline).
        public let vastAd: VASTAd
        public let inLine: VASTInLine
        /// The first linear creative with a duration: the one stitched into the stream.
        public let linear: VASTLinear

        init(breakIndex: Int, index: Int, streamRange: Range<AdTime>, placed: PlacedAd) {
            self.breakIndex = breakIndex
            self.index = index
            self.streamRange = streamRange
            self.vastAd = placed.vastAd
            self.inLine = placed.inLine
            self.linear = placed.linear
        }

        public var id: String? { vastAd.id }
        public var title: String? { inLine.adTitle }
        public var duration: AdTime { streamRange.upperBound.saturatingSubtracting(streamRange.lowerBound) }
        public var skipOffset: VASTOffset? { linear.skipOffset }
        /// Where "Learn More" goes.
        public var clickThrough: VASTClick? { linear.videoClicks.clickThrough }
        public var clickTracking: [VASTClick] { linear.videoClicks.clickTracking }
        public var trackingEvents: [VASTTrackingEvent] { linear.trackingEvents }
        public var impressions: [VASTImpression] { inLine.impressions }
        /// The stitched linear creative's icons (AdChoices and the like), wrappers' included.
        public var icons: [VASTIcon] { linear.icons }
        /// Companions from every creative of the ad, in document order.
        public var companions: [VASTCompanion] { inLine.creatives.compactMap(\.companionAds).flatMap(\.companions) }

        /// The stream time `offset` (from the start of this ad) falls on, kept inside the ad:
        /// servers write offsets past the end (`complete offset="30"` on a 29.97 s ad and worse).
        public func streamTime(at offset: VASTOffset) -> AdTime {
            let start = streamRange.lowerBound
            switch offset {
            case .time(let time):
                return start.saturatingAdding(Swift.min(time, duration))
            case .percentage(let percent):
                guard percent.isFinite, percent > 0 else { return start }
                return start.saturatingAdding(duration.fraction(percent: Swift.min(percent, 100)))
            }
        }

        /// When the skip button becomes active; nil when the ad is not skippable, including a
        /// `skipoffset` at or past the ad's end, which leaves nothing to skip.
        public var skipStreamTime: AdTime? {
            guard let skipOffset else { return nil }
            let time = streamTime(at: skipOffset)
            return time < streamRange.upperBound ? time : nil
        }

        /// The five points the VAST quartile beacons fire at, by the ad's duration.
        public var quartiles: Quartiles { Quartiles(streamRange) }

        /// The beacons that fire at a point in the ad, in time order (ties in document order):
        /// every tracking event with an `offset` (`progress`, and quartiles on legacy servers),
        /// and `start`/`firstQuartile`/`midpoint`/`thirdQuartile`/`complete` without one at their
        /// quartile. Event-driven beacons (`pause`, `skip`, `creativeView`…) are not here.
        public var scheduledTracking: [ScheduledTracking] {
            let quartiles = quartiles
            let scheduled = trackingEvents.enumerated().compactMap { position, event -> (Int, ScheduledTracking)? in
                let time: AdTime? = if let offset = event.offset { streamTime(at: offset) } else { quartiles.time(of: event.event) }
                return time.map { (position, ScheduledTracking(event: event, streamTime: $0)) }
            }
            return scheduled.sorted { ($0.1.streamTime, $0.0) < ($1.1.streamTime, $1.0) }.map(\.1)
        }
    }

    /// The quartile points of one ad, as stream times.
    public struct Quartiles: Sendable, Hashable {
        public let start: AdTime
        public let firstQuartile: AdTime
        public let midpoint: AdTime
        public let thirdQuartile: AdTime
        /// The ad's end (the first instant after it).
        public let complete: AdTime

        init(_ range: Range<AdTime>) {
            let start = range.lowerBound
            let length = range.upperBound.nanoseconds - start.nanoseconds
            // Split before multiplying so three quarters of a huge length cannot overflow.
            let quarter = length / 4
            let remainder = length % 4
            func at(_ quarters: Int64) -> AdTime {
                AdTime(uncheckedNanoseconds: start.nanoseconds + quarter * quarters + remainder * quarters / 4)
            }
            self.start = start
            firstQuartile = at(1)
            midpoint = at(2)
            thirdQuartile = at(3)
            complete = range.upperBound
        }

        /// The quartile a standard VAST event name stands for; nil for other events.
        public func time(of event: VASTTrackingEventName) -> AdTime? {
            switch event {
            case .start: start
            case .firstQuartile: firstQuartile
            case .midpoint: midpoint
            case .thirdQuartile: thirdQuartile
            case .complete: complete
            default: nil
            }
        }
    }

    /// A tracking event and the stream time it fires at.
    public struct ScheduledTracking: Sendable, Hashable {
        public let event: VASTTrackingEvent
        public let streamTime: AdTime
    }
}
