/// One linear ad as the app sees it (the seed's `BCOVAd`): what it is, where it plays and what the
/// ad server said about it. Times are stream times (the position in the stream the engine plays,
/// ads included); `duration` is the ad's own length.
public struct Ad: Sendable, Hashable, CustomStringConvertible {
    /// The ad's position: which sequence (break) it belongs to and its place in it, both from 0.
    public let sequenceIndex: Int
    public let index: Int
    public let title: String?
    /// The ad server's id for the ad (VAST `Ad@id`).
    public let adID: String?
    /// Where the ad starts in the stream.
    public let beginTime: MediaTime
    public let duration: Duration
    /// When a skip becomes possible, as an offset into the ad; nil when the ad cannot be skipped.
    public let skipOffset: Duration?
    /// Where "Learn More" leads (VAST `ClickThrough`).
    public let clickThroughURL: String?
    /// Tracking URLs by event name (`impression`, `start`, `firstQuartile`, …, `clickTracking`).
    public let trackingURLs: [String: [String]]
    /// Everything else the ad server sent that an app may want (the seed's ad `properties`):
    /// VAST extensions and creative extensions as XML strings, the ad system, companions' sizes.
    public let properties: JSONObject

    public init(
        sequenceIndex: Int, index: Int, title: String?, adID: String?, beginTime: MediaTime, duration: Duration,
        skipOffset: Duration? = nil, clickThroughURL: String? = nil, trackingURLs: [String: [String]] = [:], properties: JSONObject = [:]
    ) {
        self.sequenceIndex = sequenceIndex
        self.index = index
        self.title = title
        self.adID = adID
        self.beginTime = beginTime
        self.duration = duration
        self.skipOffset = skipOffset
        self.clickThroughURL = clickThroughURL
        self.trackingURLs = trackingURLs
        self.properties = properties
    }

    /// The seed's `PropertyKeySkippable`.
    public var isSkippable: Bool { skipOffset != nil }

    public var description: String { "Ad(\(sequenceIndex).\(index) \(adID ?? "-") \"\(title ?? "")\" at \(beginTime) for \(MediaTime(duration)))" }
}

/// An ad break: the ads that play back to back at one point of the content (the seed's
/// `BCOVAdSequence`).
public struct AdSequence: Sendable, Hashable, CustomStringConvertible {
    /// Position among the session's breaks, from 0.
    public let index: Int
    /// Where the break starts in the stream.
    public let beginTime: MediaTime
    public let duration: Duration
    /// Where the break sits in content time (content does not advance while it plays).
    public let contentTime: MediaTime
    public let ads: [Ad]
    /// The break's id and kind (`preRoll`, `midRoll`, `postRoll`) and any extensions.
    public let properties: JSONObject

    public init(index: Int, beginTime: MediaTime, duration: Duration, contentTime: MediaTime, ads: [Ad], properties: JSONObject = [:]) {
        self.index = index
        self.beginTime = beginTime
        self.duration = duration
        self.contentTime = contentTime
        self.ads = ads
        self.properties = properties
    }

    public var description: String { "AdSequence(\(index) at \(beginTime), \(ads.count) ads, \(MediaTime(duration)))" }
}

/// Ad progress: the playhead's time into the ad, with the ad.
public struct AdProgress: Sendable, Hashable {
    public let ad: Ad
    /// Time into the ad, from zero.
    public let time: MediaTime
    /// Time left in the ad.
    public var remaining: Duration { max(.zero, ad.duration - (time.duration ?? .zero)) }

    public init(ad: Ad, time: MediaTime) {
        self.ad = ad
        self.time = time
    }
}
