import CoveCore
import Foundation

/// Builds Playback API requests; usable on its own (the seed's `BCOVPlaybackServiceRequestFactory`).
///
/// Videos: `GET {base}/accounts/{account}/videos/{id | ref:id}`; playlists: `…/playlists/…`.
/// The policy key travels as a `BCOV-Policy` header; with an auth token the request goes to the
/// auth base URL with `Authorization: Bearer <jwt>` and no policy key.
public struct PlaybackServiceRequestFactory: Sendable {
    public static let defaultBaseURL = URL(string: "https://edge.api.brightcove.com/playback/v1")!
    public static let defaultAuthBaseURL = URL(string: "https://edge-auth.api.brightcove.com/playback/v1")!

    public let accountID: String
    public let policyKey: String?
    /// nil: the public Playback API, or the global proxy domain when one is set.
    public let baseURL: URL?
    /// Used instead of `baseURL` when an auth token is given. nil: as for `baseURL`.
    public let authBaseURL: URL?
    public var additionalHeaders: HTTPHeaders
    public var timeout: Duration
    public var maxResponseBytes: Int
    private let globalConfiguration: GlobalConfiguration
    /// The wall clock an auth token's `exp` and `nbf` are checked against.
    let now: @Sendable () -> Date

    public init(
        accountID: String, policyKey: String?, baseURL: URL? = nil, authBaseURL: URL? = nil, additionalHeaders: HTTPHeaders = HTTPHeaders(),
        timeout: Duration = .seconds(15), maxResponseBytes: Int = 8 << 20, globalConfiguration: GlobalConfiguration = .shared,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.accountID = accountID
        self.policyKey = policyKey
        self.baseURL = baseURL
        self.authBaseURL = authBaseURL
        self.additionalHeaders = additionalHeaders
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.globalConfiguration = globalConfiguration
        if let policyKey { Redaction.register(secret: policyKey) }
    }

    public func videoRequest(
        _ configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery = PlaybackServiceQuery()
    ) throws(PlaybackServiceError) -> HTTPRequest {
        try request(collection: "videos", configuration: configuration, query: query)
    }

    public func playlistRequest(
        _ configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery = PlaybackServiceQuery()
    ) throws(PlaybackServiceError) -> HTTPRequest {
        try request(collection: "playlists", configuration: configuration, query: query)
    }

    /// The base URL a request uses: an explicit one wins, then the proxy domain, then Brightcove's.
    public func effectiveBaseURL(authenticated: Bool) -> URL {
        route(authenticated: authenticated).url
    }

    /// How a lookup is routed (and whether an explicit base URL bypasses a proxy domain the app set).
    public func route(authenticated: Bool) -> ServiceRoute {
        let explicit = authenticated ? (authBaseURL ?? baseURL) : baseURL
        return globalConfiguration.route(
            explicit: explicit, proxyPath: "/playback/v1", brightcove: authenticated ? Self.defaultAuthBaseURL : Self.defaultBaseURL)
    }

    private func request(
        collection: String, configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery
    ) throws(PlaybackServiceError) -> HTTPRequest {
        guard !accountID.isEmpty, accountID.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .invalidRequest("the account ID '\(accountID)' is empty or has characters that cannot be in a path")
        }
        guard let asset = configuration.assetPathComponent else {
            throw .invalidRequest("give an asset ID or an asset reference ID to look up")
        }
        let authToken = try configuration.authToken.flatMap { $0.isEmpty ? nil : $0 }.map { text throws(PlaybackServiceError) in
            try Self.usableToken(text, account: accountID, at: now())
        }
        guard authToken != nil || !(policyKey ?? "").isEmpty else {
            throw .invalidRequest("a policy key (or, for Playback Rights, an auth token) is required")
        }
        let base = effectiveBaseURL(authenticated: authToken != nil)
        let escapedAsset = asset.addingPercentEncoding(withAllowedCharacters: .pathSegmentAllowed) ?? asset
        var text = base.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += "/accounts/\(accountID)/\(collection)/\(escapedAsset)"
        let items = query.items
        if !items.isEmpty {
            text += "?" + items.map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw .invalidRequest("could not build a URL from base \(Redaction.redact(url: base))") }
        // The app's headers first; the credentials last, so an additional header can neither replace
        // them nor send a policy key beside a bearer token.
        var headers = HTTPHeaders()
        for field in additionalHeaders { headers[field.name] = field.value }
        if headers["Accept"] == nil { headers["Accept"] = "application/json" }
        headers["Authorization"] = nil
        headers["BCOV-Policy"] = nil
        if let authToken {
            headers["Authorization"] = "Bearer \(authToken.compact)"
        } else if let policyKey {
            headers["BCOV-Policy"] = policyKey
        }
        return HTTPRequest(url: url, headers: headers, timeout: timeout, maxResponseBytes: maxResponseBytes)
    }

    /// The token read and checked before any request: a malformed, unsigned, expired or not-yet-valid
    /// token (beyond a minute of clock skew), or one whose `accid` names another account, never reaches
    /// the network.
    public static func usableToken(_ text: String, account: String, at now: Date) throws(PlaybackServiceError) -> PlaybackRightsToken {
        do throws(PlaybackRightsTokenError) {
            let token = try PlaybackRightsToken.parse(text)
            // A minute of leeway for the device clock: a fresh token (nbf = iat) is not refused for a skew.
            try token.check(at: now, leeway: 60)
            if let claimed = token.claims.accountID, claimed != account {
                throw .wrongAccount(token: claimed, request: account)
            }
            return token
        } catch {
            throw .invalidAuthToken(error)
        }
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .queryValueAllowed) ?? text
    }
}

extension CharacterSet {
    fileprivate static let pathSegmentAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/?#")
        return set
    }()

    fileprivate static let queryValueAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#?")
        return set
    }()
}

extension PlaybackServiceRequestFactory: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Never shows the policy key.
    public var description: String {
        "PlaybackServiceRequestFactory(accountID: \(accountID), policyKey: \(policyKey == nil ? "nil" : Redaction.placeholder), base: \(Redaction.redact(url: effectiveBaseURL(authenticated: false))), additionalHeaders: [\(additionalHeaders)])"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accountID": accountID, "policyKey": (policyKey == nil ? "nil" : Redaction.placeholder) as Any,
                "baseURL": Redaction.redact(url: effectiveBaseURL(authenticated: false)), "additionalHeaders": additionalHeaders.description,
            ], displayStyle: .struct)
    }
}
