import CoveCore

/// How a `WebVTTThumbnailSource` downloads and bounds what it loads.
public struct ThumbnailSourceOptions: Sendable, Hashable {
    /// For the whole track download (redirects included).
    public var trackTimeout: Duration
    /// For each image download.
    public var imageTimeout: Duration
    /// Bounds on each sprite image, checked before it is decoded.
    public var imageLimits: ImageLimits
    /// Decoded sprites kept, at most this many…
    public var spriteCacheCount: Int
    /// …and at most this many decoded bytes (4 a pixel) in all. A sheet larger than this is not kept.
    public var spriteCacheBytes: Int
    public var parseOptions: WebVTTParseOptions

    public init(
        trackTimeout: Duration = .seconds(15), imageTimeout: Duration = .seconds(15), imageLimits: ImageLimits = ImageLimits(),
        spriteCacheCount: Int = 8, spriteCacheBytes: Int = 64 << 20, parseOptions: WebVTTParseOptions = WebVTTParseOptions()
    ) {
        self.trackTimeout = trackTimeout
        self.imageTimeout = imageTimeout
        self.imageLimits = imageLimits
        self.spriteCacheCount = max(0, spriteCacheCount)
        self.spriteCacheBytes = max(0, spriteCacheBytes)
        self.parseOptions = parseOptions
    }
}
