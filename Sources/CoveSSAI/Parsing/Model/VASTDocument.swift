/// A parsed VAST 2/3/4 response: zero or more ads. A response with no ads may carry root
/// `<Error>` URLs that tell the ad server nothing was played.
public struct VASTDocument: Sendable, Hashable {
    /// The `version` attribute as written (`3.0`, `4.2`…), nil when absent.
    public let version: String?
    /// The ads in document order; ads with a bad `Duration`, or without `InLine`/`Wrapper`, are
    /// dropped and listed in `warnings`.
    public let ads: [VASTAd]
    /// Root-level `<Error>` URLs (for the no-ad case).
    public let errorURLs: [String]
    /// What was dropped or ignored while reading this document.
    public let warnings: [VMAPParseWarning]

    public init(version: String? = nil, ads: [VASTAd], errorURLs: [String] = [], warnings: [VMAPParseWarning] = []) {
        self.version = version
        self.ads = ads
        self.errorURLs = errorURLs
        self.warnings = warnings
    }
}

/// One `<Ad>`: an inline ad, or a wrapper pointing at another VAST response.
public struct VASTAd: Sendable, Hashable, Encodable {
    public let id: String?
    /// Position in an ad pod (1-based); nil for a stand-alone ad.
    public let sequence: Int?
    /// VAST 4 `adType` (`video`, `audio`, `hybrid`), as written.
    public let adType: String?
    /// VAST 3 `conditionalAd`.
    public let conditionalAd: Bool?
    public let content: VASTAdContent

    public init(id: String? = nil, sequence: Int? = nil, adType: String? = nil, conditionalAd: Bool? = nil, content: VASTAdContent) {
        self.id = id
        self.sequence = sequence
        self.adType = adType
        self.conditionalAd = conditionalAd
        self.content = content
    }

    public var inLine: VASTInLine? {
        if case .inLine(let inLine) = content { return inLine }
        return nil
    }

    public var wrapper: VASTWrapper? {
        if case .wrapper(let wrapper) = content { return wrapper }
        return nil
    }
}

public enum VASTAdContent: Sendable, Hashable {
    case inLine(VASTInLine)
    case wrapper(VASTWrapper)
}

/// `<AdSystem version="…">name</AdSystem>`.
public struct VASTAdSystem: Sendable, Hashable, Encodable {
    public let name: String
    public let version: String?

    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}

/// `<InLine>`: everything needed to show the ad and report on it.
public struct VASTInLine: Sendable, Hashable, Encodable {
    public let adSystem: VASTAdSystem?
    public let adTitle: String?
    /// VAST 4 `AdServingId`.
    public let adServingId: String?
    public let description: String?
    public let advertiser: String?
    public let impressions: [VASTImpression]
    public let viewableImpressions: [VASTViewableImpression]
    public let errorURLs: [String]
    public let creatives: [VASTCreative]
    /// `<Extensions>/<Extension>` elements, kept as XML.
    public let extensions: [RawXMLElement]
    /// `<AdVerifications>` (VAST 4.1), and `<Extension type="AdVerifications">` for older VAST.
    public let adVerifications: [VASTVerification]

    public init(
        adSystem: VASTAdSystem? = nil, adTitle: String? = nil, adServingId: String? = nil, description: String? = nil,
        advertiser: String? = nil, impressions: [VASTImpression] = [], viewableImpressions: [VASTViewableImpression] = [],
        errorURLs: [String] = [], creatives: [VASTCreative] = [], extensions: [RawXMLElement] = [],
        adVerifications: [VASTVerification] = []
    ) {
        self.adSystem = adSystem
        self.adTitle = adTitle
        self.adServingId = adServingId
        self.description = description
        self.advertiser = advertiser
        self.impressions = impressions
        self.viewableImpressions = viewableImpressions
        self.errorURLs = errorURLs
        self.creatives = creatives
        self.extensions = extensions
        self.adVerifications = adVerifications
    }
}

/// `<Wrapper>`: a pointer to another VAST response, plus the wrapper's own beacons, which VAST
/// says fire alongside the final inline ad's (`VASTWrapperResolver` merges them in).
public struct VASTWrapper: Sendable, Hashable, Encodable {
    /// `VASTAdTagURI`, trimmed and CDATA unwrapped.
    public let adTagURI: String
    /// Whether the response may itself be a wrapper. Default true.
    public let followAdditionalWrappers: Bool
    /// Whether the response may hold a pod or several ads. Default false.
    public let allowMultipleAds: Bool
    /// VAST 4 `fallbackOnNoAd`; nil when absent.
    public let fallbackOnNoAd: Bool?
    public let adSystem: VASTAdSystem?
    public let impressions: [VASTImpression]
    public let viewableImpressions: [VASTViewableImpression]
    public let errorURLs: [String]
    /// Wrapper creatives carry tracking and click tracking, rarely media.
    public let creatives: [VASTCreative]
    public let extensions: [RawXMLElement]
    public let adVerifications: [VASTVerification]

    public init(
        adTagURI: String, followAdditionalWrappers: Bool = true, allowMultipleAds: Bool = false,
        fallbackOnNoAd: Bool? = nil, adSystem: VASTAdSystem? = nil, impressions: [VASTImpression] = [],
        viewableImpressions: [VASTViewableImpression] = [], errorURLs: [String] = [], creatives: [VASTCreative] = [],
        extensions: [RawXMLElement] = [], adVerifications: [VASTVerification] = []
    ) {
        self.adTagURI = adTagURI
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
        self.adSystem = adSystem
        self.impressions = impressions
        self.viewableImpressions = viewableImpressions
        self.errorURLs = errorURLs
        self.creatives = creatives
        self.extensions = extensions
        self.adVerifications = adVerifications
    }
}
