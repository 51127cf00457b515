import CoveCore
import Foundation

/// Every request the streaming engine makes goes through here: request filters, the transport, the
/// retry policy, response checks and accounting. One loader per session.
public struct StreamingLoader: Sendable {
    public let transport: any HTTPTransport
    public let filters: [RequestFilter]
    public let retry: RetryPolicy
    /// Receives every finished exchange (successful or not), in completion order.
    public let onRecord: @Sendable (RequestRecord) -> Void
    /// The whole exchange, redirects included, must finish within this.
    public let timeout: Duration
    /// Times each exchange for its record (and so for the throughput estimate).
    public let clock: TransferClock
    /// The one scheme besides http(s) this loader may read: the presentation's own, when it is local
    /// (`file:` read from disk by `LocalFileReader`, or a `LocalResources` scheme such as `cove-offline:`).
    /// A presentation fetched over the network may name only http(s) URLs: anything else in its playlists
    /// (a device file, a downloaded copy's key) is refused, typed.
    public let localScheme: String?
    /// The stream this loader's requests are for, stamped on every record.
    public let stream: MediaTransfer.Stream?
    let sleep: @Sendable (Duration) async throws -> Void

    public init(
        transport: any HTTPTransport, filters: [RequestFilter] = [], retry: RetryPolicy = .default, timeout: Duration = .seconds(20),
        clock: TransferClock = .continuous,
        origin: URL? = nil, stream: MediaTransfer.Stream? = nil, sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        onRecord: @escaping @Sendable (RequestRecord) -> Void = { _ in }
    ) {
        self.transport = transport
        self.filters = filters
        self.retry = retry
        self.timeout = timeout
        self.clock = clock
        let scheme = origin?.scheme?.lowercased()
        self.localScheme = scheme == "http" || scheme == "https" ? nil : scheme
        self.stream = stream
        self.sleep = sleep
        self.onRecord = onRecord
    }

    /// A loaded resource: its bytes, where they finally came from, and the exchange's record.
    public struct Loaded: Sendable {
        public let body: Data
        public let url: URL
        public let contentType: String?
        public let record: RequestRecord
    }

    /// Fetches `url` for `kind`, retrying server trouble and broken connections with the retry policy
    /// (4xx other than 408/429 are final). Throws `cancelled` when the task is cancelled. `progress`
    /// hears the body of each attempt as it arrives.
    public func load(
        _ kind: StreamingRequestKind, url: URL, byteRange: ByteSpan? = nil, maxBytes: Int = 64 << 20, variantIndex: Int? = nil, span: MediaTransfer.Span? = nil,
        progress: TransferProgress.Handler? = nil, post body: Data? = nil, headers: HTTPHeaders = HTTPHeaders()
    ) async throws(StreamingError) -> Loaded {
        var attempt = 1
        while true {
            do {
                return try await loadOnce(
                    kind, url: url, byteRange: byteRange, maxBytes: maxBytes, attempt: attempt, variantIndex: variantIndex, span: span, progress: progress,
                    body: body, headers: headers)
            } catch {
                guard error.isRetryable, attempt <= retry.maximumAttempts, !Task.isCancelled else { throw error }
                do {
                    try await sleep(retry.delay(beforeAttempt: attempt, random: Double.random(in: 0...1)))
                } catch {
                    throw StreamingError(.cancelled, "The request was cancelled", url: url)
                }
                attempt += 1
            }
        }
    }

    static func streamingError(_ error: HTTPTransportError, kind: StreamingRequestKind, url: URL) -> StreamingError {
        let code: StreamingError.Code
        switch error.kind {
        case .responseTooLarge: code = .tooLarge
        case .invalidURL, .insecureRedirect, .tooManyRedirects: code = .notMedia
        case .bodyConsumerFailed: code = .storageFailed
        case .offlineLicenseExpired: code = .offlineLicenseExpired
        case .offlineContentMissing: code = .offlineContentMissing
        case .cancelled: code = .cancelled
        case .timeout, .connectionFailed, .tlsFailure: code = .network
        }
        return StreamingError(code, "The \(kind.rawValue) request for \(Redaction.redact(url: url)) failed: \(error.detail)", url: url)
    }

    private func loadOnce(
        _ kind: StreamingRequestKind, url: URL, byteRange: ByteSpan?, maxBytes: Int, attempt: Int, variantIndex: Int?, span: MediaTransfer.Span?,
        progress: TransferProgress.Handler?, body: Data? = nil, headers: HTTPHeaders = HTTPHeaders()
    ) async throws(StreamingError) -> Loaded {
        guard !Task.isCancelled else { throw StreamingError(.cancelled, "The request was cancelled", url: url) }
        var request = StreamingRequest(kind: kind, url: url, headers: headers, byteRange: byteRange, body: body, attempt: attempt)
        for filter in filters {
            do {
                try await filter.apply(to: &request)
            } catch {
                throw StreamingError(.filterRejected, "A request filter refused the \(kind.rawValue) request: \(error)", url: url)
            }
        }
        var http = HTTPRequest(
            method: request.body == nil ? .get : .post, url: request.url, headers: request.headers, body: request.body, timeout: timeout,
            maxResponseBytes: maxBytes)
        if let range = request.byteRange { http.headers["Range"] = range.rangeHeader }
        let started = Date().timeIntervalSince1970
        let begin = clock.now()
        // Bytes that arrived before a failure or a cancellation (an abandoned download) still count.
        let arrived = ProgressBox()
        let response: HTTPResponse
        let scheme = request.url.scheme?.lowercased() ?? ""
        if scheme != "http" && scheme != "https" && (scheme != localScheme || scheme == "file") {
            do throws(StreamingError) {
                guard scheme == localScheme else {
                    throw StreamingError(
                        .schemeRefused,
                        "The \(kind.rawValue) URL uses the \(scheme.isEmpty ? "(no)" : scheme) scheme, which \(localScheme.map { "a presentation read through \($0):" } ?? "a presentation fetched over the network") may not name: only http(s) URLs (and the presentation's own local scheme) are loaded",
                        url: request.url
                    )
                }
                response = try LocalFileReader.read(request.url, byteRange: request.byteRange, maxBytes: maxBytes)
            } catch {
                onRecord(
                    RequestRecord(
                        kind: kind, url: Redaction.redact(url: request.url), status: 0, bytes: 0, startedAt: started, duration: clock.now() - begin,
                        attempt: attempt, variantIndex: variantIndex, span: span, stream: stream))
                throw error
            }
            progress?(TransferProgress(received: response.body.count, expected: response.body.count))
        } else {
            do {
                response = try await transport.send(http) { now in
                    arrived.set(now)
                    progress?(now)
                }
            } catch {
                let elapsed = clock.now() - begin
                let bytes = arrived.get()?.received ?? 0
                onRecord(
                    RequestRecord(
                        kind: kind, url: Redaction.redact(url: request.url), status: 0, bytes: bytes, startedAt: started, duration: elapsed, attempt: attempt,
                        variantIndex: variantIndex, span: span, stream: stream))
                if error.kind == .cancelled || Task.isCancelled { throw StreamingError(.cancelled, "The request was cancelled", url: request.url) }
                throw Self.streamingError(error, kind: kind, url: request.url)
            }
        }
        let elapsed = clock.now() - begin
        let record = RequestRecord(
            kind: kind, url: Redaction.redact(url: response.url), status: response.status, bytes: response.body.count, startedAt: started, duration: elapsed,
            attempt: attempt, variantIndex: variantIndex, span: span, stream: stream)
        onRecord(record)
        guard response.isSuccess else {
            throw StreamingError(
                .httpStatus,
                "The server answered HTTP \(response.status) for the \(kind.rawValue) \(Redaction.redact(url: response.url)): \(StreamingError.advice(forStatus: response.status))",
                url: response.url, httpStatus: response.status
            )
        }
        return Loaded(body: response.body, url: response.url, contentType: response.headers["Content-Type"], record: record)
    }
}
