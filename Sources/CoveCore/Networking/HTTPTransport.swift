import Foundation

/// The SDK's only door to HTTP. Catalog requests, VMAP and beacon fetches, caption and thumbnail
/// downloads all go through one of these, so apps and tests can swap the transport (the default is
/// AsyncHTTPClient, in `CoveNetworking`).
///
/// A transport performs single exchanges; `send(_:)`, here, follows redirects with `RedirectPolicy`
/// and holds the whole request to its deadline and size cap — so every transport gets the same
/// redirect and secrecy rules without writing them again.
public protocol HTTPTransport: Sendable {
    /// One exchange, no redirects followed, within `request.timeout` and `request.maxResponseBytes`.
    func exchange(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse

    /// The same exchange, reporting the body as it arrives — first when the response head is in (0
    /// bytes), then as chunks come: a player judges a slow segment download while it runs (abandoning
    /// it for a lower variant before the buffer runs dry, as hls.js and Shaka do). Transports that
    /// cannot stream report once, when the body is complete, and their downloads are never judged.
    func exchange(_ request: HTTPRequest, progress: @escaping TransferProgress.Handler) async throws(HTTPTransportError) -> HTTPResponse

    /// The same exchange, handing a successful (2xx) response to `consumer` as it arrives — its head, then
    /// the body chunk by chunk — instead of collecting it (the returned response's `body` is then empty; an
    /// error status's body is collected as usual). A download writes each chunk to disk as it comes, so a
    /// process killed in the middle of a file keeps what had arrived and resumes from there. A consumer that
    /// throws ends the exchange with `.bodyConsumerFailed`. Transports that cannot stream hand over the
    /// whole body at once.
    func exchange(_ request: HTTPRequest, consumingBody consumer: @escaping BodyConsumer) async throws(HTTPTransportError) -> HTTPResponse
}

/// Receives a streamed successful response: its head first, then the body's chunks in order.
public typealias BodyConsumer = @Sendable (BodyPart) throws -> Void

/// One part of a streamed response.
public enum BodyPart: Sendable {
    /// The status and headers, before any body byte (a download checks `Content-Range` here).
    case head(status: Int, headers: HTTPHeaders)
    case bytes(Data)
}

/// How much of a response body has arrived during one exchange.
public struct TransferProgress: Sendable, Hashable {
    public typealias Handler = @Sendable (TransferProgress) -> Void
    /// Body bytes received so far.
    public let received: Int
    /// The body's announced length (`Content-Length`), when the server gave one.
    public let expected: Int?

    public init(received: Int, expected: Int?) {
        self.received = received
        self.expected = expected
    }
}

extension HTTPTransport {
    /// For transports that deliver whole bodies: the whole body, once, when it is complete.
    public func exchange(_ request: HTTPRequest, consumingBody consumer: @escaping BodyConsumer) async throws(HTTPTransportError) -> HTTPResponse {
        try Self.handOver(try await exchange(request), to: consumer, url: request.url)
    }

    /// Gives a complete 2xx body to `consumer` and returns the response without it.
    public static func handOver(_ response: HTTPResponse, to consumer: BodyConsumer, url: URL) throws(HTTPTransportError) -> HTTPResponse {
        guard response.isSuccess else { return response }
        do {
            try consumer(.head(status: response.status, headers: response.headers))
            if !response.body.isEmpty { try consumer(.bytes(response.body)) }
        } catch {
            throw HTTPTransportError(.bodyConsumerFailed, url: url, detail: "the body could not be stored: \(error)")
        }
        return HTTPResponse(status: response.status, headers: response.headers, body: Data(), url: response.url)
    }

    /// For transports that deliver whole bodies: one report when the body is complete.
    public func exchange(_ request: HTTPRequest, progress: @escaping TransferProgress.Handler) async throws(HTTPTransportError) -> HTTPResponse {
        let response = try await exchange(request)
        progress(TransferProgress(received: response.body.count, expected: response.body.count))
        return response
    }
}

/// An HTTP request as a value.
public struct HTTPRequest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable { case get = "GET", head = "HEAD", post = "POST", delete = "DELETE" }

    public var method: Method
    public var url: URL
    public var headers: HTTPHeaders
    public var body: Data?
    /// The whole exchange (all redirects included) must finish within this.
    public var timeout: Duration
    /// Bodies larger than this are refused (`responseTooLarge`).
    public var maxResponseBytes: Int
    public var redirects: RedirectPolicy

    public init(
        method: Method = .get, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil,
        timeout: Duration = .seconds(15), maxResponseBytes: Int = 8 << 20, redirects: RedirectPolicy = RedirectPolicy()
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.redirects = redirects
    }
}

/// A response: status, headers, body and the URL that finally answered (after redirects).
public struct HTTPResponse: Sendable, Hashable {
    public let status: Int
    public let headers: HTTPHeaders
    public let body: Data
    public let url: URL

    public init(status: Int, headers: HTTPHeaders, body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// Ordered header fields with case-insensitive lookup. Values of credential headers never print.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public private(set) var fields: [(name: String, value: String)]

    public init() { fields = [] }
    public init(dictionaryLiteral elements: (String, String)...) { fields = elements.map { (name: $0.0, value: $0.1) } }
    public init(_ fields: [(String, String)]) { self.fields = fields.map { (name: $0.0, value: $0.1) } }

    /// The first value for `name`; setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name: name, value: value)) }

    public mutating func remove(_ name: String) { self[name] = nil }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count && zip(lhs.fields, rhs.fields).allSatisfy { $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }

    /// Names of headers that carry credentials: never logged, stripped when a redirect changes origin.
    public static let credentialNames: Set<String> = ["authorization", "bcov-policy", "bcov-auth", "cookie", "proxy-authorization", "x-api-key"]

    /// A known credential header, any header whose name looks like one (`X-Auth-Token`, `X-Session-Key`),
    /// or an `Accept` carrying a policy key (`pk=`).
    public static func isCredential(_ name: String, value: String) -> Bool {
        let lower = name.lowercased()
        return credentialNames.contains(lower) || Redaction.isSensitive(queryKey: lower) || (lower == "accept" && value.contains("pk="))
    }

    public var description: String {
        fields.map { "\($0.name): \(Self.isCredential($0.name, value: $0.value) ? Redaction.placeholder : $0.value)" }.joined(separator: ", ")
    }
}

/// How redirects are followed. Secrets stay with their origin: an HTTPS→HTTP hop is refused, and
/// credential headers (policy keys, bearer tokens, cookies) are dropped when the host, port or
/// scheme changes.
public struct RedirectPolicy: Sendable, Hashable {
    public var maxRedirects: Int
    public var allowsDowngradeToHTTP: Bool

    public init(maxRedirects: Int = 5, allowsDowngradeToHTTP: Bool = false) {
        self.maxRedirects = max(0, maxRedirects)
        self.allowsDowngradeToHTTP = allowsDowngradeToHTTP
    }

    public static let none = RedirectPolicy(maxRedirects: 0)

    /// The request to send after `response` redirected `request`, nil when the response is final.
    public func followUp(after request: HTTPRequest, status: Int, location: String?, hop: Int) throws(HTTPTransportError) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(status), let location else { return nil }
        guard hop < maxRedirects else {
            throw HTTPTransportError(.tooManyRedirects, url: request.url, detail: "more than \(maxRedirects) redirects")
        }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL, let scheme = target.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            throw HTTPTransportError(.invalidURL, url: request.url, detail: "redirect to an unusable location")
        }
        if request.url.scheme?.lowercased() == "https" && scheme == "http" && !allowsDowngradeToHTTP {
            throw HTTPTransportError(
                .insecureRedirect, url: request.url,
                detail: "the server redirected from HTTPS to plain HTTP (\(Redaction.redact(url: target))); refusing to send the request unencrypted")
        }
        var next = request
        next.url = target
        if status == 303 || ((status == 301 || status == 302) && request.method == .post) {
            next.method = .get
            next.body = nil
        }
        if !Self.sameOrigin(request.url, target) {
            next.headers = HTTPHeaders(request.headers.fields.filter { !HTTPHeaders.isCredential($0.name, value: $0.value) }.map { ($0.name, $0.value) })
        }
        return next
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && effectivePort(a) == effectivePort(b)
    }

    static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}

/// Why an HTTP exchange failed before a usable response arrived.
public struct HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case invalidURL, insecureRedirect, tooManyRedirects, timeout, connectionFailed, responseTooLarge, cancelled
        /// The TLS handshake failed (an untrusted or invalid certificate, no common protocol).
        case tlsFailure
        /// Whoever took a streamed body (`consumingBody`) could not: a full disk, a read-only folder.
        case bodyConsumerFailed
        /// A local (offline) resource whose licence has expired or was invalidated; renew it to play again.
        case offlineLicenseExpired
        /// A local (offline) resource that is not in the store (deleted, or never downloaded).
        case offlineContentMissing
    }

    public let kind: Kind
    /// Redacted.
    public let url: String
    public let detail: String

    public init(_ kind: Kind, url: URL, detail: String) {
        self.kind = kind
        self.url = Redaction.redact(url: url)
        self.detail = Redaction.redactSecrets(in: detail)
    }

    public var description: String { "\(kind.rawValue) for \(url): \(detail)" }
}

extension HTTPTransport {
    /// Performs `request`, following redirects per `request.redirects`; `request.timeout` covers every hop.
    /// `progress` (when given) hears each hop's body as it arrives.
    /// A URL whose scheme is registered in `LocalResources` is answered by its handler, never the network.
    public func send(_ request: HTTPRequest, progress: TransferProgress.Handler? = nil) async throws(HTTPTransportError) -> HTTPResponse {
        if let local = LocalResources.handler(for: request.url) {
            let response = try await local.respond(to: request)
            progress?(TransferProgress(received: response.body.count, expected: response.body.count))
            return response
        }
        return try await followingRedirects(request) { hop throws(HTTPTransportError) in
            if let progress { return try await exchange(hop, progress: progress) }
            return try await exchange(hop)
        }
    }

    /// `send`, handing a successful body to `consumer` as it arrives (see `exchange(_:consumingBody:)`);
    /// redirect and error bodies are collected as usual.
    public func send(_ request: HTTPRequest, consumingBody consumer: @escaping BodyConsumer) async throws(HTTPTransportError) -> HTTPResponse {
        if let local = LocalResources.handler(for: request.url) {
            return try Self.handOver(try await local.respond(to: request), to: consumer, url: request.url)
        }
        return try await followingRedirects(request) { hop throws(HTTPTransportError) in try await exchange(hop, consumingBody: consumer) }
    }

    private func followingRedirects(
        _ request: HTTPRequest, _ exchangeHop: (HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse
    ) async throws(HTTPTransportError) -> HTTPResponse {
        let deadline = ContinuousClock.now + request.timeout
        var current = request
        var hop = 0
        while true {
            current.timeout = deadline - ContinuousClock.now
            guard current.timeout > .zero else {
                throw HTTPTransportError(.timeout, url: current.url, detail: "the redirects took longer than \(MediaTime(request.timeout)) in all")
            }
            let response = try await exchangeHop(current)
            guard response.body.count <= request.maxResponseBytes else {
                throw HTTPTransportError(
                    .responseTooLarge, url: current.url, detail: "the body has \(response.body.count) bytes; the limit is \(request.maxResponseBytes)")
            }
            guard let next = try request.redirects.followUp(after: current, status: response.status, location: response.headers["location"], hop: hop) else {
                return response
            }
            current = next
            hop += 1
        }
    }

    /// GET `url` with the transport's rules; a convenience for plugins.
    public func get(
        _ url: URL, headers: HTTPHeaders = HTTPHeaders(), timeout: Duration = .seconds(15), maxResponseBytes: Int = 8 << 20
    ) async throws(HTTPTransportError) -> HTTPResponse {
        try await send(HTTPRequest(url: url, headers: headers, timeout: timeout, maxResponseBytes: maxResponseBytes))
    }
}
