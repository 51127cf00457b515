/// Why a thumbnail could not be given: the track or a sprite sheet failed to load, an image was not
/// usable, or the feature is off. The message says what was wrong and what to do; URLs are redacted.
public struct ThumbnailError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No thumbnails for this session: the controller's switch is off, the video is played offline,
        /// or it has no thumbnail track.
        case unavailable
        /// The thumbnail WebVTT could not be downloaded (network failure or an error status).
        case trackLoadFailed
        /// The thumbnail WebVTT downloaded but is not usable WebVTT.
        case trackInvalid
        /// A sprite image could not be downloaded (network failure or an error status).
        case imageLoadFailed
        /// The body is neither PNG nor JPEG.
        case notAnImage
        /// The image is over a size limit (`ImageLimits`): bytes, a side, or pixels.
        case imageTooLarge
        /// The image claims to be PNG or JPEG but does not decode (truncated or corrupt).
        case imageCorrupt
        /// The `#xywh=` rectangle lies outside its image.
        case rectOutsideImage
        /// The image codec itself is unavailable (GStreamer or a plugin missing).
        case codecFailure
    }

    public let kind: Kind
    public let message: String
    /// The track or image involved, redacted.
    public let url: String?
    /// The HTTP status when a server answered with an error.
    public let httpStatus: Int?

    public init(_ kind: Kind, _ message: String, url: String? = nil, httpStatus: Int? = nil) {
        self.kind = kind
        self.message = Redaction.redactSecrets(in: message)
        self.url = url.map(Redaction.redact(urlString:))
        self.httpStatus = httpStatus
    }

    /// The same failure as a `PlaybackError`, for code that handles every SDK error alike.
    public var playbackError: PlaybackError {
        let code: PlaybackError.Code
        switch kind {
        case .unavailable: code = .invalidState
        case .trackLoadFailed, .imageLoadFailed:
            code = httpStatus == 404 ? .notFound : httpStatus != nil ? .httpStatus : .downloadFailed
        case .trackInvalid, .notAnImage, .imageTooLarge: code = .unsupportedFormat
        case .imageCorrupt, .rectOutsideImage: code = .corruptMedia
        case .codecFailure: code = .engineFailure
        }
        return PlaybackError(code, message, url: url, httpStatus: httpStatus)
    }

    public var description: String {
        var text = "\(kind.rawValue): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let url, !message.contains(url) { text += " [url: \(url)]" }
        return text
    }
}
