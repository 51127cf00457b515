import Foundation
import Synchronization

/// Answers requests for a URL scheme from local storage instead of the network: how downloaded (offline)
/// media plays through the same streaming engine, caption and thumbnail loaders as online media, with
/// no network request at all (Media3's `CacheDataSource`, Shaka's `offline:` scheme).
///
/// A handler sees the request as a transport would (method, URL, `Range` header) and answers with an
/// `HTTPResponse` (200, or 206 for a range), or throws a typed `HTTPTransportError` — for example
/// `.offlineLicenseExpired` when the download's licence has run out.
public protocol LocalResourceHandler: Sendable {
    func respond(to request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse
}

/// The process-wide table of local URL schemes. `HTTPTransport.send` consults it before any network
/// transport, so every loader in Cove reads registered schemes the same way.
public enum LocalResources {
    private static let handlers = Mutex<[String: any LocalResourceHandler]>([:])

    /// Routes `scheme` (case-insensitive; never `http` or `https`) to `handler`, replacing an earlier one.
    public static func register(scheme: String, handler: any LocalResourceHandler) {
        let scheme = scheme.lowercased()
        precondition(scheme != "http" && scheme != "https", "http and https always go to the network")
        handlers.withLock { $0[scheme] = handler }
    }

    /// Stops routing `scheme`.
    public static func unregister(scheme: String) {
        _ = handlers.withLock { $0.removeValue(forKey: scheme.lowercased()) }
    }

    /// The handler for `url`'s scheme, if one is registered.
    public static func handler(for url: URL) -> (any LocalResourceHandler)? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        return handlers.withLock { $0[scheme] }
    }

    /// Whether `url` is answered locally.
    public static func handles(_ url: URL) -> Bool { handler(for: url) != nil }
}
