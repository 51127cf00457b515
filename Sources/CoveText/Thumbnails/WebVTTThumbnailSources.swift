import CoveCore
import Foundation

/// Makes `WebVTTThumbnailSource`s: a controller's default thumbnails (see `ThumbnailSourceFactory`).
/// `GStreamerEngine` is one through this; an app with an engine of its own sets it as the
/// configuration's `thumbnailSourceFactory`.
public struct WebVTTThumbnailSources: ThumbnailSourceFactory {
    private let transport: any HTTPTransport
    private let codec: any ImageCodec
    private let options: ThumbnailSourceOptions

    /// - Parameters:
    ///   - transport: the SDK's HTTP client (`AsyncHTTPClientTransport.shared` in apps).
    ///   - imageCodec: decodes sprites and encodes tiles (`GStreamerImageCodec()` in apps).
    ///   - options: limits for the thumbnail track and its images.
    public init(transport: any HTTPTransport, imageCodec: any ImageCodec, options: ThumbnailSourceOptions = ThumbnailSourceOptions()) {
        self.transport = transport
        self.codec = imageCodec
        self.options = options
    }

    public func makeThumbnailSource(trackURL: URL) -> any ThumbnailSource {
        WebVTTThumbnailSource(trackURL: trackURL, transport: transport, imageCodec: codec, options: options)
    }
}
