/// One `<Creative>`. VAST puts exactly one of `Linear`, `CompanionAds` or `NonLinearAds` in a
/// creative; all three are optional here so a creative that breaks that rule still loses nothing.
public struct VASTCreative: Sendable, Hashable, Encodable {
    public let id: String?
    /// The ad-server creative id (`adId`, `AdID` in VAST 2).
    public let adId: String?
    public let sequence: Int?
    public let apiFramework: String?
    /// VAST 4 `<UniversalAdId>`s (VAST 4.1 allows several, one per registry).
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

/// `<UniversalAdId idRegistry="…">value</UniversalAdId>`: the creative's id in a registry shared
/// across ad servers (Ad-ID, clearcutID…), so a creative can be recognised after wrappers.
public struct VASTUniversalAdId: Sendable, Hashable, Encodable {
    /// As written; VAST says `unknown` when the registry is not known, and nil here means absent.
    public let idRegistry: String?
    /// The element's text, or VAST 4.0's `idValue` attribute when the text is empty.
    public let value: String

    public init(idRegistry: String? = nil, value: String) {
        self.idRegistry = idRegistry
        self.value = value
    }
}

/// `<Linear>`: the video ad itself (in SSAI, already stitched into the stream).
public struct VASTLinear: Sendable, Hashable, Encodable {
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
    /// `<Icons>`, in document order, at most `VMAPParseLimits.maxIconsPerCreative`; after wrapper
    /// resolution also the wrappers' icons for other programs (see `VASTWrapperResolver`).
    public let icons: [VASTIcon]
    /// VAST 4.1 `<MediaFiles><ClosedCaptionFiles>`.
    public let closedCaptionFiles: [VASTClosedCaptionFile]
    /// VAST 4 `<MediaFiles><Mezzanine>`s.
    public let mezzanines: [VASTMezzanine]
    /// VAST 4 `<MediaFiles><InteractiveCreativeFile>`s.
    public let interactiveCreativeFiles: [VASTInteractiveCreativeFile]

    public init(
        duration: AdTime?, skipOffset: VASTOffset? = nil, trackingEvents: [VASTTrackingEvent] = [],
        videoClicks: VASTVideoClicks = VASTVideoClicks(), mediaFiles: [VASTMediaFile] = [], adParameters: String? = nil,
        icons: [VASTIcon] = [], closedCaptionFiles: [VASTClosedCaptionFile] = [], mezzanines: [VASTMezzanine] = [],
        interactiveCreativeFiles: [VASTInteractiveCreativeFile] = []
    ) {
        self.duration = duration
        self.skipOffset = skipOffset
        self.trackingEvents = trackingEvents
        self.videoClicks = videoClicks
        self.mediaFiles = mediaFiles
        self.adParameters = adParameters
        self.icons = icons
        self.closedCaptionFiles = closedCaptionFiles
        self.mezzanines = mezzanines
        self.interactiveCreativeFiles = interactiveCreativeFiles
    }
}

/// `<VideoClicks>`.
public struct VASTVideoClicks: Sendable, Hashable, Encodable {
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
public struct VASTMediaFile: Sendable, Hashable, Encodable {
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
    /// VAST 4 `fileSize`, in bytes.
    public let fileSize: Int?
    /// VAST 4.1 `mediaType`: `2D`, `3D` or `360`, as written.
    public let mediaType: String?
    public let scalable: Bool?
    public let maintainAspectRatio: Bool?
    public let url: String

    public init(
        id: String? = nil, delivery: String? = nil, type: String? = nil, width: Int? = nil, height: Int? = nil,
        bitrate: Int? = nil, minBitrate: Int? = nil, maxBitrate: Int? = nil, codec: String? = nil,
        apiFramework: String? = nil, fileSize: Int? = nil, mediaType: String? = nil, scalable: Bool? = nil,
        maintainAspectRatio: Bool? = nil, url: String
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
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.url = url
    }
}
