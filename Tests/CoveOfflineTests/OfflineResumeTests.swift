import CoveCore
import CoveNetworking
import CoveOffline
import CoveStreaming
import CoveTesting
import Foundation
import Synchronization
import Testing

/// The resume path's corner cases: what a server may answer to a range request, and a resume asked for the
/// moment a failure is reported.
@Suite("Offline resume corner cases", .serialized)
struct OfflineResumeTests {
    /// An in-memory sink with a chosen starting content.
    final class MemorySink: DownloadSink {
        private let bytes: Mutex<Data>
        private let known = Mutex<Int?>(nil)
        init(_ initial: Data = Data()) { bytes = Mutex(initial) }
        func heldBytes() throws -> Int { bytes.withLock { $0.count } }
        func restart() throws { bytes.withLock { $0 = Data() } }
        func append(_ chunk: Data) throws { bytes.withLock { $0.append(chunk) } }
        func knownLength() -> Int? { known.withLock { $0 } }
        func learnLength(_ length: Int, validator: String?) throws { known.withLock { $0 = length } }
        var data: Data { bytes.withLock { $0 } }
    }

    static func loader() -> StreamingLoader {
        StreamingLoader(transport: AsyncHTTPClientTransport.shared, retry: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(10)))
    }

    /// A part that already holds the whole file, whose length was never learned: the server's 416 for the
    /// rest says it is complete; with fewer bytes than the total, the part starts over and completes.
    @Test func a416ForTheRestMeansCompleteOrStartOver() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let file = try Data(contentsOf: h.fixture.root.appendingPathComponent("package/v240/seg000.ts"))
        let requests = Mutex<[String]>([])
        h.server.addRoute(prefix: "/ranged/seg.ts") { request in
            let range = request.headers["range"] ?? ""
            requests.withLock { $0.append(range) }
            if let from = Int(range.dropFirst("bytes=".count).split(separator: "-").first ?? ""), from >= file.count {
                return MediaServerResponse(status: 416, contentType: "text/plain", body: Data(), headers: [.contentRange: "bytes */\(file.count)"])
            }
            return MediaServerResponse(status: 200, contentType: "video/mp2t", body: file)
        }
        let whole = MemorySink(file)
        let outcome = try await Self.loader().download(.segment, url: h.server.url("ranged/seg.ts"), into: whole)
        #expect(outcome.length == file.count && outcome.bytesFetched == 0 && whole.data == file)
        // Longer than the file: the 416 cannot mean complete; it starts over and gets the file.
        let tooLong = MemorySink(file + Data(repeating: 0, count: 10))
        let again = try await Self.loader().download(.segment, url: h.server.url("ranged/seg.ts"), into: tooLong)
        #expect(again.length == file.count && tooLong.data == file)
        #expect(requests.withLock { $0 }.filter { $0.hasPrefix("bytes=") }.count == 2, "\(requests.withLock { $0 })")
    }

    /// A server that answers a segment's byte range with the whole file: refused typed, never stored as the segment.
    @Test func theWholeFileForAByteRangeIsRefused() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let file = try Data(contentsOf: h.fixture.root.appendingPathComponent("package/v240/seg000.ts"))
        h.server.addRoute(prefix: "/norange/all.ts") { _ in MediaServerResponse(status: 200, contentType: "video/mp2t", body: file) }
        let sink = MemorySink()
        let error = await #expect(throws: StreamingError.self) {
            try await Self.loader().download(
                .segment, url: h.server.url("norange/all.ts"), byteRange: ByteSpan(offset: 188 * 10, length: 188 * 100), into: sink)
        }
        #expect(error?.code == .notMedia && error?.message.contains("byte range") == true, "\(String(describing: error))")
        #expect(sink.data.isEmpty)
    }

    /// A resume asked for as soon as the failure is reported (while the failed task is still winding down) is
    /// not lost: the download is queued again and completes.
    @Test func aResumeRightAfterAFailureIsNotLost() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        h.server.forceStatus(404, forPathsContaining: "/v240/seg003.ts")
        let manager = try h.manager()
        let log = OfflineEventLog(manager)
        let token = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false))
        await log.waitFor { if case .failed(token, _) = $0 { true } else { false } }
        h.server.clearForcedStatuses()
        try manager.resumeVideoDownload(token)
        let status = try #require(await manager.waitUntilSettled(token))
        #expect(status.state == .completed, "\(status)")
        #expect(try h.mismatches(try manager.storedFiles(of: token)).isEmpty)
        await manager.close()
    }
}
