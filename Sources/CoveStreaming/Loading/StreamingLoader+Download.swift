import CoveCore
import Foundation
import Synchronization

/// Where a download's bytes go: a file being filled. Before every attempt the loader asks how much it
/// already holds and requests only the rest (HTTP `Range`), so a retry — or a process started again after
/// being killed — resumes where the bytes stopped instead of fetching the resource again.
public protocol DownloadSink: Sendable {
    /// Bytes of the resource already held (0 for a fresh file).
    func heldBytes() throws -> Int
    /// The server sent the whole resource although only the rest was asked for: start again from empty.
    func restart() throws
    func append(_ chunk: Data) throws
    /// The whole resource's length, when an earlier attempt (or process) learned it: a sink that already
    /// holds that many bytes is complete, with no request at all.
    func knownLength() -> Int?
    /// The server announced the whole resource's length (`Content-Length` of a 200, the total of a
    /// `Content-Range`) and its validator (`ETag`, else `Last-Modified`); kept so a resume can tell a complete
    /// part from a partial one, and ask with `If-Range` for the rest of the same version only.
    func learnLength(_ length: Int, validator: String?) throws
    /// The validator an earlier attempt learned with the length.
    func knownValidator() -> String?
    /// A byte range's answer named the whole resource's length (`Content-Range: bytes a-b/total`): a
    /// reader of a media file by ranges learns the file's size from its first answer.
    func learnResourceLength(_ total: Int)
    /// Takes the whole resource when a byte range from its first byte is answered with all of it (a
    /// server that ignores `Range`): a reader of a file from its start can use it as it comes.
    var acceptsWholeResourceForRange: Bool { get }
}

extension DownloadSink {
    public func knownLength() -> Int? { nil }
    public func learnLength(_ length: Int, validator: String?) throws {}
    public func knownValidator() -> String? { nil }
    public func learnResourceLength(_ total: Int) {}
    public var acceptsWholeResourceForRange: Bool { false }
}

/// What one download fetched.
public struct DownloadOutcome: Sendable, Hashable {
    /// Bytes received from the network by this call, over every attempt (resumed bytes not counted).
    public let bytesFetched: Int
    /// The resource's whole length as the sink now holds it.
    public let length: Int
    /// The length the server announced for the whole resource (or the byte range's), when it did.
    public let expectedLength: Int?
}

extension StreamingLoader {
    /// Fetches `url` (or its `byteRange`) into `sink`, resuming from the bytes the sink already holds, with
    /// the loader's filters, retry policy and accounting. Checks that the sink ends up holding exactly the
    /// announced length (a cut body is retried from where it stopped). `progress` hears the sink's length
    /// as chunks arrive.
    public func download(
        _ kind: StreamingRequestKind, url: URL, byteRange: ByteSpan? = nil, into sink: any DownloadSink, maxBytes: Int = 4 << 30,
        variantIndex: Int? = nil, progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(StreamingError) -> DownloadOutcome {
        var attempt = 1
        var fetched = 0
        while true {
            do {
                let outcome = try await downloadOnce(
                    kind, url: url, byteRange: byteRange, into: sink, maxBytes: maxBytes, attempt: attempt, variantIndex: variantIndex, progress: progress)
                fetched += outcome.bytesFetched
                return DownloadOutcome(bytesFetched: fetched, length: outcome.length, expectedLength: outcome.expectedLength)
            } catch {
                fetched += error.fetched
                guard error.failure.isRetryable, attempt <= retry.maximumAttempts, !Task.isCancelled else { throw error.failure }
                do {
                    try await sleep(retry.delay(beforeAttempt: attempt, random: Double.random(in: 0...1)))
                } catch {
                    throw StreamingError(.cancelled, "The request was cancelled", url: url)
                }
                attempt += 1
            }
        }
    }

    /// A failed attempt and the bytes it had fetched (they count against the download's bytes).
    private struct AttemptFailure: Error {
        let failure: StreamingError
        let fetched: Int
    }

    private func downloadOnce(
        _ kind: StreamingRequestKind, url: URL, byteRange: ByteSpan?, into sink: any DownloadSink, maxBytes: Int, attempt: Int,
        variantIndex: Int?, progress: (@Sendable (Int) -> Void)?
    ) async throws(AttemptFailure) -> DownloadOutcome {
        func fail(_ code: StreamingError.Code, _ message: String, status: Int? = nil, fetched: Int = 0) -> AttemptFailure {
            AttemptFailure(failure: StreamingError(code, message, url: url, httpStatus: status), fetched: fetched)
        }
        guard !Task.isCancelled else { throw fail(.cancelled, "The request was cancelled") }
        let held: Int
        do {
            held = try sink.heldBytes()
        } catch {
            throw fail(.storageFailed, "The partly downloaded \(kind.rawValue) could not be read back: \(error)")
        }
        if let byteRange, held >= byteRange.length {
            if held == byteRange.length { return DownloadOutcome(bytesFetched: 0, length: held, expectedLength: byteRange.length) }
            // Longer than its range: not this segment's bytes. Start it again.
            do { try sink.restart() } catch { throw fail(.storageFailed, "The download could not be started again: \(error)") }
            throw fail(.network, "The stored part of the \(kind.rawValue) was longer than its byte range; fetching it again")
        }
        if byteRange == nil, let known = sink.knownLength(), held == known, held > 0 {
            return DownloadOutcome(bytesFetched: 0, length: held, expectedLength: known)
        }
        let wanted: ByteSpan? = byteRange.map { ByteSpan(offset: $0.offset + held, length: $0.length - held) }
        var request = StreamingRequest(kind: kind, url: url, byteRange: wanted, attempt: attempt)
        for filter in filters {
            do {
                try await filter.apply(to: &request)
            } catch {
                throw fail(.filterRejected, "A request filter refused the \(kind.rawValue) request: \(error)")
            }
        }
        var http = HTTPRequest(url: request.url, headers: request.headers, timeout: timeout, maxResponseBytes: maxBytes)
        // Byte offsets must count the resource's own bytes, not a compressed stream's.
        http.headers["Accept-Encoding"] = "identity"
        if let range = request.byteRange {
            http.headers["Range"] = range.rangeHeader
        } else if held > 0 {
            http.headers["Range"] = "bytes=\(held)-"
            // Only the rest of the same version: a changed resource comes whole (200) and the part starts over.
            if let validator = sink.knownValidator() { http.headers["If-Range"] = validator }
        }
        let resumeFrom = wanted?.offset ?? held
        let state = Mutex(Receiving(held: held))
        let consumer: BodyConsumer = { part in
            try state.withLock { receiving in try receiving.take(part, sink: sink, resumeFrom: resumeFrom, isByteRange: byteRange != nil) }
            if case .bytes = part, let progress { progress(state.withLock { $0.held }) }
        }
        let started = Date().timeIntervalSince1970
        let begin = clock.now()
        let response: HTTPResponse
        do {
            response = try await transport.send(http, consumingBody: consumer)
        } catch {
            let received = state.withLock { $0 }
            onRecord(
                RequestRecord(
                    kind: kind, url: Redaction.redact(url: request.url), status: 0, bytes: received.fetched, startedAt: started, duration: clock.now() - begin,
                    attempt: attempt, variantIndex: variantIndex))
            if error.kind == .cancelled || Task.isCancelled { throw fail(.cancelled, "The request was cancelled", fetched: received.fetched) }
            if error.kind == .bodyConsumerFailed, let mismatch = received.mismatch {
                throw fail(
                    received.mismatchRetryable ? .network : .notMedia,
                    "The server answered the \(kind.rawValue) range request for \(Redaction.redact(url: request.url)) with \(mismatch)",
                    status: received.wholeInsteadOfRange ? 200 : nil, fetched: received.fetched)
            }
            throw AttemptFailure(failure: Self.streamingError(error, kind: kind, url: request.url), fetched: received.fetched)
        }
        let received = state.withLock { $0 }
        onRecord(
            RequestRecord(
                kind: kind, url: Redaction.redact(url: response.url), status: response.status, bytes: received.fetched, startedAt: started,
                duration: clock.now() - begin, attempt: attempt, variantIndex: variantIndex))
        if response.status == 416, held > 0 {
            // Nothing left to send from `held` on: whole when the resource is exactly that long, else start over.
            let total = response.headers["Content-Range"].flatMap { $0.split(separator: "/").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            let whole = byteRange.map { held == $0.length } ?? (total == held)
            if whole { return DownloadOutcome(bytesFetched: 0, length: held, expectedLength: held) }
            do { try sink.restart() } catch { throw fail(.storageFailed, "The download could not be started again: \(error)") }
            throw fail(
                .network, "The server could not send the rest of the \(kind.rawValue) from byte \(resumeFrom) (HTTP 416); fetching it again", status: 416)
        }
        guard response.isSuccess else {
            throw fail(
                .httpStatus,
                "The server answered HTTP \(response.status) for the \(kind.rawValue) \(Redaction.redact(url: response.url)): \(StreamingError.advice(forStatus: response.status))",
                status: response.status
            )
        }
        let expected = received.tookWhole ? received.announcedTotal : (received.rangeCutAtEnd ?? byteRange?.length ?? received.announcedTotal)
        if let expected, received.held != expected {
            // A body cut short (or longer than announced): retried, from where it stopped when short.
            if received.held > expected {
                do { try sink.restart() } catch { throw fail(.storageFailed, "The download could not be started again: \(error)", fetched: received.fetched) }
            }
            throw fail(
                .network, "The \(kind.rawValue) \(Redaction.redact(url: response.url)) arrived with \(received.held) of its \(expected) bytes",
                fetched: received.fetched)
        }
        return DownloadOutcome(bytesFetched: received.fetched, length: received.held, expectedLength: expected)
    }

}

/// What has arrived during one download attempt.
private struct Receiving: Sendable {
    /// Bytes the sink holds.
    var held: Int
    /// Bytes received in this attempt.
    var fetched = 0
    /// The whole resource's length, from `Content-Range` (206) or `Content-Length` (200).
    var announcedTotal: Int?
    /// Why the answer did not fit the range asked for.
    var mismatch: String?
    /// The part was started over (the resource changed): another attempt can fetch it whole.
    var mismatchRetryable = false
    /// A byte range reaching past the resource's end, answered up to its last byte (RFC 9110 §14.1.2): the
    /// length the sink will then hold.
    var rangeCutAtEnd: Int?
    /// A byte range answered with the whole resource (a server that ignores `Range`).
    var wholeInsteadOfRange = false
    /// ... and the sink took it (`DownloadSink.acceptsWholeResourceForRange`, a range from byte 0).
    var tookWhole = false

    mutating func take(_ part: BodyPart, sink: any DownloadSink, resumeFrom: Int, isByteRange: Bool) throws {
        switch part {
        case .head(let status, let headers):
            let length = headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if status == 206 {
                guard let range = ContentRange(headers["Content-Range"] ?? ""), range.first == resumeFrom else {
                    mismatch = "a range that does not start at byte \(resumeFrom) (Content-Range: \(headers["Content-Range"] ?? "none"))"
                    throw RangeMismatch()
                }
                // A segment's byte range has its own expected length; a resumed whole file, the total.
                announcedTotal = isByteRange ? nil : (range.total ?? length.map { held + $0 })
                if isByteRange, let total = range.total {
                    if range.last + 1 == total { rangeCutAtEnd = held + range.last - range.first + 1 }
                    sink.learnResourceLength(total)
                }
            } else if isByteRange, resumeFrom == 0, held == 0, sink.acceptsWholeResourceForRange {
                tookWhole = true
                announcedTotal = headers["Content-Encoding"].map { $0.lowercased() == "identity" } ?? true ? length : nil
                if let total = announcedTotal { try sink.learnLength(total, validator: headers["ETag"] ?? headers["Last-Modified"]) }
            } else {
                if isByteRange {
                    // The whole file for a segment's byte range: its first bytes are not the segment's.
                    mismatch = "the whole resource (HTTP \(status)) instead of the byte range; the server must honour Range requests for byte-ranged segments"
                    wholeInsteadOfRange = true
                    throw RangeMismatch()
                }
                // The whole resource: whatever was held is replaced.
                if held > 0 {
                    try sink.restart()
                    held = 0
                }
                announcedTotal = headers["Content-Encoding"].map { $0.lowercased() == "identity" } ?? true ? length : nil
            }
            if !isByteRange, let total = announcedTotal {
                // A different length than an earlier attempt learned: another version of the resource.
                if let known = sink.knownLength(), known != total, held > 0 {
                    mismatch = "a resource of \(total) bytes where an earlier attempt was told \(known) (it changed on the server)"
                    mismatchRetryable = true
                    try sink.restart()
                    held = 0
                    throw RangeMismatch()
                }
                try sink.learnLength(total, validator: headers["ETag"] ?? headers["Last-Modified"])
            }
        case .bytes(let chunk):
            try sink.append(chunk)
            held += chunk.count
            fetched += chunk.count
        }
    }

    private struct RangeMismatch: Error {}
}

/// An HTTP `Content-Range: bytes first-last/total` value.
struct ContentRange: Sendable, Hashable {
    let first: Int
    let last: Int
    let total: Int?

    init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6)
        let halves = spec.split(separator: "/", maxSplits: 1)
        let bounds = halves.first?.split(separator: "-", maxSplits: 1) ?? []
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 0, last >= first else { return nil }
        self.first = first
        self.last = last
        total = halves.count == 2 ? Int(halves[1]) : nil
    }
}
