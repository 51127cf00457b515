/// One `<Creative>`. VAST puts exactly one of `Linear`, `CompanionAds` or `NonLinearAds` in a
/// creative; all three are optional here so a creative that breaks that rule still loses nothing.
public struct VASTCreative: Sendable, Hashable {
    public let id: String?
    /// The ad-server creative id (`adId`, `AdID` in VAST 2).
    public let adId: String?
    public let sequence: Int?
    public let apiFramework: String?
    /// VAST 4 `<UniversalAdId>`s.
    public let universalAdIds: [VASTUniversalAdId]
    public let linear: VASTLinear?
    public let companionAds: VASTCompanionAds?
    public let nonLinearAds: VASTNonLinearAds?
    /// `<CreativeExtensions>/<CreativeExtension>`, from the creative and from inside `Linear`
    /// (where Brightcove puts its `BrightcoveForeignKey`), kept as XML.
    public let creativeExtensions: [RawXMLElement]

    public init(
        id: String? = nil, adId: String? = nil, sequence: Int? = nil, apiFramework: String? = nil,
        universalAdIds: [VASTUniversalAdId] = [], linear: VASTLinear? = nil, companionAds: VASTCompanionAds? = nil,
        nonLinearAds: VASTNonLinearAds? = nil, creativeExtensions: [RawXMLElement] = []
    ) {
        self.id = id
        self.adId = adId
        self.sequence = sequence
        self.apiFramework = apiFramework
        self.universalAdIds = universalAdIds
        self.linear = linear
        self.companionAds = companionAds
        self.nonLinearAds = nonLinearAds
        self.creativeExtensions = creativeExtensions
    }
}

/// `<UniversalAdId idRegistry="…">value</UniversalAdId>`.
public struct VASTUniversalAdId: Sendable, Hashable {
    public let idRegistry: String?
    public let value: String

    public init(idRegistry: String? = nil, value: String) {
        self.idRegistry = idRegistry
        self.value = value
    }
}

/// `<Linear>`: the video ad itself (in SSAI, already stitched into the stream).
public struct VASTLinear: Sendable, Hashable {
    /// Always set in inline ads (an inline ad whose `Duration` is missing or bad is dropped with a
    /// warning); nil in wrappers, whose linear creatives carry only tracking.
    public let duration: AdTime?
    /// When the ad becomes skippable; nil when not skippable.
    public let skipOffset: VASTOffset?
    public let trackingEvents: [VASTTrackingEvent]
    public let videoClicks: VASTVideoClicks
    public let mediaFiles: [VASTMediaFile]
    /// `<AdParameters>` as XML text (for VPAID/SIMID), nil when empty.
    public let adParameters: String?

    public init(
        duration: AdTime?, skipOffset: VASTOffset? = nil, trackingEvents: [VASTTrackingEvent] = [],
        videoClicks: VASTVideoClicks = VASTVideoClicks(), mediaFiles: [VASTMediaFile] = [], adParameters: String? = nil
    ) {
        self.duration = duration
        self.skipOffset = skipOffset
        self.trackingEvents = trackingEvents
        self.videoClicks = videoClicks
        self.mediaFiles = mediaFiles
        self.adParameters = adParameters
    }
}

/// `<VideoClicks>`.
public struct VASTVideoClicks: Sendable, Hashable {
    /// Where "Learn More" goes; nil when absent or empty.
    public let clickThrough: VASTClick?
    public let clickTracking: [VASTClick]
    public let customClicks: [VASTClick]

    public init(clickThrough: VASTClick? = nil, clickTracking: [VASTClick] = [], customClicks: [VASTClick] = []) {
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.customClicks = customClicks
    }
}

/// `<MediaFile>`. SSAI streams already contain the ad, so these are informational; numbers that
/// cannot be read are nil (with a warning).
public struct VASTMediaFile: Sendable, Hashable {
    public let id: String?
    /// `progressive` or `streaming`, as written.
    public let delivery: String?
    /// MIME type, for example `video/mp4`.
    public let type: String?
    public let width: Int?
    public let height: Int?
    /// Kbit/s.
    public let bitrate: Int?
    public let minBitrate: Int?
    public let maxBitrate: Int?
    public let codec: String?
    public let apiFramework: String?
    public let url: String

    public init(
        id: String? = nil, delivery: String? = nil, type: String? = nil, width: Int? = nil, height: Int? = nil,
        bitrate: Int? = nil, minBitrate: Int? = nil, maxBitrate: Int? = nil, codec: String? = nil,
        apiFramework: String? = nil, url: String
    ) {
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.minBitrate = minBitrate
        self.maxBitrate = maxBitrate
        self.codec = codec
        self.apiFramework = apiFramework
        self.url = url
    }
}
