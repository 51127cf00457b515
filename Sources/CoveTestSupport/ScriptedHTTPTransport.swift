import CoveCore
import Foundation
import Synchronization

/// An in-memory `HTTPTransport` for unit tests: every request is recorded and answered by a
/// handler, so tests see exactly what the SDK sent and control exactly what comes back (including
/// transport failures) without a socket.
public final class ScriptedHTTPTransport: HTTPTransport {
    public typealias Handler = @Sendable (HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse

    private let handler: Mutex<Handler>
    private let log = Mutex<[HTTPRequest]>([])

    public init(_ handler: @escaping Handler) {
        self.handler = Mutex(handler)
    }

    /// Answers every request with `status` and `body`.
    public convenience init(status: Int = 200, json body: String) {
        self.init { request throws(HTTPTransportError) in
            HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8), url: request.url)
        }
    }

    /// Replaces the handler for later requests.
    public func answer(with handler: @escaping Handler) {
        self.handler.withLock { $0 = handler }
    }

    /// Every request sent so far, oldest first.
    public var requests: [HTTPRequest] { log.withLock { $0 } }

    public func exchange(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        log.withLock { $0.append(request) }
        let handler = self.handler.withLock { $0 }
        return try await handler(request)
    }
}
