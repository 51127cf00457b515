/// `<CompanionAds>`: display ads shown next to the video; the display container matches them to
/// the app's slots by exact width × height, as Brightcove's does.
public struct VASTCompanionAds: Sendable, Hashable, Encodable {
    /// `required`: `all`, `any` or `none`, as written.
    public let required: String?
    public let companions: [VASTCompanion]

    public init(required: String? = nil, companions: [VASTCompanion]) {
        self.required = required
        self.companions = companions
    }
}

/// One `<Companion>`.
public struct VASTCompanion: Sendable, Hashable, Encodable {
    public let id: String?
    public let width: Int?
    public let height: Int?
    public let assetWidth: Int?
    public let assetHeight: Int?
    public let expandedWidth: Int?
    public let expandedHeight: Int?
    public let apiFramework: String?
    public let adSlotId: String?
    public let staticResources: [VASTStaticResource]
    /// `<IFrameResource>` URLs.
    public let iframeResources: [String]
    /// `<HTMLResource>` markup, CDATA unwrapped.
    public let htmlResources: [String]
    public let altText: String?
    public let clickThrough: String?
    public let clickTracking: [VASTClick]
    /// Usually `creativeView`.
    public let trackingEvents: [VASTTrackingEvent]

    public init(
        id: String? = nil, width: Int? = nil, height: Int? = nil, assetWidth: Int? = nil, assetHeight: Int? = nil,
        expandedWidth: Int? = nil, expandedHeight: Int? = nil, apiFramework: String? = nil, adSlotId: String? = nil,
        staticResources: [VASTStaticResource] = [], iframeResources: [String] = [], htmlResources: [String] = [],
        altText: String? = nil, clickThrough: String? = nil, clickTracking: [VASTClick] = [],
        trackingEvents: [VASTTrackingEvent] = []
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.assetWidth = assetWidth
        self.assetHeight = assetHeight
        self.expandedWidth = expandedWidth
        self.expandedHeight = expandedHeight
        self.apiFramework = apiFramework
        self.adSlotId = adSlotId
        self.staticResources = staticResources
        self.iframeResources = iframeResources
        self.htmlResources = htmlResources
        self.altText = altText
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.trackingEvents = trackingEvents
    }
}

/// `<StaticResource creativeType="image/png">url</StaticResource>`.
public struct VASTStaticResource: Sendable, Hashable, Encodable {
    public let creativeType: String?
    public let url: String

    public init(creativeType: String? = nil, url: String) {
        self.creativeType = creativeType
        self.url = url
    }
}
