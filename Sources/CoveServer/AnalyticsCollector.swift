import CoveCore
import Foundation
import Synchronization

/// A stand-in for Brightcove's Data Collection API collector, installed on a `MediaServer`: it
/// records every `GET /v2/tracker?event=…` it accepts, in order, with its parameters (and whether it
/// carried a bearer token), and answers 200. Faults come from the media server (outages, forced statuses).
public final class AnalyticsCollector: Sendable {
    public struct Received: Sendable, Hashable {
        public let event: String
        public let parameters: [String: String]
        public let authorized: Bool
        public let at: Date
    }

    public let media: MediaServer
    private let received = Mutex<[Received]>([])
    private let waiters = Mutex<[(Int, CheckedContinuation<Void, Never>)]>([])

    public init(on media: MediaServer) {
        self.media = media
        media.addRoute(prefix: "/v2/tracker") { [weak self] request in
            guard let self else { return MediaServerResponse(status: 503, body: Data()) }
            return self.take(request)
        }
        // What was received, for `cove analytics tail`: `GET /v2/received?since=N` lists events N... as JSON.
        media.addRoute(prefix: "/v2/received") { [weak self] request in
            guard let self else { return MediaServerResponse(status: 503, body: Data()) }
            let since = max(0, Int(request.queryItems["since"] ?? "") ?? 0)
            let listed = self.events.dropFirst(since).map { event -> JSONValue in
                .object([
                    "event": .string(event.event), "parameters": .object(event.parameters.mapValues { .string($0) }), "authorized": .bool(event.authorized),
                    "at": .double(event.at.timeIntervalSince1970),
                ])
            }
            return MediaServerResponse(status: 200, contentType: "application/json", body: Data(JSONValue.array(Array(listed)).serialized().utf8))
        }
    }

    /// The destination to give the sender.
    public var destination: URL { media.url("v2/tracker") }

    public var events: [Received] { received.withLock { $0 } }

    /// Returns once at least `count` events were received (or after `timeout`).
    public func waitForEvents(_ count: Int, timeout: Duration = .seconds(30)) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.release(all: true)
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let ready = received.withLock { $0.count >= count }
            if ready { continuation.resume() } else { waiters.withLock { $0.append((count, continuation)) } }
        }
    }

    private func take(_ request: MediaServerRequest) -> MediaServerResponse {
        let items = request.queryItems
        guard request.method == "GET", let event = items["event"] else {
            return MediaServerResponse(status: 400, contentType: "text/plain", body: Data("event is required".utf8))
        }
        let authorized = (request.headers["authorization"] ?? "").lowercased().hasPrefix("bearer ")
        received.withLock { $0.append(Received(event: event, parameters: items, authorized: authorized, at: Date())) }
        release(all: false)
        return MediaServerResponse(status: 200, contentType: "image/gif", body: Data())
    }

    private func release(all: Bool) {
        let count = received.withLock { $0.count }
        let due = waiters.withLock { list -> [CheckedContinuation<Void, Never>] in
            let ready = list.filter { all || count >= $0.0 }.map(\.1)
            list.removeAll { all || count >= $0.0 }
            return ready
        }
        for waiter in due { waiter.resume() }
    }
}
