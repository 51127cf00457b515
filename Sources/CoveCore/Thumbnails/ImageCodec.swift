import Foundation

/// Bounds on the images the SDK decodes. Sprite sheets are usually a few hundred kilobytes and a few
/// megapixels; the defaults leave room for large ones while keeping a decoded sheet (4 bytes a pixel)
/// within 64 MiB.
public struct ImageLimits: Sendable, Hashable {
    /// Encoded size.
    public var maxBytes: Int
    /// Width or height.
    public var maxSide: Int
    /// Width × height.
    public var maxPixels: Int

    public init(maxBytes: Int = 16 << 20, maxSide: Int = 16_384, maxPixels: Int = 16 << 20) {
        self.maxBytes = max(1, maxBytes)
        self.maxSide = max(1, maxSide)
        self.maxPixels = max(1, maxPixels)
    }

    /// The header of `data` when it is a PNG or JPEG within these limits; a typed error otherwise.
    public func check(_ data: Data, url: URL? = nil) throws(ThumbnailError) -> ImageHeader {
        let location = url.map { " at \(Redaction.redact(url: $0))" } ?? ""
        guard data.count <= maxBytes else {
            throw ThumbnailError(
                .imageTooLarge,
                "The image\(location) is \(data.count) bytes, over the \(maxBytes)-byte limit; serve smaller sprite sheets or raise ImageLimits.maxBytes",
                url: url?.absoluteString)
        }
        guard let header = ImageHeader.read(data) else {
            throw ThumbnailError(
                .notAnImage, "The body\(location) (\(data.count) bytes) is neither PNG nor JPEG; check that the thumbnail track points at image files",
                url: url?.absoluteString)
        }
        let area = header.width.multipliedReportingOverflow(by: header.height)
        guard header.width <= maxSide, header.height <= maxSide, !area.overflow, area.partialValue <= maxPixels else {
            throw ThumbnailError(
                .imageTooLarge,
                "The image\(location) is \(header.width)×\(header.height), over the limit (\(maxSide) a side, \(maxPixels) pixels); split the sprite sheet or raise ImageLimits",
                url: url?.absoluteString)
        }
        return header
    }
}

/// Decodes and encodes still images (the engine module provides one: `GStreamerImageCodec`). Calls
/// block the caller until done; they must never crash on any input and must finish in bounded time.
public protocol ImageCodec: Sendable {
    /// Decodes a PNG or JPEG whose `header` has been checked against the limits.
    func decode(_ data: Data, header: ImageHeader) throws(ThumbnailError) -> RGBAImage
    /// Encodes the picture as PNG.
    func encodePNG(_ image: RGBAImage) throws(ThumbnailError) -> Data
}
