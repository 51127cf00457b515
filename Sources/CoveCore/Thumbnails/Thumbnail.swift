import Foundation

/// One scrubbing preview: the image to fetch and the tile of it to show, for a span of the timeline
/// (a cue of a WebVTT thumbnail track).
public struct Thumbnail: Sendable, Hashable, CustomStringConvertible {
    public let start: MediaTime
    public let end: MediaTime
    /// The sprite sheet (or single image), already resolved against the track's URL, without fragment.
    public let imageURL: URL
    /// The tile, or nil for the whole image. Percent rectangles are resolved against the image once it
    /// is loaded (`ThumbnailRect.pixels(inWidth:height:)`).
    public let rect: ThumbnailRect?

    public init(start: MediaTime, end: MediaTime, imageURL: URL, rect: ThumbnailRect?) {
        self.start = start
        self.end = end
        self.imageURL = imageURL
        self.rect = rect
    }

    public var description: String {
        "Thumbnail(\(start)–\(end), \(Redaction.redact(url: imageURL))\(rect.map { "#xywh=\($0)" } ?? ""))"
    }
}

/// Where a session's thumbnails come from. A session provider attaches one to its plan (the WebVTT
/// implementation is `WebVTTThumbnailSource` in `CoveText`); the session calls it only while thumbnail
/// seeking is available, and reports its failures as `ThumbnailAssetFailedToLoad`.
public protocol ThumbnailSource: Sendable {
    /// Downloads and parses the thumbnail track, once; later and concurrent calls share the outcome.
    func loadTrack() async throws(ThumbnailError)
    /// The thumbnail for `time` (loading the track first if needed); nil in a gap of the track.
    func thumbnail(at time: MediaTime) async throws(ThumbnailError) -> Thumbnail?
    /// The thumbnail's tile as PNG bytes: its image fetched (sprites cached), decoded and cropped.
    func image(for thumbnail: Thumbnail) async throws(ThumbnailError) -> Data
}
