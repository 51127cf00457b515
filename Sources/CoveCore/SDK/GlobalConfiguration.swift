import Foundation
import Synchronization

/// Process-wide settings (the seed's `BCOVGlobalConfiguration`). Set them before creating services.
public final class GlobalConfiguration: Sendable {
    public static let shared = GlobalConfiguration()

    private let domain = Mutex<String?>(nil)

    public init() {}

    /// A host that proxies Brightcove's services (the seed's China delivery): Playback API, analytics
    /// and stream-concurrency hosts are rewritten to it, unless a service was given its own base URL.
    public var proxyDomain: String? { domain.withLock { $0 } }

    /// Sets the proxy host: a bare domain name such as `"bcovproxy.example.cn"` (no scheme, no path).
    public func setProxyDomain(_ host: String?) throws(PlaybackError) {
        if let host {
            let valid =
                !host.isEmpty && host.count <= 253 && !host.contains("/") && !host.contains(":")
                && host.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
            guard valid else {
                throw PlaybackError(
                    .invalidArgument, "The proxy domain must be a bare host name like 'proxy.example.cn' (no scheme, port or path); got '\(host)'")
            }
        }
        domain.withLock { $0 = host?.lowercased() }
    }
}

/// Where one of Brightcove's services is reached, and why: an app's explicit base URL, the proxy
/// domain, or Brightcove's own host.
public struct ServiceRoute: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable { case explicit, proxy, brightcove }

    public let url: URL
    public let reason: Reason
    /// The proxy domain an explicit base URL won over (the app set both): worth saying, as requests
    /// then bypass the proxy.
    public let overriddenProxy: String?
}

extension GlobalConfiguration {
    /// The route to a service: an explicit base URL wins, then the proxy domain at `proxyPath`
    /// (`/playback/v1`, `/v2/tracker`, or "" for a host root), then `brightcove`.
    public func route(explicit: URL?, proxyPath: String, brightcove: URL) -> ServiceRoute {
        let proxy = proxyDomain
        if let explicit { return ServiceRoute(url: explicit, reason: .explicit, overriddenProxy: proxy) }
        if let proxy, let url = URL(string: "https://\(proxy)\(proxyPath)") { return ServiceRoute(url: url, reason: .proxy, overriddenProxy: nil) }
        return ServiceRoute(url: brightcove, reason: .brightcove, overriddenProxy: nil)
    }
}
