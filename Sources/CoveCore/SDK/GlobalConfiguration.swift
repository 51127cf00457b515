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
            let valid = !host.isEmpty && host.count <= 253 && !host.contains("/") && !host.contains(":")
                && host.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
            guard valid else {
                throw PlaybackError(.invalidArgument, "The proxy domain must be a bare host name like 'proxy.example.cn' (no scheme, port or path); got '\(host)'")
            }
        }
        domain.withLock { $0 = host?.lowercased() }
    }
}
