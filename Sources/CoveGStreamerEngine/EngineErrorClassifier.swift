import CoveCore
import Foundation

/// Maps a GStreamer ERROR message to a `PlaybackError` a developer can act on.
///
/// GStreamer errors carry a domain (resource, stream, core, library), a code and a human text; the
/// HTTP status, when a source element reports one, comes separately in `http-headers` messages (Cove's
/// own requests report theirs as typed streaming errors before GStreamer sees anything).
struct EngineErrorClassifier {
    struct Report {
        var domain: String
        var code: Int32
        var text: String
        var debug: String
        var sourceElement: String
        var httpStatus: Int?

        /// The engine's error as the cause of the `PlaybackError` it maps to: its domain, code and texts.
        var cause: PlaybackError.Cause {
            // "gst-resource-error-quark" → "gstreamer.resource".
            let short = domain.replacingOccurrences(of: "gst-", with: "").replacingOccurrences(of: "-error-quark", with: "")
            return .underlying(
                PlaybackError.UnderlyingError(
                    domain: "gstreamer.\(short)", code: Int(code), message: [text, debug].filter { !$0.isEmpty }.joined(separator: " — ")))
        }
    }

    // GstResourceError codes (gst/gsterror.h).
    static let resourceNotFound: Int32 = 3
    static let resourceOpenRead: Int32 = 5
    static let resourceRead: Int32 = 9
    static let resourceNotAuthorized: Int32 = 15
    // GstStreamError codes.
    static let streamTypeNotFound: Int32 = 7
    static let streamWrongType: Int32 = 8
    static let streamCodecNotFound: Int32 = 9
    static let streamDecode: Int32 = 10
    static let streamDemux: Int32 = 12
    static let streamFormat: Int32 = 13
    static let streamDecrypt: Int32 = 14
    // GstCoreError code for a missing plugin.
    static let coreMissingPlugin: Int32 = 12

    /// True when the error means segment downloads stopped, which is not yet the end of playback:
    /// media already buffered keeps playing.
    static func isDownloadFailure(_ report: Report) -> Bool {
        let lower = report.text.lowercased()
        return report.domain.contains("resource") && (lower.contains("couldn't download fragments") || lower.contains("fragment"))
    }

    /// A mid-stream segment failure: not fatal yet, so it gets its own code whatever the HTTP status.
    static func downloadFailure(_ report: Report, url: String) -> PlaybackError {
        let cause = report.cause
        let status = report.debug.range(of: #"\b[45]\d\d\b"#, options: .regularExpression).flatMap { Int(report.debug[$0]) }
        return PlaybackError(
            .downloadFailed,
            "Media segments of \(redacted(url)) stopped downloading (\(report.text)); media already buffered keeps playing, and playback fails once it runs out",
            url: url, httpStatus: status, cause: cause)
    }

    static func classify(_ report: Report, url: String) -> PlaybackError {
        let cause = report.cause
        if report.sourceElement.hasPrefix("cove-video-sink") || report.sourceElement.hasPrefix("cove-audio-sink") {
            let what =
                report.sourceElement.hasPrefix("cove-video")
                ? "video output (is DISPLAY set and the X server running?)" : "audio output (is the sound server running, and the device name one it lists?)"
            return PlaybackError(.outputUnavailable, "The engine could not open its \(what): \(report.text)", url: url, cause: cause)
        }
        if report.httpStatus == 0 {
            // An HTTP source reports status 0 when no HTTP response arrived at all.
            return PlaybackError(
                .networkUnreachable,
                "Could not connect to the server for \(redacted(url)): the host is unreachable or refused the connection; check the network and the URL",
                url: url, cause: cause)
        }
        if let status = report.httpStatus, status >= 400 {
            if status == 404 || status == 410 {
                return PlaybackError(
                    .notFound, "The server has no media at \(redacted(url)) (HTTP \(status)); check the URL or whether the asset was removed", url: url,
                    httpStatus: status, cause: cause)
            }
            let hint =
                status == 401 || status == 403
                ? "the media URL needs credentials or a fresh token" : status >= 500 ? "the server failed; retry later" : "the request was rejected"
            return PlaybackError(.httpStatus, "The server answered HTTP \(status) for \(redacted(url)): \(hint)", url: url, httpStatus: status, cause: cause)
        }
        if report.domain.contains("resource") {
            switch report.code {
            case resourceNotFound:
                return PlaybackError(.notFound, "Nothing was found at \(redacted(url)); check the URL", url: url, cause: cause)
            case resourceNotAuthorized:
                return PlaybackError(.httpStatus, "Access to \(redacted(url)) was refused; the media URL needs credentials", url: url, cause: cause)
            default:
                if isDownloadFailure(report) {
                    return PlaybackError(
                        .downloadFailed, "Media segments of \(redacted(url)) stopped downloading; the network or server is failing", url: url, cause: cause)
                }
                return PlaybackError(
                    .networkUnreachable, "Could not read \(redacted(url)): the host is unreachable or the connection failed; check the network and the URL",
                    url: url, cause: cause)
            }
        }
        if report.domain.contains("stream") {
            switch report.code {
            case streamCodecNotFound:
                return PlaybackError(
                    .unsupportedFormat, "No decoder is installed for the media at \(redacted(url)); install gstreamer1.0-libav and gstreamer1.0-plugins-bad",
                    url: url, cause: cause)
            case streamDecrypt:
                return PlaybackError(
                    .unsupportedFormat, "The media at \(redacted(url)) could not be decrypted (key missing or DRM unsupported)", url: url, cause: cause)
            default:
                return PlaybackError(
                    .corruptMedia, "The data at \(redacted(url)) is not playable media (corrupt, truncated or an unknown format)", url: url, cause: cause)
            }
        }
        if report.domain.contains("core") && report.code == coreMissingPlugin {
            return PlaybackError(.unsupportedFormat, "A GStreamer plugin needed for \(redacted(url)) is missing; run `make deps`", url: url, cause: cause)
        }
        return PlaybackError(.loadFailed, "The engine could not play \(redacted(url))", url: url, cause: cause)
    }

    private static func redacted(_ url: String) -> String { Redaction.redact(urlString: url) }
}
