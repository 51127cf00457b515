import CoveCore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization

/// Thrown from a response body to cut the connection.
struct ConnectionDropped: Error {}

/// A request context that remembers its connection, so outages can drop it.
struct MediaRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Hummingbird responder that forwards to the server. It holds the server weakly: a stopped server
/// must not be kept alive by a lingering connection.
struct MediaResponder: HTTPResponder {
    typealias Context = MediaRequestContext
    private let reference: ServerReference
    let connections: ConnectionRegistry

    init(server: MediaServer, connections: ConnectionRegistry) {
        self.reference = ServerReference(server)
        self.connections = connections
    }

    func respond(to request: Request, context: MediaRequestContext) async throws -> Response {
        connections.track(context.channel)
        guard let server = reference.server else { return Response(status: .serviceUnavailable) }
        if server.isInOutage {
            context.channel.close(promise: nil)
            throw ConnectionDropped()
        }
        let channel = context.channel
        return try await server.respond(to: request, drop: { channel.close(promise: nil) })
    }
}

/// Open client connections of one running server.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func track(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let isNew = channels.withLock { open -> Bool in
            guard open[id] == nil else { return false }
            open[id] = channel
            return true
        }
        if isNew {
            channel.closeFuture.whenComplete { [weak self] _ in _ = self?.channels.withLock { $0.removeValue(forKey: id) } }
        }
    }

    func closeAll() {
        let open = channels.withLock { current -> [any Channel] in
            defer { current.removeAll() }
            return Array(current.values)
        }
        for channel in open { channel.close(promise: nil) }
    }
}

/// Paces bytes on one shared timeline, like a single bottleneck link.
final class Throttle: Sendable {
    private let state = Mutex<(rate: Int?, nextFree: ContinuousClock.Instant)>((nil, .now))

    func setRate(bytesPerSecond: Int?) {
        state.withLock { $0 = (bytesPerSecond, .now) }
    }

    func consume(bytes: Int) async {
        let wait = state.withLock { s -> Duration in
            guard let rate = s.rate else { return .zero }
            let now = ContinuousClock.Instant.now
            let start = max(now, s.nextFree)
            let cost = Duration.nanoseconds(Int64(Double(bytes) / Double(rate) * 1e9))
            s.nextFree = start + cost
            return (start + cost) - now
        }
        if wait > .milliseconds(1) { try? await Task.sleep(for: wait) }
    }
}

/// Files are small and read often: keep them in memory.
final class FileCache: Sendable {
    private let cache = Mutex<[String: Data]>([:])

    func contents(of url: URL) throws -> Data {
        if let data = cache.withLock({ $0[url.path] }) { return data }
        let data = try Data(contentsOf: url)
        cache.withLock { $0[url.path] = data }
        return data
    }
}

private final class ServerReference: @unchecked Sendable {
    weak var server: MediaServer?
    init(_ server: MediaServer) { self.server = server }
}
