/// A parsed VMAP 1.0 document: the ad breaks of one piece of content and, for Brightcove SSAI,
/// the stitched stream to play (`stream`).
public struct VMAPDocument: Sendable, Hashable {
    /// The `version` attribute as written.
    public let version: String?
    /// Breaks in document order. Overlapping breaks and ads longer than the stream are kept:
    /// the timeline layer, which knows the content length, decides what to do with them.
    public let adBreaks: [VMAPAdBreak]
    /// The stream to play and its lengths, from the Brightcove or Once UX extension.
    public let stream: VMAPStream
    /// Every child of the top-level `<vmap:Extensions>`, kept as XML.
    public let extensions: [RawXMLElement]
    /// Everything dropped or ignored in the whole file, inline VAST included.
    public let warnings: [VMAPParseWarning]

    public init(
        version: String? = nil, adBreaks: [VMAPAdBreak], stream: VMAPStream = .none, extensions: [RawXMLElement] = [],
        warnings: [VMAPParseWarning] = []
    ) {
        self.version = version
        self.adBreaks = adBreaks
        self.stream = stream
        self.extensions = extensions
        self.warnings = warnings
    }
}

/// One `<vmap:AdBreak>`.
public struct VMAPAdBreak: Sendable, Hashable {
    public let timeOffset: VMAPTimeOffset
    /// `breakType` as written: `linear`, `nonlinear`, `display`, or a comma-separated mix.
    public let breakType: String?
    public let breakId: String?
    /// `repeatAfter`: repeat the break every this often; nil when absent or unreadable.
    public let repeatAfter: AdTime?
    /// Nil when the break has no usable `<vmap:AdSource>` (it may still carry tracking).
    public let adSource: VMAPAdSource?
    /// `breakStart`, `breakEnd` and `error` URLs.
    public let trackingEvents: [VMAPTrackingEvent]
    /// `<vmap:Extensions>` children of this break, kept as XML.
    public let extensions: [RawXMLElement]

    public init(
        timeOffset: VMAPTimeOffset, breakType: String? = nil, breakId: String? = nil, repeatAfter: AdTime? = nil,
        adSource: VMAPAdSource? = nil, trackingEvents: [VMAPTrackingEvent] = [], extensions: [RawXMLElement] = []
    ) {
        self.timeOffset = timeOffset
        self.breakType = breakType
        self.breakId = breakId
        self.repeatAfter = repeatAfter
        self.adSource = adSource
        self.trackingEvents = trackingEvents
        self.extensions = extensions
    }

    /// The inline VAST ads of this break, or none when the source is an ad tag or custom data.
    public var ads: [VASTAd] {
        if case .vast(let document)? = adSource?.content { return document.ads }
        return []
    }
}

/// `<vmap:AdSource>`.
public struct VMAPAdSource: Sendable, Hashable {
    public let id: String?
    public let allowMultipleAds: Bool?
    public let followRedirects: Bool?
    public let content: VMAPAdSourceContent

    public init(id: String? = nil, allowMultipleAds: Bool? = nil, followRedirects: Bool? = nil, content: VMAPAdSourceContent) {
        self.id = id
        self.allowMultipleAds = allowMultipleAds
        self.followRedirects = followRedirects
        self.content = content
    }
}

public enum VMAPAdSourceContent: Sendable, Hashable {
    /// `<vmap:VASTAdData>` (VMAP 1.0) or `<vmap:VASTData>` (Brightcove): VAST inside the VMAP.
    case vast(VASTDocument)
    /// `<vmap:AdTagURI>`: VAST to fetch.
    case adTagURI(VMAPAdTagURI)
    /// `<vmap:CustomAdData>`, kept as XML.
    case customData(RawXMLElement)
}

/// `<vmap:AdTagURI templateType="vast3">url</vmap:AdTagURI>`.
///
/// Kept as a trimmed string, with `url` to convert: ad tags carry macros (`[TIMESTAMP]`,
/// `{{…}}`) that are not valid in a URL until the player substitutes them.
public struct VMAPAdTagURI: Sendable, Hashable {
    public let uri: String
    public let templateType: String?

    public init(uri: String, templateType: String? = nil) {
        self.uri = uri
        self.templateType = templateType
    }
}

/// A VMAP tracking event name: `breakStart`, `breakEnd`, `error`, or a vendor's own.
public struct VMAPTrackingEventName: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let breakStart = Self(rawValue: "breakStart")
    public static let breakEnd = Self(rawValue: "breakEnd")
    public static let error = Self(rawValue: "error")
}

/// `<vmap:Tracking event="breakStart">url</vmap:Tracking>`.
public struct VMAPTrackingEvent: Sendable, Hashable {
    public let event: VMAPTrackingEventName
    public let url: String

    public init(event: VMAPTrackingEventName, url: String) {
        self.event = event
        self.url = url
    }
}
