/// VAST 4.1 `<ClosedCaptionFile type=… language=…>url</ClosedCaptionFile>` from a linear creative's
/// `<MediaFiles><ClosedCaptionFiles>`: captions for the ad itself. The stitched stream's subtitles are
/// made for the content, so `SSAISession` offers these (WebVTT, else TTML, per language) as a text
/// track while the ad plays.
public struct VASTClosedCaptionFile: Sendable, Hashable, Encodable {
    /// MIME type, for example `text/vtt` or `application/ttml+xml`.
    public let type: String?
    /// Language code, for example `en` or `zh-TW`.
    public let language: String?
    public let url: String

    public init(type: String? = nil, language: String? = nil, url: String) {
        self.type = type
        self.language = language
        self.url = url
    }
}

/// VAST 4 `<Mezzanine>`: the raw, high-quality ad file an ad-stitching service transcodes from.
/// SSAI servers use it; a client only reports it.
public struct VASTMezzanine: Sendable, Hashable, Encodable {
    public let id: String?
    /// `progressive` or `streaming`, as written.
    public let delivery: String?
    /// MIME type, for example `video/mp4`.
    public let type: String?
    public let width: Int?
    public let height: Int?
    public let codec: String?
    /// Bytes.
    public let fileSize: Int?
    /// `2D`, `3D` or `360`, as written (VAST 4.1).
    public let mediaType: String?
    public let url: String

    public init(
        id: String? = nil, delivery: String? = nil, type: String? = nil, width: Int? = nil, height: Int? = nil,
        codec: String? = nil, fileSize: Int? = nil, mediaType: String? = nil, url: String
    ) {
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.codec = codec
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.url = url
    }
}

/// VAST 4 `<InteractiveCreativeFile>`: a SIMID (or other API) creative that runs over the ad.
/// Kept as data; running it is a later layer's job.
public struct VASTInteractiveCreativeFile: Sendable, Hashable, Encodable {
    /// MIME type, for example `text/html`.
    public let type: String?
    /// For example `SIMID`.
    public let apiFramework: String?
    /// Whether the creative may extend the ad's duration.
    public let variableDuration: Bool?
    public let url: String

    public init(type: String? = nil, apiFramework: String? = nil, variableDuration: Bool? = nil, url: String) {
        self.type = type
        self.apiFramework = apiFramework
        self.variableDuration = variableDuration
        self.url = url
    }
}
