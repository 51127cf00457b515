import CoveCore
import Foundation

/// The pictures the view shows besides the video: posters (fetched through the app's transport) and
/// scrubbing thumbnails (the session's), decoded by the app's image codec within `ImageLimits`.
struct ViewImages: Sendable {
    let codec: (any ImageCodec)?
    let transport: (any HTTPTransport)?
    let limits = ImageLimits(maxBytes: 8 << 20, maxSide: 4096, maxPixels: 8 << 20)

    /// The poster at `url`, nil when it cannot be had (a poster is decoration: its failure is logged by
    /// the caller, never an error of the playback).
    func poster(at url: URL) async -> Result<RGBAImage, PlaybackError> {
        guard codec != nil else {
            return .failure(PlaybackError(.invalidState, "The player view has no image codec to decode posters; pass one (GStreamerImageCodec())"))
        }
        do {
            let bytes: Data
            if url.isFileURL {
                bytes = try Data(contentsOf: url)
            } else {
                guard let transport else {
                    return .failure(
                        PlaybackError(.invalidState, "The player view has no HTTP transport to fetch posters; pass one (AsyncHTTPClientTransport.shared)"))
                }
                let response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(10), maxResponseBytes: limits.maxBytes))
                guard (200..<300).contains(response.status) else {
                    return .failure(
                        PlaybackError(.httpStatus, "The poster answered HTTP \(response.status)", url: Redaction.redact(url: url), httpStatus: response.status))
                }
                bytes = response.body
            }
            return decode(bytes, url: url)
        } catch {
            return .failure(PlaybackError(.downloadFailed, "The poster could not be fetched: \(error)", url: Redaction.redact(url: url)))
        }
    }

    /// PNG or JPEG bytes to pixels, within the limits.
    func decode(_ bytes: Data, url: URL? = nil) -> Result<RGBAImage, PlaybackError> {
        guard let codec else { return .failure(PlaybackError(.invalidState, "The player view has no image codec")) }
        do throws(ThumbnailError) {
            let header = try limits.check(bytes, url: url)
            return .success(try codec.decode(bytes, header: header))
        } catch {
            return .failure(PlaybackError(.corruptMedia, "The image could not be decoded: \(error.message)", url: url.map { Redaction.redact(url: $0) }))
        }
    }
}
