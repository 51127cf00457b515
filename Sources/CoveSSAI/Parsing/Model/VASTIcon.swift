/// One `<Icon>` of a linear creative (VAST 3 and 4): a small overlay a program requires on the ad,
/// most often the AdChoices badge that tells the viewer why they see it.
///
/// Kept whole even when attributes VAST requires are missing or unreadable (those are nil, with a
/// warning), because the tracking URLs still matter to the ad server: `viewTracking` fires when the
/// ad carrying the icon starts to play (`SSAIPlaybackTracker`, beacon `iconView`), as long as the icon
/// has something to show (`hasResource`).
public struct VASTIcon: Sendable, Hashable, Encodable {
    /// The industry program the icon stands for, for example `AdChoices`. A player shows one icon
    /// per program; `VASTWrapperResolver` keeps the one closest to the inline ad.
    public let program: String?
    /// Size in device-independent pixels.
    public let width: Int?
    public let height: Int?
    public let xPosition: VASTIconXPosition?
    public let yPosition: VASTIconYPosition?
    /// How long to show the icon; nil means for the rest of the ad.
    public let duration: AdTime?
    /// When to show it, from the start of the ad; nil means at the start.
    public let offset: AdTime?
    public let apiFramework: String?
    /// The device pixel ratio the images are meant for (VAST 4.1 `pxratio`, 1 when absent).
    public let pxratio: Double?
    public let staticResources: [VASTStaticResource]
    /// `<IFrameResource>` URLs.
    public let iframeResources: [String]
    /// `<HTMLResource>` markup, CDATA unwrapped.
    public let htmlResources: [String]
    /// VAST 4.2 `<AltText>` (for screen readers) and `<HoverText>`.
    public let altText: String?
    public let hoverText: String?
    /// `<IconClicks><IconClickThrough>`: the program's page (for AdChoices, why this ad).
    public let clickThrough: String?
    /// `<IconClickTracking>` URLs, for when the viewer clicks the icon.
    public let clickTracking: [VASTClick]
    /// VAST 4.1 `<IconClickFallbackImages>`: what to show on a click when the device cannot open
    /// `clickThrough` (a TV without a browser).
    public let clickFallbackImages: [VASTIconClickFallbackImage]
    /// `<IconViewTracking>` URLs, for when the icon is shown.
    public let viewTracking: [String]

    public init(
        program: String? = nil, width: Int? = nil, height: Int? = nil, xPosition: VASTIconXPosition? = nil,
        yPosition: VASTIconYPosition? = nil, duration: AdTime? = nil, offset: AdTime? = nil, apiFramework: String? = nil,
        pxratio: Double? = nil, staticResources: [VASTStaticResource] = [], iframeResources: [String] = [],
        htmlResources: [String] = [], altText: String? = nil, hoverText: String? = nil, clickThrough: String? = nil,
        clickTracking: [VASTClick] = [], clickFallbackImages: [VASTIconClickFallbackImage] = [], viewTracking: [String] = []
    ) {
        self.program = program
        self.width = width
        self.height = height
        self.xPosition = xPosition
        self.yPosition = yPosition
        self.duration = duration
        self.offset = offset
        self.apiFramework = apiFramework
        self.pxratio = pxratio
        self.staticResources = staticResources
        self.iframeResources = iframeResources
        self.htmlResources = htmlResources
        self.altText = altText
        self.hoverText = hoverText
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.clickFallbackImages = clickFallbackImages
        self.viewTracking = viewTracking
    }

    /// Whether the icon has an image, frame or markup to show. One without cannot be displayed, so
    /// its view tracking is not sent.
    public var hasResource: Bool { !staticResources.isEmpty || !iframeResources.isEmpty || !htmlResources.isEmpty }

    /// The same icon with more view and click tracking (a wrapper's icon for the same program).
    func adding(viewTracking extraViews: [String], clickTracking extraClicks: [VASTClick]) -> VASTIcon {
        VASTIcon(
            program: program, width: width, height: height, xPosition: xPosition, yPosition: yPosition, duration: duration,
            offset: offset, apiFramework: apiFramework, pxratio: pxratio, staticResources: staticResources,
            iframeResources: iframeResources, htmlResources: htmlResources, altText: altText, hoverText: hoverText,
            clickThrough: clickThrough, clickTracking: clickTracking + extraClicks, clickFallbackImages: clickFallbackImages,
            viewTracking: viewTracking + extraViews
        )
    }
}

/// `<IconClickFallbackImage width=… height=…>` with its `<AltText>` and `<StaticResource>` (VAST 4.1).
public struct VASTIconClickFallbackImage: Sendable, Hashable, Encodable {
    public let width: Int?
    public let height: Int?
    /// What the image says, for screen readers.
    public let altText: String?
    /// The image; nil when the element has none (it is kept for its alt text).
    public let staticResource: VASTStaticResource?

    public init(width: Int? = nil, height: Int? = nil, altText: String? = nil, staticResource: VASTStaticResource? = nil) {
        self.width = width
        self.height = height
        self.altText = altText
        self.staticResource = staticResource
    }
}
