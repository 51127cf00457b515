import CoveCore
import Foundation

/// Why the streaming engine could not get or use a resource. Every case says what was wrong and what to
/// do; URLs are redacted. Converted to CoveCore's `PlaybackError` at the engine boundary.
public struct StreamingError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The server answered with an error status.
        case httpStatus
        /// The server could not be reached, or the connection broke.
        case network
        /// The answer is not what was asked for: an HTML page (a captive portal, a CDN error page),
        /// an empty body, or bytes that are not a playlist or media segment.
        case notMedia
        /// A segment's bytes are no media format Cove knows (damaged, or not media at all).
        case corruptMedia
        /// The manifest could not be parsed or makes no sense (no variants, points at itself).
        case invalidManifest
        /// The media needs a key system Cove does not have (SAMPLE-AES, a DRM key format, a DASH
        /// `ContentProtection` such as Widevine or PlayReady); the message names it.
        case drmUnsupported
        /// The key server refused the key (401/403): the app's token is missing or stale.
        case keyAuthorizationFailed
        /// The key is not a valid AES-128 key, or decrypting with it (and the IV) failed.
        case decryptionFailed
        /// The presentation needs something the streaming engine does not do (a subtitle rendition
        /// without a playlist of its own).
        case unsupportedFeature
        /// The URL is a media file (MP4, MP3, …), not a streaming manifest: something else must read it.
        case notStreamable
        /// The answer was larger than any playlist or segment should be.
        case tooLarge
        /// A request filter refused the request.
        case filterRejected
        /// The request was cancelled (a seek, a teardown): not a failure.
        case cancelled
        /// The body could not be stored where a download writes it (a full disk, a read-only folder).
        case storageFailed
        /// A downloaded (offline) resource whose licence expired or was invalidated.
        case offlineLicenseExpired
        /// A downloaded (offline) resource that is missing from the store.
        case offlineContentMissing
        /// A local file of a presentation on disk is missing or cannot be read, or a presentation fetched
        /// over the network named a local file (which it may not).
        case fileUnreadable
        /// A URL whose scheme the presentation may not name: a presentation fetched over the network
        /// names a device file or a downloaded copy (`file:`, `cove-offline:`).
        case schemeRefused
    }

    public let code: Code
    public let message: String
    public let url: String?
    public let httpStatus: Int?

    public init(_ code: Code, _ message: String, url: URL? = nil, httpStatus: Int? = nil) {
        self.code = code
        self.message = Redaction.redactSecrets(in: message)
        self.url = url.map { Redaction.redact(url: $0) }
        self.httpStatus = httpStatus
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let url, !message.contains(url) { text += " [url: \(url)]" }
        return text
    }

    /// Worth another attempt: server trouble (5xx, 408, 429) or a broken connection.
    public var isRetryable: Bool {
        switch code {
        case .network: return true
        case .httpStatus: return httpStatus.map { $0 >= 500 || $0 == 408 || $0 == 429 } ?? true
        default: return false
        }
    }

    /// No retry can help: a downloaded copy's licence ran out or its file is gone. Playback fails at once
    /// with the typed error instead of retrying as for a network failure.
    public var isPermanent: Bool {
        code == .offlineLicenseExpired || code == .offlineContentMissing || code == .fileUnreadable || code == .schemeRefused
            // A key that does not decrypt the content, or a key system nobody serves, stays so on a retry.
            || code == .decryptionFailed || code == .drmUnsupported
    }

    /// What to do about an HTTP status, for the message.
    static func advice(forStatus status: Int) -> String {
        switch status {
        case 404, 410: return "check the URL or whether the asset was removed"
        case 401, 403: return "the media URL needs credentials or a fresh token (a request filter can add them)"
        case 408, 429: return "the server is overloaded; retry later"
        case 500...: return "the server failed; retry later"
        default: return "the request was rejected"
        }
    }

    /// The failure of a download during playback (buffered media may still play): `downloadFailed`,
    /// keeping the status so the controller knows whether a retry can help.
    public var downloadFailure: PlaybackError {
        PlaybackError(.downloadFailed, "Media stopped downloading: \(message)", url: url, httpStatus: httpStatus)
    }

    /// The same failure as the controller's error type.
    public var playbackError: PlaybackError {
        let code: PlaybackError.Code
        switch self.code {
        case .httpStatus: code = httpStatus == 404 || httpStatus == 410 ? .notFound : .httpStatus
        case .network: code = .networkUnreachable
        case .notMedia: code = .notMedia
        case .invalidManifest, .corruptMedia: code = .corruptMedia
        case .drmUnsupported: code = .drmUnsupported
        case .unsupportedFeature, .notStreamable: code = .unsupportedFormat
        case .tooLarge: code = .notMedia
        case .keyAuthorizationFailed: code = .keyAuthorizationFailed
        case .decryptionFailed: code = .decryptionFailed
        case .filterRejected: code = .loadFailed
        case .cancelled, .storageFailed: code = .loadFailed
        case .offlineLicenseExpired: code = .offlineLicenseExpired
        case .offlineContentMissing: code = .offlineContentMissing
        case .fileUnreadable: code = .notFound
        // Final: asking again cannot make the URL allowed.
        case .schemeRefused: code = .unsupportedFormat
        }
        return PlaybackError(code, message, url: url, httpStatus: httpStatus)
    }
}
