import CoveCore
import CoveNetworking
import CoveTesting
import Foundation
import Synchronization
import Testing

/// The transport's streamed body (what downloads write to disk), against a real loopback server: the
/// consumer sees the head and then every byte in order on the event loop, and each way a body can go
/// wrong — too large, too slow, refused by the consumer, cancelled, not a success — ends the request
/// with its typed error, promptly.
@Suite("Streamed response bodies")
struct StreamedBodyTests {
    struct Setup {
        let server: MediaServer
        let transport: AsyncHTTPClientTransport
        let bytes: Data
        let folder: URL

        func stop() async {
            await transport.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// What a consumer was handed, in order.
    final class Consumed: Sendable {
        private let parts = Mutex<(status: Int?, body: Data, headsAfterBytes: Int)>((nil, Data(), 0))

        var status: Int? { parts.withLock { $0.status } }
        var body: Data { parts.withLock { $0.body } }
        var headsAfterBytes: Int { parts.withLock { $0.headsAfterBytes } }

        func take(_ part: BodyPart) {
            parts.withLock { state in
                switch part {
                case .head(let status, _):
                    if !state.body.isEmpty { state.headsAfterBytes += 1 }
                    state.status = status
                case .bytes(let chunk):
                    state.body.append(chunk)
                }
            }
        }
    }

    static let size = 2 << 20

    static func start() async throws -> Setup {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-streamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: folder.appendingPathComponent("big.bin"))
        let server = try await MediaServer.start(root: folder)
        server.addRoute(prefix: "/unannounced") { _ in
            var response = MediaServerResponse(status: 200, contentType: "application/octet-stream", body: bytes)
            response.announcesLength = false
            return response
        }
        return Setup(server: server, transport: AsyncHTTPClientTransport(idleConnectionTimeout: .seconds(1)), bytes: bytes, folder: folder)
    }

    @Test func theHeadThenEveryByteInOrderReachTheConsumer() async throws {
        let s = try await Self.start()
        let consumed = Consumed()
        let response = try await s.transport.exchange(HTTPRequest(url: s.server.url("big.bin")), consumingBody: consumed.take)
        await s.stop()
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(consumed.status == 200)
        #expect(consumed.headsAfterBytes == 0)
        #expect(consumed.body == s.bytes)
    }

    @Test func aBodyAnnouncedOverTheLimitIsRefusedBeforeTheConsumerSeesIt() async throws {
        let s = try await Self.start()
        let consumed = Consumed()
        let error = await #expect(throws: HTTPTransportError.self) {
            _ = try await s.transport.exchange(HTTPRequest(url: s.server.url("big.bin"), maxResponseBytes: 256 << 10), consumingBody: consumed.take)
        }
        await s.stop()
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.detail.contains("announced \(Self.size) bytes") == true)
        #expect(consumed.status == nil)
        #expect(consumed.body.isEmpty)
    }

    @Test func aChunkedBodyGrowingOverTheLimitStopsThere() async throws {
        let s = try await Self.start()
        let consumed = Consumed()
        let limit = 256 << 10
        let error = await #expect(throws: HTTPTransportError.self) {
            _ = try await s.transport.exchange(HTTPRequest(url: s.server.url("unannounced/x"), maxResponseBytes: limit), consumingBody: consumed.take)
        }
        await s.stop()
        #expect(error?.kind == .responseTooLarge)
        #expect(consumed.body.count <= limit)
        #expect(consumed.body == s.bytes.prefix(consumed.body.count))
    }

    /// The deadline covers the body, not only the head: a server that trickles it is cut off. (The 2 MiB body
    /// takes 42 s at the server's rate; the 4 s deadline leaves a loaded machine time to answer the head.)
    @Test func aBodyTricklingPastTheDeadlineTimesOut() async throws {
        let s = try await Self.start()
        s.server.setBandwidth(bitsPerSecond: 400_000)
        let consumed = Consumed()
        let started = ContinuousClock.now
        let error = await #expect(throws: HTTPTransportError.self) {
            _ = try await s.transport.exchange(HTTPRequest(url: s.server.url("big.bin"), timeout: .seconds(4)), consumingBody: consumed.take)
        }
        let elapsed = ContinuousClock.now - started
        await s.stop()
        #expect(error?.kind == .timeout)
        #expect(consumed.status == 200)
        #expect(consumed.body.count < Self.size)
        #expect(elapsed < .seconds(15), "the deadline of 4 s ended the transfer after \(elapsed)")
    }

    @Test func anUnsuccessfulAnswerComesBackWithItsBodyAndNeverReachesTheConsumer() async throws {
        let s = try await Self.start()
        s.server.forceStatus(404, forPathsContaining: "big.bin")
        let consumed = Consumed()
        let response = try await s.transport.exchange(HTTPRequest(url: s.server.url("big.bin")), consumingBody: consumed.take)
        await s.stop()
        #expect(response.status == 404)
        #expect(consumed.status == nil)
        #expect(consumed.body.isEmpty)
    }

    @Test func aConsumerThatCannotStoreTheBytesStopsTheRequest() async throws {
        let s = try await Self.start()
        struct DiskFull: Error, CustomStringConvertible { var description: String { "no space left on device" } }
        let chunks = Mutex(0)
        let error = await #expect(throws: HTTPTransportError.self) {
            _ = try await s.transport.exchange(HTTPRequest(url: s.server.url("big.bin"))) { part in
                guard case .bytes = part else { return }
                chunks.withLock { $0 += 1 }
                throw DiskFull()
            }
        }
        await s.stop()
        #expect(error?.kind == .bodyConsumerFailed)
        #expect(error?.detail.contains("no space left on device") == true)
        #expect(chunks.withLock { $0 } == 1)
    }

    /// Cancelling the task that waits for the exchange ends the transfer at once, typed as cancelled.
    @Test func cancellingTheCallerStopsTheTransfer() async throws {
        let s = try await Self.start()
        s.server.setBandwidth(bitsPerSecond: 400_000)
        let (firstBytes, arrived) = AsyncStream<Void>.makeStream()
        let consumed = Consumed()
        let transfer = Task {
            try await s.transport.exchange(HTTPRequest(url: s.server.url("big.bin"), timeout: .seconds(60))) { part in
                consumed.take(part)
                if case .bytes = part { arrived.yield() }
            }
        }
        for await _ in firstBytes { break }
        let cancelledAt = ContinuousClock.now
        transfer.cancel()
        let result = await transfer.result
        let stoppedAfter = ContinuousClock.now - cancelledAt
        await s.stop()
        guard case .failure(let error as HTTPTransportError) = result else {
            Issue.record("the cancelled transfer ended with \(result)")
            return
        }
        #expect(error.kind == .cancelled)
        #expect(consumed.body.count < Self.size)
        #expect(stoppedAfter < .seconds(5), "cancelling took \(stoppedAfter)")
    }
}
