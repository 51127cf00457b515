import Foundation

/// One Playback API request as the service made it, for observers such as analytics
/// (`catalog_request` when it is sent, `catalog_response` when it is answered). URLs are redacted.
public enum CatalogExchange: Sendable, Hashable {
    /// `kind`: "video", "playlist" or "bumper"; `attempt`: 1 for the first try.
    case requested(url: String, kind: String, attempt: Int)
    /// `status` is nil when no answer came (a timeout, a refused connection).
    case answered(url: String, kind: String, attempt: Int, status: Int?, responseTime: Duration)
}
