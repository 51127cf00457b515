import CCoveGst
import CGStreamer
import CoveCore
import Foundation

/// Still-image decoding and PNG encoding on GStreamer, for thumbnail sprites.
///
/// Decoding runs a tiny pipeline per image (`appsrc ! pngdec|jpegdec ! videoconvert ! appsink`) with
/// the decoder chosen from the sniffed header, so no typefinding runs on downloaded bytes; encoding
/// uses GStreamer's own frame converter (`pngenc`), as engine snapshots do. Both wait at most
/// `timeout`. GStreamer already ships these codecs with the engine, so no image library is added.
public struct GStreamerImageCodec: ImageCodec {
    public let timeout: Duration

    public init(timeout: Duration = .seconds(5)) {
        self.timeout = timeout > .zero ? timeout : .seconds(5)
    }

    public func decode(_ data: Data, header: ImageHeader) throws(ThumbnailError) -> RGBAImage {
        try Self.ensureRuntime()
        let decoder = header.format == .png ? "pngdec" : "jpegdec"
        var width: gint = 0
        var height: gint = 0
        var size: gsize = 0
        var message: UnsafeMutablePointer<CChar>?
        let pixels = data.withUnsafeBytes { raw in
            cove_image_decode_rgba(
                raw.bindMemory(to: guint8.self).baseAddress, gsize(raw.count), decoder, header.format.mimeType, timeoutNanoseconds,
                &width, &height, &size, &message
            )
        }
        guard let pixels else {
            throw ThumbnailError(
                .imageCorrupt,
                "The \(header.format.rawValue.uppercased()) image does not decode (\(takeGString(message) ?? "unknown reason")); it is truncated or corrupt — re-export the sprite sheet"
            )
        }
        defer { g_free(pixels) }
        let bytes = [UInt8](UnsafeBufferPointer(start: pixels, count: Int(size)))
        guard let image = RGBAImage(width: Int(width), height: Int(height), pixels: bytes) else {
            throw ThumbnailError(
                .imageCorrupt, "The \(header.format.rawValue.uppercased()) image decoded to an inconsistent picture (\(width)×\(height), \(size) bytes)")
        }
        return image
    }

    public func encodePNG(_ image: RGBAImage) throws(ThumbnailError) -> Data {
        try Self.ensureRuntime()
        var size: gsize = 0
        var message: UnsafeMutablePointer<CChar>?
        let png = image.pixels.withUnsafeBufferPointer { buffer in
            cove_image_encode_png(buffer.baseAddress, gint(image.width), gint(image.height), timeoutNanoseconds, &size, &message)
        }
        guard let png else {
            throw ThumbnailError(
                .codecFailure,
                "The thumbnail could not be encoded as PNG (\(takeGString(message) ?? "unknown reason")); check that GStreamer's png plugin (gstreamer1.0-plugins-good) is installed"
            )
        }
        defer { g_free(png) }
        return Data(bytes: png, count: Int(size))
    }

    /// Decodes `data` after checking it against `limits` (sniffed format, bytes, dimensions).
    public func decode(_ data: Data, limits: ImageLimits = ImageLimits()) throws(ThumbnailError) -> RGBAImage {
        try decode(data, header: try limits.check(data))
    }

    private var timeoutNanoseconds: guint64 { guint64(timeout.clampedNanoseconds) }

    private static func ensureRuntime() throws(ThumbnailError) {
        do {
            try GStreamerRuntime.ensureInitialized()
        } catch {
            throw ThumbnailError(.codecFailure, "Images cannot be decoded: \(error.message)")
        }
    }
}
