import AsyncHTTPClient
import CoveCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// The default `HTTPTransport`: AsyncHTTPClient with TLS 1.2 or newer and full certificate checks.
///
/// AsyncHTTPClient's own redirect handling is off: it would follow HTTPS→HTTP and forward custom
/// secret headers such as `BCOV-Policy` to another host. Redirects are followed here instead, with
/// `RedirectPolicy`, one hop at a time, by `HTTPTransport.send`. Every exchange has a deadline and a body-size cap.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// One client for the whole process (AsyncHTTPClient pools connections per client).
    public static let shared = AsyncHTTPClientTransport()

    private let client: HTTPClient

    /// `trustRoots` replaces the system roots (tests use it for a private CA). `idleConnectionTimeout` is how
    /// long a kept-alive connection waits in the pool for the next request before it is closed (AsyncHTTPClient's
    /// default, 60 s, suits playback: the next segment comes within a segment duration); a process that wants
    /// its descriptors back soon after playback stops chooses less.
    public init(trustRoots: NIOSSLTrustRoots? = nil, connectTimeout: Duration = .seconds(10), idleConnectionTimeout: Duration = .seconds(60)) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.certificateVerification = .fullVerification
        if let trustRoots { tls.trustRoots = trustRoots }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .nanoseconds(Self.nanoseconds(connectTimeout)))
        configuration.decompression = .enabled(limit: .ratio(25))
        // A refused connection fails at once instead of being retried silently until the deadline:
        // callers (the playback service, the engine) own retry policy and report each failure.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.idleTimeout = .nanoseconds(Self.nanoseconds(idleConnectionTimeout))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        // Never block here (a deinit can run on a cooperative or event-loop thread): shut down in the background.
        let client = self.client
        Task { try? await client.shutdown() }
    }

    /// Closes pooled connections; the transport must not be used afterwards.
    public func shutdown() async {
        try? await client.shutdown()
    }

    public func exchange(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        try await exchange(request, reporting: nil)
    }

    public func exchange(_ request: HTTPRequest, progress: @escaping TransferProgress.Handler) async throws(HTTPTransportError) -> HTTPResponse {
        try await exchange(request, reporting: progress)
    }

    /// Streams a successful body to `consumer` on the event loop as it is read (see
    /// `ConsumingResponseDelegate`), within the request's deadline (which covers the whole body) and size cap.
    public func exchange(_ request: HTTPRequest, consumingBody consumer: @escaping BodyConsumer) async throws(HTTPTransportError) -> HTTPResponse {
        let deadline = NIODeadline.now() + .nanoseconds(Self.nanoseconds(request.timeout))
        try Self.checkScheme(request.url)
        do {
            var headers = NIOHTTP1.HTTPHeaders()
            for field in request.headers { headers.add(name: field.name, value: field.value) }
            let outgoing = try HTTPClient.Request(
                url: request.url, method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: request.body.map { .bytes($0) }
            )
            let delegate = ConsumingResponseDelegate(url: request.url, limit: request.maxResponseBytes, consumer: consumer)
            let task = client.execute(request: outgoing, delegate: delegate, deadline: deadline)
            return try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw Self.transportError(error, url: request.url)
        }
    }

    private static func checkScheme(_ url: URL) throws(HTTPTransportError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw HTTPTransportError(.invalidURL, url: url, detail: "only absolute http(s) URLs can be fetched")
        }
    }

    private func exchange(_ request: HTTPRequest, reporting progress: TransferProgress.Handler?) async throws(HTTPTransportError) -> HTTPResponse {
        let deadline = NIODeadline.now() + .nanoseconds(Self.nanoseconds(request.timeout))
        try Self.checkScheme(request.url)
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            var headers = HTTPHeaders()
            for field in response.headers { headers.add(field.name, field.value) }
            let announced = response.headers.first(name: "content-length").flatMap(Int.init)
            if let announced, announced > request.maxResponseBytes {
                throw HTTPTransportError(
                    .responseTooLarge, url: request.url, detail: "the server announced \(announced) bytes; the limit is \(request.maxResponseBytes)")
            }
            // A compressed body's Content-Length counts compressed bytes; progress counts what arrives decoded.
            let expected = response.headers.first(name: "content-encoding") == nil ? announced : nil
            progress?(TransferProgress(received: 0, expected: expected))
            let body = try await Self.collect(response.body, upTo: request.maxResponseBytes, announced: announced, before: deadline, url: request.url) {
                received in
                progress?(TransferProgress(received: received, expected: expected))
            }
            return HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView), url: request.url)
        } catch {
            throw Self.transportError(error, url: request.url)
        }
    }

    /// Any failure of an exchange as the transport's typed error.
    private static func transportError(_ error: any Error, url: URL) -> HTTPTransportError {
        switch error {
        case let error as HTTPTransportError:
            return error
        case let error as HTTPClientError:
            return translate(error, url: url)
        case let error where error is NIOSSLError || error is BoringSSLError:
            return HTTPTransportError(.tlsFailure, url: url, detail: "the TLS handshake failed (\(error)); check the server's certificate or the trust roots")
        case is CancellationError:
            return HTTPTransportError(.cancelled, url: url, detail: "the request was cancelled")
        default:
            return HTTPTransportError(.connectionFailed, url: url, detail: String(describing: error))
        }
    }

    /// AsyncHTTPClient's deadline ends at the response head; a server that trickles the body would
    /// otherwise hold the caller far past its timeout. The body read races the same deadline.
    /// Chunks are appended as they come, each reported through `received` (bytes so far).
    private static func collect(
        _ body: HTTPClientResponse.Body, upTo limit: Int, announced: Int?, before deadline: NIODeadline, url: URL, received: @escaping @Sendable (Int) -> Void
    ) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                // Sized from Content-Length (already checked against the limit; at most 8 MB before the bytes
                // are there) instead of doubling as chunks come.
                var collected = ByteBufferAllocator().buffer(capacity: min(announced ?? 0, 8 << 20))
                for try await chunk in body {
                    guard collected.readableBytes + chunk.readableBytes <= limit else {
                        throw HTTPTransportError(.responseTooLarge, url: url, detail: "the body exceeded \(limit) bytes")
                    }
                    var chunk = chunk
                    collected.writeBuffer(&chunk)
                    received(collected.readableBytes)
                }
                return collected
            }
            group.addTask {
                let remaining = deadline - NIODeadline.now()
                if remaining.nanoseconds > 0 { try await Task.sleep(nanoseconds: UInt64(remaining.nanoseconds)) }
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else {
                throw HTTPTransportError(.timeout, url: url, detail: "the body did not arrive before the deadline")
            }
            return buffer
        }
    }

    static func translate(_ error: HTTPClientError, url: URL) -> HTTPTransportError {
        if [HTTPClientError.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error) {
            return HTTPTransportError(.timeout, url: url, detail: "the server did not answer in time (\(error))")
        }
        if error == .cancelled {
            return HTTPTransportError(.cancelled, url: url, detail: "the request was cancelled")
        }
        if [HTTPClientError.invalidURL, .emptyHost, .emptyScheme].contains(error) {
            return HTTPTransportError(.invalidURL, url: url, detail: String(describing: error))
        }
        return HTTPTransportError(.connectionFailed, url: url, detail: String(describing: error))
    }

    /// Saturating: an absurdly long timeout means "no practical limit", never a trap.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let time = MediaTime(duration)
        return time.nanoseconds ?? (time.isBefore ? 0 : .max)
    }
}
