import AsyncHTTPClient
import CoveCore
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization

/// Hands a successful response's body to a `BodyConsumer` on the event loop that reads it, chunk by
/// chunk as each arrives. The async body sequence would cost two thread wake-ups per chunk (the
/// event loop hands the chunk to a task, the task asks the loop for the next one), and a download that
/// writes every chunk to a file spent more time in those hops than in its own work. The consumer must
/// therefore be quick and never wait (a file append, a hash update, a counter).
///
/// An unsuccessful answer's body is collected instead (bounded by the same limit) and returned with it,
/// as `exchange` does. Failures are `HTTPTransportError`s that fail the request where they happen.
final class ConsumingResponseDelegate: HTTPClientResponseDelegate {
    typealias Response = HTTPResponse

    private struct State {
        var status = 0
        var headers = CoveCore.HTTPHeaders()
        var received = 0
        var unsuccessfulBody = ByteBuffer()
        var isSuccess: Bool { (200..<300).contains(status) }
    }

    private let state = Mutex(State())
    private let url: URL
    private let limit: Int
    private let consumer: BodyConsumer

    init(url: URL, limit: Int, consumer: @escaping BodyConsumer) {
        self.url = url
        self.limit = limit
        self.consumer = consumer
    }

    func didReceiveHead(task: HTTPClient.Task<HTTPResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        var headers = CoveCore.HTTPHeaders()
        for (name, value) in head.headers { headers.add(name, value) }
        let status = Int(head.status.code)
        state.withLock { s in
            s.status = status
            s.headers = headers
        }
        if let announced = head.headers.first(name: "content-length").flatMap(Int.init), announced > limit {
            return task.eventLoop.makeFailedFuture(
                HTTPTransportError(.responseTooLarge, url: url, detail: "the server announced \(announced) bytes; the limit is \(limit)"))
        }
        guard (200..<300).contains(status) else { return task.eventLoop.makeSucceededVoidFuture() }
        do {
            try consumer(.head(status: status, headers: headers))
        } catch {
            return task.eventLoop.makeFailedFuture(HTTPTransportError(.bodyConsumerFailed, url: url, detail: "the body could not be stored: \(error)"))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<HTTPResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let (total, success) = state.withLock { s -> (Int, Bool) in
            s.received += buffer.readableBytes
            return (s.received, s.isSuccess)
        }
        guard total <= limit else {
            return task.eventLoop.makeFailedFuture(HTTPTransportError(.responseTooLarge, url: url, detail: "the body exceeded \(limit) bytes"))
        }
        guard success else {
            state.withLock { _ = $0.unsuccessfulBody.writeImmutableBuffer(buffer) }
            return task.eventLoop.makeSucceededVoidFuture()
        }
        // The chunk's bytes as `Data` without copying them (the buffer's storage lives as long as the Data).
        let bytes = buffer.getData(at: buffer.readerIndex, length: buffer.readableBytes, byteTransferStrategy: .noCopy) ?? Data(buffer.readableBytesView)
        do {
            try consumer(.bytes(bytes))
        } catch {
            return task.eventLoop.makeFailedFuture(HTTPTransportError(.bodyConsumerFailed, url: url, detail: "the body could not be stored: \(error)"))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<HTTPResponse>) throws -> HTTPResponse {
        let s = state.withLock { $0 }
        return HTTPResponse(status: s.status, headers: s.headers, body: s.isSuccess ? Data() : Data(s.unsuccessfulBody.readableBytesView), url: url)
    }
}
