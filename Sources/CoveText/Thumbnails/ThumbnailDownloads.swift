import CoveCore
import Foundation

/// The network and decoding steps of `WebVTTThumbnailSource`, as plain functions that turn every
/// failure into a `ThumbnailError` value (they run in detached tasks whose result is a `Result`).
enum ThumbnailDownloads {
    static func track(url: URL, transport: any HTTPTransport, options: ThumbnailSourceOptions) async -> Result<ThumbnailTrack, ThumbnailError> {
        let limit = options.parseOptions.limits.maxBytes
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: options.trackTimeout, maxResponseBytes: limit + 1))
        } catch {
            return .failure(
                ThumbnailError(
                    .trackLoadFailed,
                    "The thumbnail track could not be downloaded (\(error.kind.rawValue): \(error.detail)); check the video's thumbnailVTTURL and the network",
                    url: url.absoluteString))
        }
        guard response.isSuccess else {
            return .failure(
                ThumbnailError(
                    .trackLoadFailed, "The thumbnail track answered HTTP \(response.status); check the video's thumbnailVTTURL", url: url.absoluteString,
                    httpStatus: response.status))
        }
        do throws(WebVTTParseError) {
            return .success(try ThumbnailTrack.parse(Array(response.body), baseURL: response.url.absoluteString, options: options.parseOptions))
        } catch {
            return .failure(ThumbnailError(.trackInvalid, "The thumbnail track is not usable WebVTT: \(error)", url: url.absoluteString))
        }
    }

    static func sprite(
        url: URL, transport: any HTTPTransport, codec: any ImageCodec, options: ThumbnailSourceOptions
    ) async -> Result<RGBAImage, ThumbnailError> {
        let limits = options.imageLimits
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: options.imageTimeout, maxResponseBytes: limits.maxBytes))
        } catch  where error.kind == .responseTooLarge {
            return .failure(
                ThumbnailError(
                    .imageTooLarge, "The thumbnail image is over the \(limits.maxBytes)-byte limit; serve smaller sprite sheets or raise ImageLimits.maxBytes",
                    url: url.absoluteString))
        } catch {
            return .failure(
                ThumbnailError(
                    .imageLoadFailed,
                    "The thumbnail image could not be downloaded (\(error.kind.rawValue): \(error.detail)); check the URLs in the thumbnail track and the network",
                    url: url.absoluteString))
        }
        guard response.isSuccess else {
            return .failure(
                ThumbnailError(
                    .imageLoadFailed, "The thumbnail image answered HTTP \(response.status); check the URLs in the thumbnail track", url: url.absoluteString,
                    httpStatus: response.status))
        }
        do throws(ThumbnailError) {
            let header = try limits.check(response.body, url: url)
            let image = try codec.decode(response.body, header: header)
            guard image.width == header.width, image.height == header.height else {
                throw ThumbnailError(
                    .imageCorrupt,
                    "The image decoded to \(image.width)×\(image.height) although its header says \(header.width)×\(header.height); it is corrupt",
                    url: url.absoluteString)
            }
            return .success(image)
        } catch {
            // The codec does not know where the bytes came from.
            return .failure(error.url == nil ? ThumbnailError(error.kind, error.message, url: url.absoluteString, httpStatus: error.httpStatus) : error)
        }
    }
}
