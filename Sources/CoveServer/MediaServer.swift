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

/// A loopback HTTP server for media: it serves a folder (with Range support) and routes of its own (the
/// catalog, the stand-ins), simulates live streams, logs every request, and can cap its bandwidth, delay
/// first bytes and go offline for a while — all changeable while it runs. What to do differently for a
/// given request (a status instead of the file, a delay, a cut, an outage) is an interceptor's to say
/// (`RequestInterceptor`; the test kit's fault injection is one).
///
/// ```swift
/// let server = try await MediaServer.start(root: fixtures.root)
/// server.setBandwidth(bitsPerSecond: 800_000)
/// ```
public final class MediaServer: Sendable {
    public let root: URL
    private let boundPort = Mutex(0)
    private let state: Mutex<ServerState>
    private let throttle = Throttle()
    private let files = FileCache()
    private let logger: Logger
    /// Set when the server speaks HTTPS.
    public let tls: TLSIdentity?

    struct ServerState {
        var running: Launched?
        var outage = false
        var firstByteDelay: Duration = .zero
        var interceptor: (any RequestInterceptor)?
        var records: [MediaRequest] = []
        /// Body bytes written over every response since the server started (clearing the log keeps it).
        var totalBytesSent = 0
        /// Waiting for `totalBytesSent` to reach a threshold.
        var byteWaiters: [(id: UUID, threshold: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Position of each record by its id; records are addressed by id so clearing the log cannot
        /// make an in-flight response write into the wrong record.
        var recordIndex: [Int: Int] = [:]
        var nextRecordID = 0
        var routes: [(prefix: String, handler: RouteHandler)] = []
        /// When set, only files under these URL path prefixes are served.
        var filePrefixes: [String]?
        var liveStreams: [String: LiveStream] = [:]
        var stopped = false
        var outageWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Handles requests under a path prefix (used by the catalog and SSAI servers built on this one).
    public typealias RouteHandler = @Sendable (MediaServerRequest) async -> MediaServerResponse

    private init(root: URL, tls: TLSIdentity?, logger: Logger) {
        self.root = root.standardizedFileURL
        self.tls = tls
        self.logger = logger
        self.state = Mutex(ServerState())
    }

    /// Starts serving `root` on 127.0.0.1 (`port` 0 picks a free port); over HTTPS when `tls` is given
    /// (see `TLSIdentity.selfSigned()`).
    public static func start(
        root: URL, port: Int = 0, tls: TLSIdentity? = nil, logger: Logger = Logger(label: "cove.media-server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> MediaServer {
        let server = MediaServer(root: root, tls: tls, logger: logger)
        try await server.run(port: port)
        return server
    }

    /// The port stays the same across outages, so URLs handed out remain valid.
    public var port: Int { boundPort.withLock { $0 } }

    /// `http://127.0.0.1:<port>/` (`https` with TLS).
    public var baseURL: URL { URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)/")! }

    /// The URL of a path under the served folder.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + (path.hasPrefix("/") ? String(path.dropFirst()) : path))!
    }

    public func url(_ asset: FixtureMedia.Asset) -> URL { url(asset.rawValue) }

    /// Stops the server for good.
    public func stop() async {
        let (running, waiters) = state.withLock { s -> (Launched?, [CheckedContinuation<Void, Never>]) in
            s.stopped = true
            defer {
                s.running = nil
                s.outageWaiters.removeAll()
            }
            return (s.running, s.outageWaiters)
        }
        for waiter in waiters { waiter.resume() }
        await running?.stop()
    }

    // MARK: Link and interceptor

    /// Caps the shared link to `bitsPerSecond` (nil removes the cap). Applies to bytes not yet sent.
    public func setBandwidth(bitsPerSecond: Int?) {
        throttle.setRate(bytesPerSecond: bitsPerSecond.map { max(1, $0 / 8) })
    }

    /// Waits this long before answering every request (emulates round-trip time).
    public func setFirstByteDelay(_ delay: Duration) {
        state.withLock { $0.firstByteDelay = delay }
    }

    /// Who decides, request by request, to answer differently (nil: nobody; every request is served).
    public var interceptor: (any RequestInterceptor)? { state.withLock { $0.interceptor } }

    public func setInterceptor(_ interceptor: (any RequestInterceptor)?) {
        state.withLock { $0.interceptor = interceptor }
    }

    /// The installed interceptor when it is a `T`; otherwise `make()`'s, installed (atomically, so two
    /// callers racing get the same one).
    public func interceptor<T: RequestInterceptor>(_ make: () -> T) -> T {
        state.withLock { s in
            if let existing = s.interceptor as? T { return existing }
            let made = make()
            s.interceptor = made
            return made
        }
    }

    /// Takes the server offline now: the listening socket closes and every connection drops, so
    /// clients see refused connections, as when a server dies.
    public func beginOutage() async {
        await takeDown(markOutage())
    }

    /// Flags the outage (so new requests are dropped at once) and hands back what must be torn down.
    private func markOutage() -> Launched? {
        state.withLock { s -> Launched? in
            guard !s.outage, !s.stopped else { return nil }
            s.outage = true
            defer { s.running = nil }
            return s.running
        }
    }

    private func takeDown(_ running: Launched?) async {
        await running?.stop()
    }

    /// Brings the server back on the same port.
    public func endOutage() async throws {
        let wasDown = state.withLock { s -> Bool in
            defer { s.outage = false }
            return s.outage && !s.stopped
        }
        guard wasDown else { return }
        let port = self.port
        defer {
            for waiter in state.withLock({ s -> [CheckedContinuation<Void, Never>] in
                defer { s.outageWaiters.removeAll() }
                return s.outageWaiters
            }) { waiter.resume() }
        }
        try await run(port: port)
    }

    public var isInOutage: Bool { state.withLock { $0.outage } }

    /// Returns once the server is serving again (immediately when it is not in an outage).
    public func waitUntilServing() async {
        await withCheckedContinuation { continuation in
            let serving = state.withLock { s -> Bool in
                if s.outage && !s.stopped {
                    s.outageWaiters.append(continuation)
                    return false
                }
                return true
            }
            if serving { continuation.resume() }
        }
    }

    // MARK: Request log

    /// Every request so far, in arrival order.
    public var requests: [MediaRequest] { state.withLock { $0.records } }

    public func clearRequestLog() {
        state.withLock { s in
            s.records.removeAll()
            s.recordIndex.removeAll()
        }
    }

    /// Applies `change` to the record with `id`, if it is still in the log.
    private func updateRecord(_ id: Int, _ change: (inout MediaRequest) -> Void) {
        let released = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard let index = s.recordIndex[id] else { return [] }
            let before = s.records[index].bytesSent
            change(&s.records[index])
            s.totalBytesSent += s.records[index].bytesSent - before
            guard !s.byteWaiters.isEmpty else { return [] }
            let total = s.totalBytesSent
            let due = s.byteWaiters.filter { $0.threshold <= total }.map(\.continuation)
            s.byteWaiters.removeAll { $0.threshold <= total }
            return due
        }
        for continuation in released { continuation.resume() }
    }

    /// Body bytes written over every response since the server started, clearing the request log or not.
    public var totalBytesSent: Int { state.withLock { $0.totalBytesSent } }

    /// Returns once the server has written `bytes` body bytes in all (counted as each 16 kB chunk goes out),
    /// or when the task is cancelled: a test acts at a byte position of a transfer without polling.
    public func waitUntilBytesSent(atLeast bytes: Int) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { s -> Bool in
                    if s.totalBytesSent >= bytes || Task.isCancelled { return true }
                    s.byteWaiters.append((id, bytes, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { s -> CheckedContinuation<Void, Never>? in
                guard let index = s.byteWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return s.byteWaiters.remove(at: index).continuation
            }
            waiting?.resume()
        }
    }

    /// Total body bytes sent so far.
    public var bytesSent: Int { requests.reduce(0) { $0 + $1.bytesSent } }

    // MARK: Routes

    /// Serves only files whose URL path starts with one of `prefixes` (say `["/media/"]`); everything
    /// else in the folder answers 404. Keeps configuration files next to the media private.
    public func restrictFiles(toPathsUnder prefixes: [String]) {
        state.withLock { $0.filePrefixes = prefixes }
    }

    /// Serves requests whose path starts with `prefix` with `handler` instead of files.
    public func addRoute(prefix: String, handler: @escaping RouteHandler) {
        state.withLock { $0.routes.append((prefix, handler)) }
    }

    /// Publishes a simulated live HLS stream at `path` built from a VOD media playlist: a sliding
    /// window of `windowSegments` segments that advances by one segment per segment duration, looping
    /// the source with discontinuities.
    public func addLiveStream(path: String, sourcePlaylist: String, windowSegments: Int) throws {
        let source = root.appendingPathComponent(sourcePlaylist)
        let text = try String(contentsOf: source, encoding: .utf8)
        let stream = try LiveStream(sourceText: text, sourcePath: sourcePlaylist, windowSegments: max(1, windowSegments), startedAt: .now)
        state.withLock { $0.liveStreams[path.hasPrefix("/") ? path : "/" + path] = stream }
    }

    // MARK: Serving

    private func run(port: Int) async throws {
        let launched = try await Self.launch(port: port, server: self, tls: tls, logger: logger)
        boundPort.withLock { $0 = launched.port }
        if state.withLock({ $0.stopped }) {
            await launched.stop()
            return
        }
        state.withLock { $0.running = launched }
    }

    /// A running Hummingbird application: the service group running it and its open connections.
    struct Launched {
        let port: Int
        let task: Task<Void, Never>
        let group: ServiceGroup
        let connections: ConnectionRegistry

        /// Stops like a server dying, without tearing Hummingbird apart: graceful shutdown closes the
        /// listener (new connections are refused) and drains accepted connections, while closing every
        /// tracked connection cuts keep-alive clients and in-flight responses at once. (Cancelling the
        /// task, or closing the listener behind Hummingbird's back, can drop an accepted connection's
        /// writer unfinished, which traps in NIO.)
        func stop() async {
            await group.triggerGracefulShutdown()
            connections.closeAll()
            await task.value
        }
    }

    private static func launch(port: Int, server: MediaServer, tls: TLSIdentity?, logger: Logger) async throws -> Launched {
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Result<any Channel, any Error>.self)
        let configuration = ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil, reuseAddress: true)
        let connections = ConnectionRegistry()
        let responder = MediaResponder(server: server, connections: connections)
        let builder: HTTPServerBuilder
        if let tls {
            let certificates = try NIOSSLCertificate.fromPEMBytes(Array(tls.certificateChainPEM.utf8))
            let key = try NIOSSLPrivateKey(bytes: Array(tls.privateKeyPEM.utf8), format: .pem)
            builder = try .tls(
                .http1(), tlsConfiguration: .makeServerConfiguration(certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key)))
        } else {
            builder = .http1()
        }
        let app = Application(
            responder: responder, server: builder, configuration: configuration,
            onServerRunning: { channel in
                portContinuation.yield(.success(channel))
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            do {
                try await group.run()
            } catch {
                portContinuation.yield(.failure(error))
            }
            portContinuation.finish()
        }
        for await result in portStream {
            switch result {
            case .success(let listener):
                return Launched(port: listener.localAddress?.port ?? port, task: task, group: group, connections: connections)
            case .failure(let error): throw error
            }
        }
        throw FixtureError(description: "the media server stopped before it started listening on port \(port)")
    }

    /// `drop` closes the client's connection without an answer.
    func respond(to request: Request, drop: @Sendable () -> Void) async throws -> Response {
        let path = request.uri.path
        let recordID = state.withLock { s -> Int in
            s.nextRecordID += 1
            s.recordIndex[s.nextRecordID] = s.records.count
            s.records.append(
                MediaRequest(
                    method: request.method.rawValue, path: path, query: request.uri.query, range: request.headers[.range],
                    headers: Self.headerDictionary(request.headers)))
            return s.nextRecordID
        }
        let interceptor = state.withLock { $0.interceptor }
        // Outage triggered by this very request.
        if let duration = interceptor?.outage(forPath: path) {
            finish(recordID, status: 0, aborted: true)
            let running = markOutage()
            drop()
            Task.detached { [self] in
                await self.takeDown(running)
                try? await Task.sleep(for: duration)
                try? await self.endOutage()
            }
            throw ConnectionDropped()
        }
        if let status = interceptor?.status(forPath: path) {
            finish(recordID, status: status)
            return Response(
                status: .init(code: status), headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "forced status \(status)\n")))
        }
        let delay = state.withLock { $0.firstByteDelay } + (interceptor?.delay(forPath: path) ?? .zero)
        if delay > .zero { try? await Task.sleep(for: delay) }

        if let route = state.withLock({ s in s.routes.first { path.hasPrefix($0.prefix) } }) {
            // A route's request body (a POST's JSON), capped: stand-ins take small documents only.
            let bodyBytes = (try? await request.body.collect(upTo: 1 << 20)).map { Data($0.readableBytesView) } ?? Data()
            let reply = await route.handler(
                MediaServerRequest(
                    method: request.method.rawValue, path: path, query: request.uri.query, headers: Self.headerDictionary(request.headers), body: bodyBytes))
            return body(
                reply.body, status: reply.status, contentType: reply.contentType, extraHeaders: reply.headers, announcesLength: reply.announcesLength,
                recordID: recordID)
        }
        if let live = state.withLock({ $0.liveStreams[path] }) {
            let text = live.playlist(at: .now)
            return body(Data(text.utf8), status: 200, contentType: "application/vnd.apple.mpegurl", recordID: recordID)
        }
        guard let file = resolve(path) else {
            finish(recordID, status: 404)
            return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "not found\n")))
        }
        let data: Data
        do {
            data = try files.contents(of: file)
        } catch {
            finish(recordID, status: 404)
            return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "not found\n")))
        }
        let type = Self.contentType(for: file.pathExtension)
        if request.method == .head {
            finish(recordID, status: 200)
            return Response(status: .ok, headers: [.contentType: type, .contentLength: String(data.count), .acceptRanges: "bytes"])
        }
        if let rangeHeader = request.headers[.range], let range = Self.byteRange(rangeHeader, size: data.count) {
            var headers: HTTPFields = [.contentRange: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(data.count)", .acceptRanges: "bytes"]
            headers[.contentType] = type
            return body(data.subdata(in: range), status: 206, contentType: type, extraHeaders: headers, recordID: recordID)
        }
        let served = interceptor?.junk(forPath: path, length: data.count) ?? data
        return body(
            served, status: 200, contentType: type, extraHeaders: [.acceptRanges: "bytes"], recordID: recordID, cutAfter: interceptor?.cut(forPath: path))
    }

    private func body(
        _ data: Data, status: Int, contentType: String, extraHeaders: HTTPFields = [:], announcesLength: Bool = true, recordID: Int, cutAfter: Int? = nil
    ) -> Response {
        var headers = extraHeaders
        headers[.contentType] = contentType
        updateRecord(recordID) { $0.status = status }
        let throttle = self.throttle
        let write: @Sendable (inout any ResponseBodyWriter) async throws -> Void = { [self] writer in
            var offset = 0
            do {
                while offset < data.count {
                    if state.withLock({ $0.outage || $0.stopped }) { throw ConnectionDropped() }
                    if let cutAfter, offset >= cutAfter { throw ConnectionDropped() }
                    let chunk = min(16_384, data.count - offset, cutAfter.map { max(1, $0 - offset) } ?? Int.max)
                    await throttle.consume(bytes: chunk)
                    try await writer.write(ByteBuffer(bytes: data[data.startIndex + offset..<data.startIndex + offset + chunk]))
                    offset += chunk
                    updateRecord(recordID) { $0.bytesSent = offset }
                }
                finish(recordID, status: status)
            } catch {
                finish(recordID, status: status, aborted: true)
                throw error
            }
        }
        let body = ResponseBody(contentLength: announcesLength ? data.count : nil, write)
        return Response(status: .init(code: status), headers: headers, body: body)
    }

    private func finish(_ recordID: Int, status: Int, aborted: Bool = false) {
        updateRecord(recordID) { record in
            record.status = status
            record.finishedAt = Date()
            record.aborted = aborted
        }
    }

    /// Maps a request path to a file inside `root`; nil for anything that escapes it.
    private func resolve(_ path: String) -> URL? {
        let decoded = path.removingPercentEncoding ?? path
        if let prefixes = state.withLock({ $0.filePrefixes }), !prefixes.contains(where: { decoded.hasPrefix($0) }) { return nil }
        let parts = decoded.split(separator: "/").map(String.init)
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let candidate = parts.reduce(root) { $0.appendingPathComponent($1) }.standardizedFileURL
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return candidate
    }

    static func contentType(for pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "m3u8": return "application/vnd.apple.mpegurl"
        case "ts": return "video/mp2t"
        case "m4s": return "video/iso.segment"
        case "mp4", "m4v": return "video/mp4"
        case "vtt": return "text/vtt"
        case "json": return "application/json"
        case "xml", "vmap", "vast": return "application/xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        default: return "application/octet-stream"
        }
    }

    /// Parses `bytes=a-b`, `bytes=a-` and `bytes=-n`; nil when unsatisfiable or malformed.
    static func byteRange(_ header: String, size: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = header.dropFirst(6).split(separator: ",").first.map(String.init) ?? ""
        let bounds = spec.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard bounds.count == 2 else { return nil }
        if bounds[0].isEmpty, let suffix = Int(bounds[1]), suffix > 0 {
            return max(0, size - suffix)..<size
        }
        guard let start = Int(bounds[0]), start < size else { return nil }
        let end = bounds[1].isEmpty ? size - 1 : min(Int(bounds[1]) ?? size - 1, size - 1)
        guard end >= start else { return nil }
        return start..<(end + 1)
    }

    private static func headerDictionary(_ fields: HTTPFields) -> [String: String] {
        var result: [String: String] = [:]
        for field in fields { result[field.name.canonicalName] = field.value }
        return result
    }
}
