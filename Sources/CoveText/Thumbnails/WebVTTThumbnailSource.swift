import CoveCore
import Foundation

/// Thumbnails from a WebVTT thumbnail track: the track is downloaded and parsed once, sprite sheets
/// are downloaded, checked (`ImageLimits`), decoded and cached by URL, and tiles are cropped in Swift
/// and encoded as PNG by the `ImageCodec` (`GStreamerImageCodec` in apps).
///
/// All HTTP goes through the SDK's `HTTPTransport`. A failed track stays failed for this source's
/// life (make a new source to try again); a failed sheet is cached like a loaded one.
public actor WebVTTThumbnailSource: ThumbnailSource {
    public nonisolated let trackURL: URL
    private let transport: any HTTPTransport
    private let codec: any ImageCodec
    private let options: ThumbnailSourceOptions
    private var trackLoad: Task<Result<ThumbnailTrack, ThumbnailError>, Never>?
    private var sprites: SpriteCache
    private var spriteLoads: [String: Task<Result<RGBAImage, ThumbnailError>, Never>] = [:]

    public init(trackURL: URL, transport: any HTTPTransport, imageCodec: any ImageCodec, options: ThumbnailSourceOptions = ThumbnailSourceOptions()) {
        self.trackURL = trackURL
        self.transport = transport
        self.codec = imageCodec
        self.options = options
        self.sprites = SpriteCache(maxCount: options.spriteCacheCount, maxBytes: options.spriteCacheBytes)
    }

    public func loadTrack() async throws(ThumbnailError) {
        _ = try await track()
    }

    /// The parsed track (its entries and the warnings for skipped cues).
    public func track() async throws(ThumbnailError) -> ThumbnailTrack {
        let load: Task<Result<ThumbnailTrack, ThumbnailError>, Never>
        if let trackLoad {
            load = trackLoad
        } else {
            let (url, transport, options) = (trackURL, transport, options)
            load = Task.detached { await ThumbnailDownloads.track(url: url, transport: transport, options: options) }
            trackLoad = load
        }
        return try await load.value.get()
    }

    public func thumbnail(at time: MediaTime) async throws(ThumbnailError) -> Thumbnail? {
        guard time.isFinite, let entry = try await track().thumbnail(at: time.seconds) else { return nil }
        guard let url = URL(string: entry.imageURL) else {
            throw ThumbnailError(
                .trackInvalid, "The thumbnail cue at \(entry.start) names '\(entry.imageURL.prefix(80))', which is not a URL; fix the thumbnail track",
                url: trackURL.absoluteString)
        }
        return Thumbnail(start: MediaTime(seconds: entry.startSeconds), end: MediaTime(seconds: entry.endSeconds), imageURL: url, rect: entry.rect)
    }

    public func image(for thumbnail: Thumbnail) async throws(ThumbnailError) -> Data {
        let sprite = try await sprite(at: thumbnail.imageURL)
        var tile = sprite
        if let rect = thumbnail.rect {
            do {
                tile = try sprite.cropped(to: rect)
            } catch {
                throw ThumbnailError(error.kind, error.message, url: thumbnail.imageURL.absoluteString)
            }
        }
        let codec = self.codec
        let finalTile = tile
        return try await Task.detached { () -> Result<Data, ThumbnailError> in
            do throws(ThumbnailError) { return .success(try codec.encodePNG(finalTile)) } catch { return .failure(error) }
        }.value.get()
    }

    /// The decoded sheet at `url`, from the cache, from a download already under way, or downloaded now.
    public func sprite(at url: URL) async throws(ThumbnailError) -> RGBAImage {
        let key = url.absoluteString
        if let cached = sprites.value(for: key) { return try cached.get() }
        let load: Task<Result<RGBAImage, ThumbnailError>, Never>
        if let running = spriteLoads[key] {
            load = running
        } else {
            let (transport, codec, options) = (transport, codec, options)
            load = Task.detached { await ThumbnailDownloads.sprite(url: url, transport: transport, codec: codec, options: options) }
            spriteLoads[key] = load
        }
        let result = await load.value
        if spriteLoads[key] != nil {
            spriteLoads[key] = nil
            sprites.insert(result, for: key)
        }
        return try result.get()
    }

    /// How many decoded sheets (and failures) are cached, and their decoded bytes.
    public var cacheUsage: (entries: Int, bytes: Int) { (sprites.count, sprites.totalBytes) }
}
