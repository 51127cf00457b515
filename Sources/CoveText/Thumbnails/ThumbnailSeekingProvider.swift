import CoveCore
import Foundation

/// Attaches thumbnail seeking to sessions: wraps an upstream provider and gives each plan a
/// `WebVTTThumbnailSource` for the video's `thumbnailVTTURL` (set on a hand-made video, or the
/// catalog's thumbnails track). A controller on `GStreamerEngine` does this by itself (see
/// `ThumbnailSourceFactory`); this provider is for other engines and for a transport, codec or limits
/// of the app's own per chain. Nothing is downloaded here: the controller prefetches the track when
/// the session starts, and only while its `thumbnailSeekingEnabled` switch is on. Offline videos get
/// no source (the seed offers no thumbnails offline). A plan that already has a source (an SSAI
/// provider's, from the VMAP) keeps it.
public struct ThumbnailSeekingProvider: PlaybackSessionProvider {
    public let upstream: any PlaybackSessionProvider
    private let transport: any HTTPTransport
    private let codec: any ImageCodec
    private let options: ThumbnailSourceOptions

    /// - Parameters:
    ///   - upstream: the provider this one wraps (default: the basic provider).
    ///   - transport: the SDK's HTTP client (`AsyncHTTPClientTransport.shared` in apps).
    ///   - imageCodec: decodes sprites and encodes tiles (`GStreamerImageCodec()` in apps).
    ///   - options: limits for the thumbnail track and its images.
    public init(
        upstream: any PlaybackSessionProvider = BasicSessionProvider(), transport: any HTTPTransport, imageCodec: any ImageCodec,
        options: ThumbnailSourceOptions = ThumbnailSourceOptions()
    ) {
        self.upstream = upstream
        self.transport = transport
        self.codec = imageCodec
        self.options = options
    }

    public var sessionPreloadingPolicy: SessionPreloadingPolicy { upstream.sessionPreloadingPolicy }

    public func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
        var plan = try await upstream.prepareSession(for: video, context: context)
        if plan.thumbnailSource == nil, let url = plan.video.thumbnailVTTURL {
            plan.thumbnailSource = WebVTTThumbnailSource(trackURL: url, transport: transport, imageCodec: codec, options: options)
        }
        return plan
    }
}
