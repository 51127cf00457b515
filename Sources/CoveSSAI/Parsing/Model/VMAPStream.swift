/// The stitched stream a Brightcove SSAI VMAP describes, read the same way from both flavours
/// Brightcove serves, so the player does not care which one it got:
///
/// - Dynamic Delivery (`bc` namespace): `<bc:Brightcove contenturi=… contentlength=… payloadlength=…/>`
///   plus `<bc:thumbnailURL>` inside `<vmap:Extensions>`;
/// - legacy Once UX (`uo` namespace): `<uo:unicornOnce contenturi=… contentlength=… payloadlength=…
///   contextid=…/>` plus `<uo:contentImpressions><uo:Impression url=… time=…/></uo:contentImpressions>`.
public struct VMAPStream: Sendable, Hashable {
    public let flavour: VMAPStreamFlavour
    /// `contenturi`: the session's stitched manifest, the URL to load into the engine.
    public let contentURL: String?
    /// `contentlength`: the content's duration without ads.
    public let contentLength: AdTime?
    /// `payloadlength`: the stitched stream's duration (content plus every ad).
    public let payloadLength: AdTime?
    /// `contenttype`, for example `application/x-mpegURL`.
    public let contentType: String?
    /// `ttl` in seconds: how long `contentURL` stays valid.
    public let ttl: Int?
    /// Once UX `contextid` (the ad session).
    public let contextID: String?
    /// `<bc:thumbnailURL>` entries (WebVTT thumbnail tracks).
    public let thumbnails: [VMAPThumbnails]
    /// URLs to call when content playback starts or passes `time` (Once UX content impressions).
    public let contentImpressions: [VMAPContentImpression]
    /// The whole top-level `<vmap:Extensions>` element, kept as XML.
    public let rawExtensions: RawXMLElement?

    public init(
        flavour: VMAPStreamFlavour, contentURL: String? = nil, contentLength: AdTime? = nil, payloadLength: AdTime? = nil,
        contentType: String? = nil, ttl: Int? = nil, contextID: String? = nil, thumbnails: [VMAPThumbnails] = [],
        contentImpressions: [VMAPContentImpression] = [], rawExtensions: RawXMLElement? = nil
    ) {
        self.flavour = flavour
        self.contentURL = contentURL
        self.contentLength = contentLength
        self.payloadLength = payloadLength
        self.contentType = contentType
        self.ttl = ttl
        self.contextID = contextID
        self.thumbnails = thumbnails
        self.contentImpressions = contentImpressions
        self.rawExtensions = rawExtensions
    }

    /// A VMAP with no stream extension (ads for content the app already has).
    public static let none = VMAPStream(flavour: .none)

    /// The first thumbnail track's URL.
    public var thumbnailsURL: String? { thumbnails.first?.url }
}

public enum VMAPStreamFlavour: String, Sendable, Hashable, CaseIterable {
    /// `bc:Brightcove` (Dynamic Delivery SSAI).
    case brightcove
    /// `uo:unicornOnce` (legacy Once UX).
    case unicornOnce
    /// Neither extension is present.
    case none
}

/// `<bc:thumbnailURL type="thumbnail" width="480" height="270" bandwidth="0">url</bc:thumbnailURL>`.
public struct VMAPThumbnails: Sendable, Hashable {
    public let url: String
    public let type: String?
    public let width: Int?
    public let height: Int?
    public let bandwidth: Int?

    public init(url: String, type: String? = nil, width: Int? = nil, height: Int? = nil, bandwidth: Int? = nil) {
        self.url = url
        self.type = type
        self.width = width
        self.height = height
        self.bandwidth = bandwidth
    }
}

/// One content impression: fire `url` when content time reaches `time` (at content start when nil).
public struct VMAPContentImpression: Sendable, Hashable {
    public let url: String
    public let time: AdTime?

    public init(url: String, time: AdTime? = nil) {
        self.url = url
        self.time = time
    }
}
