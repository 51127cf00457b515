import CoveCore
import Foundation

/// What a request is for: filters, retries, accounting and checks depend on it (Shaka's request types).
public enum StreamingRequestKind: String, Sendable, Hashable, CaseIterable {
    case manifest
    case segment
    case initSegment
    case key
    case text
    case adBeacon
    /// A licence request to a key system's server (a POST of the decryption module's message).
    case license
}

/// A request the streaming engine is about to send, as request filters see and change it.
public struct StreamingRequest: Sendable, Hashable {
    public let kind: StreamingRequestKind
    public var url: URL
    public var headers: HTTPHeaders
    public var byteRange: ByteSpan?
    /// What a POST sends (a licence request's message); nil for a GET. A filter may wrap it (a licence
    /// server that wants the message inside its own JSON).
    public var body: Data?
    /// 1 for the first try, 2 for the first retry, …
    public let attempt: Int

    public init(
        kind: StreamingRequestKind, url: URL, headers: HTTPHeaders = HTTPHeaders(), byteRange: ByteSpan? = nil, body: Data? = nil, attempt: Int = 1
    ) {
        self.kind = kind
        self.url = url
        self.headers = headers
        self.byteRange = byteRange
        self.body = body
        self.attempt = attempt
    }
}

/// Changes requests before they are sent: an app adds its token header or query item, rewrites a CDN
/// host, or refuses a request (throw). Filters run in order, on every attempt, for the kinds they name.
public struct RequestFilter: Sendable {
    public let kinds: Set<StreamingRequestKind>
    private let body: @Sendable (inout StreamingRequest) async throws -> Void

    /// A filter for `kinds` (every kind by default).
    public init(
        kinds: Set<StreamingRequestKind> = Set(StreamingRequestKind.allCases), _ body: @escaping @Sendable (inout StreamingRequest) async throws -> Void
    ) {
        self.kinds = kinds
        self.body = body
    }

    /// Adds a header to every request of `kinds` (its value never printed if it looks like a credential).
    public static func header(_ name: String, _ value: String, kinds: Set<StreamingRequestKind> = Set(StreamingRequestKind.allCases)) -> RequestFilter {
        RequestFilter(kinds: kinds) { $0.headers[name] = value }
    }

    /// Adds a query item to every request of `kinds`.
    public static func queryItem(_ name: String, _ value: String, kinds: Set<StreamingRequestKind> = Set(StreamingRequestKind.allCases)) -> RequestFilter {
        RequestFilter(kinds: kinds) { request in
            guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else { return }
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
            if let url = components.url { request.url = url }
        }
    }

    func apply(to request: inout StreamingRequest) async throws {
        guard kinds.contains(request.kind) else { return }
        try await body(&request)
    }
}

/// One finished request, for accounting and analytics: exact bytes and timing.
public struct RequestRecord: Sendable, Hashable {
    public let kind: StreamingRequestKind
    /// Redacted.
    public let url: String
    /// The HTTP status (0 when no answer came).
    public let status: Int
    /// Body bytes received.
    public let bytes: Int
    /// Wall-clock time the request was sent (Unix epoch seconds).
    public let startedAt: Double
    /// From sending to the last byte.
    public let duration: Duration
    public let attempt: Int
    /// Which variant the request was for, when it was for one.
    public let variantIndex: Int?
    /// A media segment's presentation time and stream.
    public let span: MediaTransfer.Span?
    /// The stream the request was for (a session's playlists, init segments and segments alike).
    public let stream: MediaTransfer.Stream?

    public init(
        kind: StreamingRequestKind, url: String, status: Int, bytes: Int, startedAt: Double, duration: Duration, attempt: Int, variantIndex: Int? = nil,
        span: MediaTransfer.Span? = nil, stream: MediaTransfer.Stream? = nil
    ) {
        self.kind = kind
        self.url = url
        self.status = status
        self.bytes = bytes
        self.startedAt = startedAt
        self.duration = duration
        self.attempt = attempt
        self.variantIndex = variantIndex
        self.span = span
        self.stream = stream ?? span?.stream
    }

    /// Bits per second over the whole exchange (nil for an instant one).
    public var throughput: Int? {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        guard seconds > 0 else { return nil }
        return Int(Double(bytes * 8) / seconds)
    }
}
