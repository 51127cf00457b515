import CoveCore
import CoveStreaming
import CoveTesting
import Foundation
import Testing

/// Every request of the engine goes through the loader: filters shape it per request kind, server
/// trouble is retried on the policy's schedule (and nothing else is), each exchange is accounted for
/// once, and no secret from a URL reaches an error.
@Suite("Streaming loader")
struct StreamingLoaderTests {
    static let url = URL(string: "https://cdn.example.com/show/seg1.ts")!

    static func ok(_ request: HTTPRequest, body: Data = Data(repeating: 0x47, count: 100)) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "video/mp2t"], body: body, url: request.url)
    }

    static func status(_ status: Int, _ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain"], body: Data("status \(status)".utf8), url: request.url)
    }

    /// Delays as a test-visible list; no time passes.
    static let noJitter = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(10), jitter: 0)

    static func loader(
        _ transport: ScriptedHTTPTransport, filters: [RequestFilter] = [], retry: RetryPolicy = noJitter, sleeps: Recorded<Duration> = Recorded(),
        records: Recorded<RequestRecord> = Recorded()
    ) -> StreamingLoader {
        StreamingLoader(transport: transport, filters: filters, retry: retry, sleep: { sleeps.append($0) }, onRecord: { records.append($0) })
    }

    // MARK: Local files

    /// A presentation on disk: its files are read whole or by byte range, accounted like any exchange, and
    /// never through the transport.
    @Test func aLocalPresentationReadsItsFilesWholeAndByRange() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("seg1.ts")
        try Data((0..<200).map { UInt8($0) }).write(to: file)
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.ok(request) }
        let records = Recorded<RequestRecord>()
        let loader = StreamingLoader(transport: transport, origin: folder.appendingPathComponent("master.m3u8"), onRecord: { records.append($0) })
        let whole = try await loader.load(.segment, url: file)
        #expect(whole.body.count == 200 && whole.record.status == 200)
        let part = try await loader.load(.segment, url: file, byteRange: ByteSpan(offset: 190, length: 50))
        #expect(Array(part.body) == Array(190..<200).map { UInt8($0) }, "a range past the end is cut at the end")
        #expect(part.record.status == 206)
        #expect(transport.requests.isEmpty)
        #expect(records.all.map(\.bytes) == [200, 10])
        await #expect { try await loader.load(.segment, url: file, byteRange: ByteSpan(offset: 500, length: 10)) } throws: { error in
            (error as? StreamingError)?.code == .fileUnreadable && "\(error)".contains("past the end")
        }
        await #expect { try await loader.load(.segment, url: folder.appendingPathComponent("gone.ts")) } throws: { error in
            guard let error = error as? StreamingError else { return false }
            return error.code == .fileUnreadable && error.isPermanent && !error.isRetryable && error.playbackError.code == .notFound
        }
        await #expect { try await loader.load(.segment, url: file, maxBytes: 100) } throws: { error in (error as? StreamingError)?.code == .tooLarge }
    }

    /// A presentation fetched over the network may not make the loader read the device's files or a
    /// downloaded copy; a downloaded copy reads its own scheme but no device file.
    @Test func aPresentationNamesOnlyHTTPAndItsOwnLocalScheme() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.ok(request) }
        let network = StreamingLoader(transport: transport, origin: URL(string: "https://cdn.example.com/master.m3u8")!)
        for url in [URL(fileURLWithPath: "/etc/hostname"), URL(string: "cove-offline://tok/key/k1")!, URL(string: "ftp://host/seg.ts")!] {
            await #expect { try await network.load(.segment, url: url) } throws: { error in
                guard let error = error as? StreamingError else { return false }
                return error.code == .schemeRefused && error.isPermanent && error.playbackError.code == .unsupportedFormat
            }
        }
        // The copy's scheme is this test's own: `cove-offline:` is registered process-wide by the offline
        // tests in this process, and their router would answer instead of this transport.
        let offline = StreamingLoader(transport: transport, origin: URL(string: "cove-loader-test://tok/master.m3u8")!)
        await #expect { try await offline.load(.segment, url: URL(fileURLWithPath: "/etc/hostname")) } throws: { error in
            (error as? StreamingError)?.code == .schemeRefused
        }
        _ = try await offline.load(.segment, url: URL(string: "cove-loader-test://tok/seg1.ts")!)
        #expect(transport.requests.map(\.url.absoluteString) == ["cove-loader-test://tok/seg1.ts"], "its own scheme goes to the transport (LocalResources)")
    }

    // MARK: Filters

    @Test func headerFilterAppliesOnlyToTheKindsItNames() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.ok(request) }
        let loader = Self.loader(transport, filters: [.header("X-Segment-Token", "t1", kinds: [.segment, .initSegment]), .header("X-App", "cove")])
        _ = try await loader.load(.manifest, url: Self.url)
        _ = try await loader.load(.segment, url: Self.url)
        _ = try await loader.load(.initSegment, url: Self.url)
        _ = try await loader.load(.key, url: Self.url)
        let sent = transport.requests
        #expect(sent.map { $0.headers["X-Segment-Token"] } == [nil, "t1", "t1", nil])
        #expect(sent.allSatisfy { $0.headers["X-App"] == "cove" }, "a filter without kinds applies to every kind")
    }

    @Test func queryItemFilterKeepsTheExistingQuery() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.ok(request) }
        let loader = Self.loader(transport, filters: [.queryItem("cdn", "edge2", kinds: [.segment])])
        _ = try await loader.load(.segment, url: URL(string: "https://cdn.example.com/show/seg1.ts?v=3")!)
        _ = try await loader.load(.manifest, url: URL(string: "https://cdn.example.com/show/index.m3u8")!)
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://cdn.example.com/show/seg1.ts?v=3&cdn=edge2", "https://cdn.example.com/show/index.m3u8",
            ])
    }

    @Test func filtersRunInOrderAndCanRewriteTheURL() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.ok(request) }
        let rewrite = RequestFilter { request in
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
            components.host = "backup.example.com"
            request.url = components.url!
        }
        let loader = Self.loader(transport, filters: [rewrite, .queryItem("n", "1")])
        let loaded = try await loader.load(.segment, url: Self.url)
        #expect(transport.requests.map(\.url.absoluteString) == ["https://backup.example.com/show/seg1.ts?n=1"])
        #expect(loaded.url.host == "backup.example.com")
    }

    struct Refused: Error {}

    @Test func aThrowingFilterRejectsTheRequestBeforeItIsSent() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.ok(request) }
        let records = Recorded<RequestRecord>()
        let loader = Self.loader(transport, filters: [RequestFilter(kinds: [.key]) { _ in throw Refused() }], records: records)
        let error = await StreamingError.caught { () async throws(StreamingError) in try await loader.load(.key, url: Self.url) }
        #expect(error?.code == .filterRejected)
        #expect(error?.isRetryable == false)
        #expect(transport.requests.isEmpty)
        #expect(records.all.isEmpty)
        // Kinds the filter does not name are untouched.
        _ = try await loader.load(.segment, url: Self.url)
        #expect(transport.requests.count == 1)
    }

    // MARK: Retries

    @Test func serverErrorsAreRetriedOnThePolicysSchedule() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.status(503, request) }
        let sleeps = Recorded<Duration>()
        let records = Recorded<RequestRecord>()
        let attempts = Recorded<Int>()
        let seen = RequestFilter { attempts.append($0.attempt) }
        let loader = Self.loader(transport, filters: [seen], sleeps: sleeps, records: records)
        let error = await StreamingError.caught { () async throws(StreamingError) in try await loader.load(.segment, url: Self.url) }
        #expect(error?.code == .httpStatus)
        #expect(error?.httpStatus == 503)
        // The first try and three retries, 100 ms, 200 ms, 400 ms apart.
        #expect(transport.requests.count == 4)
        #expect(sleeps.all == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(attempts.all == [1, 2, 3, 4], "filters run on every attempt and see which one it is")
        #expect(records.all.map(\.attempt) == [1, 2, 3, 4])
        #expect(records.all.allSatisfy { $0.status == 503 })
    }

    @Test func aRetryThatSucceedsReturnsTheBody() async throws {
        let calls = Recorded<Int>()
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            calls.append(1)
            return calls.all.count < 3 ? Self.status(500, request) : Self.ok(request, body: Data("payload".utf8))
        }
        let sleeps = Recorded<Duration>()
        let loaded = try await Self.loader(transport, sleeps: sleeps).load(.manifest, url: Self.url)
        #expect(loaded.body == Data("payload".utf8))
        #expect(loaded.record.attempt == 3)
        #expect(sleeps.all == [.milliseconds(100), .milliseconds(200)])
    }

    @Test func brokenConnectionsAreRetried() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            throw HTTPTransportError(.connectionFailed, url: request.url, detail: "connection reset by peer")
        }
        let sleeps = Recorded<Duration>()
        let records = Recorded<RequestRecord>()
        let error = await StreamingError.caught { () async throws(StreamingError) in
            try await Self.loader(
                transport, retry: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(50), jitter: 0), sleeps: sleeps, records: records
            ).load(.segment, url: Self.url)
        }
        #expect(error?.code == .network)
        #expect(error?.message.contains("connection reset by peer") == true)
        #expect(error?.playbackError.code == .networkUnreachable)
        #expect(transport.requests.count == 3)
        #expect(sleeps.all == [.milliseconds(50), .milliseconds(100)])
        // No answer: status 0, no bytes, still one record per attempt.
        #expect(records.all.map(\.status) == [0, 0, 0])
        #expect(records.all.map(\.bytes) == [0, 0, 0])
    }

    @Test func notFoundIsFinalAndMapsToNotFound() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.status(404, request) }
        let sleeps = Recorded<Duration>()
        let error = await StreamingError.caught { () async throws(StreamingError) in
            try await Self.loader(transport, sleeps: sleeps).load(.segment, url: Self.url)
        }
        #expect(transport.requests.count == 1)
        #expect(sleeps.all.isEmpty)
        #expect(error?.code == .httpStatus)
        #expect(error?.isRetryable == false)
        #expect(error?.playbackError.code == .notFound)
        #expect(error?.playbackError.httpStatus == 404)
    }

    @Test func otherClientErrorsAreFinalButThrottlingIsRetried() async throws {
        for (status, retried) in [(403, false), (410, false), (408, true), (429, true)] {
            let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.status(status, request) }
            let error = await StreamingError.caught { () async throws(StreamingError) in try await Self.loader(transport).load(.segment, url: Self.url) }
            #expect(error?.httpStatus == status)
            #expect(transport.requests.count == (retried ? 4 : 1), "HTTP \(status)")
            // 410 Gone is a missing asset like 404; the others are statuses.
            #expect(error?.playbackError.code == (status == 410 ? .notFound : .httpStatus))
        }
    }

    @Test func aCancelledRetryWaitIsCancelledNotFailed() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.status(503, request) }
        let loader = StreamingLoader(transport: transport, retry: Self.noJitter, sleep: { _ in throw CancellationError() })
        let error = await StreamingError.caught { () async throws(StreamingError) in try await loader.load(.segment, url: Self.url) }
        #expect(error?.code == .cancelled)
        #expect(transport.requests.count == 1)
    }

    // MARK: The request and its record

    @Test func byteRangeBecomesARangeHeader() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.ok(request) }
        let loader = Self.loader(transport)
        _ = try await loader.load(.segment, url: Self.url, byteRange: ByteSpan(offset: 1_000, length: 500))
        _ = try await loader.load(.segment, url: Self.url)
        #expect(transport.requests.map { $0.headers["Range"] } == ["bytes=1000-1499", nil])
    }

    @Test func everyExchangeProducesOneRecord() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            request.url.path.hasSuffix("missing.ts") ? Self.status(404, request) : Self.ok(request, body: Data(repeating: 0x47, count: 1_234))
        }
        let records = Recorded<RequestRecord>()
        let loader = Self.loader(transport, records: records)
        let loaded = try await loader.load(.segment, url: Self.url, variantIndex: 2)
        _ = try await loader.load(.manifest, url: URL(string: "https://cdn.example.com/show/index.m3u8")!)
        _ = await StreamingError.caught { () async throws(StreamingError) in
            try await loader.load(.initSegment, url: URL(string: "https://cdn.example.com/show/missing.ts")!)
        }
        let all = records.all
        #expect(all.map(\.kind) == [.segment, .manifest, .initSegment])
        #expect(all.map(\.status) == [200, 200, 404])
        #expect(all.map(\.bytes) == [1_234, 1_234, "status 404".utf8.count])
        #expect(all.map(\.attempt) == [1, 1, 1])
        #expect(all.map(\.variantIndex) == [2, nil, nil])
        #expect(all.allSatisfy { $0.duration >= .zero && $0.startedAt > 1_600_000_000 })
        #expect(loaded.record == all[0])
        #expect(loaded.contentType == "video/mp2t")
    }

    @Test func recordThroughputIsBitsPerSecond() {
        let record = RequestRecord(kind: .segment, url: "u", status: 200, bytes: 250_000, startedAt: 0, duration: .milliseconds(500), attempt: 1)
        #expect(record.throughput == 4_000_000)
        let instant = RequestRecord(kind: .segment, url: "u", status: 200, bytes: 250_000, startedAt: 0, duration: .zero, attempt: 1)
        #expect(instant.throughput == nil)
    }

    @Test func secretsInURLsNeverReachErrorsOrRecords() async throws {
        let secretURL = URL(string: "https://cdn.example.com/show/seg1.ts?token=SECRET123&v=2")!
        let records = Recorded<RequestRecord>()
        let notFound = ScriptedHTTPTransport { request throws(HTTPTransportError) in Self.status(404, request) }
        let error = await StreamingError.caught { () async throws(StreamingError) in
            try await Self.loader(notFound, records: records).load(.segment, url: secretURL)
        }
        let failure = try #require(error)
        #expect(failure.url == "https://cdn.example.com/show/seg1.ts?token=REDACTED&v=2")
        #expect(!failure.description.contains("SECRET123"))
        #expect(!failure.playbackError.description.contains("SECRET123"))
        #expect(records.all.map(\.url) == ["https://cdn.example.com/show/seg1.ts?token=REDACTED&v=2"])

        // A transport error that quotes the URL in its detail.
        let broken = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            throw HTTPTransportError(.connectionFailed, url: request.url, detail: "could not connect to \(request.url.absoluteString)")
        }
        let networkError = await StreamingError.caught { () async throws(StreamingError) in
            try await Self.loader(broken, retry: .none).load(.segment, url: secretURL)
        }
        let network = try #require(networkError)
        #expect(!network.description.contains("SECRET123"))
        #expect(network.message.contains("REDACTED"))
    }
}
