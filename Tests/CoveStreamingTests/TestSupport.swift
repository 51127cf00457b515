import CoveCore
import CoveStreaming
import CoveTesting
import Foundation
import Synchronization
import Testing

// MARK: Waiting

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Polls `condition` until it holds, failing the test after `timeout`. Sessions work on their own
/// tasks, so tests wait for a recorded fact (a chunk, an event, a request), never for a fixed time.
/// The bound is generous: in `make test`'s unit phase these tests share two cores with the mutation
/// campaigns and the CLI's subprocesses, and a session that needs 0.1 s alone has taken over 15 s there.
func waitUntil(
    _ what: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out after \(timeout) waiting for \(what)", sourceLocation: sourceLocation)
            throw TimedOut(what: what)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

// MARK: Fake media

enum FakeMedia {
    /// MPEG-TS: 188-byte packets starting with the sync byte; byte 1 and 2 carry the variant and the
    /// sequence number so a test can check the bytes pushed are the segment the chunk claims.
    static func ts(variant: Int, sequence: Int, packets: Int = 213) -> Data {
        var bytes = [UInt8](repeating: 0xFF, count: 188 * packets)
        for packet in 0..<packets { bytes[packet * 188] = 0x47 }
        bytes[1] = UInt8(truncatingIfNeeded: variant)
        bytes[2] = UInt8(truncatingIfNeeded: sequence)
        return Data(bytes)
    }

    /// An ISO BMFF box of `type` padded to `size` bytes (an fMP4 init segment is `ftyp`…, a fragment `moof`…).
    static func box(_ type: String, size: Int = 40_000, tag: UInt8 = 0) -> Data {
        var bytes = [UInt8](repeating: tag, count: max(size, 8))
        let length = UInt32(bytes.count)
        bytes[0] = UInt8(length >> 24)
        bytes[1] = UInt8((length >> 16) & 0xFF)
        bytes[2] = UInt8((length >> 8) & 0xFF)
        bytes[3] = UInt8(length & 0xFF)
        bytes.replaceSubrange(4..<8, with: Array(type.utf8))
        return Data(bytes)
    }
}

// MARK: A CDN in memory

/// Serves paths from a table the test can change while a session runs (a live window that moves, a
/// segment that starts failing). Unknown paths answer 404.
final class FakeCDN: Sendable {
    struct Resource: Sendable {
        var status: Int
        var contentType: String?
        var body: Data
    }

    static let host = "https://cdn.example.com"

    private final class Table: Sendable {
        let resources = Mutex<[String: Resource]>([:])
        /// Paths that answer `status` unless the request carries the header (a key server wanting a token).
        let protected = Mutex<[String: (header: String, value: String, status: Int)]>([:])
    }

    private let table = Table()
    let transport: ScriptedHTTPTransport
    /// What a session measures its downloads with: every answer takes its bytes' time on this link.
    let link: SimulatedLink

    init(link: SimulatedLink = SimulatedLink()) {
        let table = self.table
        self.link = link
        transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            if let guarded = table.protected.withLock({ $0[request.url.path] }), request.headers[guarded.header] != guarded.value {
                return HTTPResponse(status: guarded.status, headers: HTTPHeaders(), body: Data("denied".utf8), url: request.url)
            }
            let resource = table.resources.withLock { $0[request.url.path] } ?? Resource(status: 404, contentType: "text/plain", body: Data("not found".utf8))
            var headers = HTTPHeaders()
            if let type = resource.contentType { headers["Content-Type"] = type }
            link.carry(bytes: resource.body.count)
            return HTTPResponse(status: resource.status, headers: headers, body: resource.body, url: request.url)
        }
    }

    static func url(_ path: String) -> URL { URL(string: host + path)! }

    func set(_ path: String, status: Int = 200, contentType: String? = nil, _ body: Data) {
        table.resources.withLock { $0[path] = Resource(status: status, contentType: contentType, body: body) }
    }

    func set(_ path: String, playlist text: String) {
        set(path, contentType: "application/vnd.apple.mpegurl", Data(text.utf8))
    }

    /// `path` answers `status` to requests without `header: value`.
    func protect(_ path: String, header: String, value: String, status: Int = 401) {
        table.protected.withLock { $0[path] = (header, value, status) }
    }

    func fail(_ path: String, status: Int) {
        set(path, status: status, contentType: "text/plain", Data("error \(status)".utf8))
    }

    /// Paths requested so far, in order.
    var requestedPaths: [String] { transport.requests.map(\.url.path) }
}

/// A link of a fixed rate on a simulated clock: each answer advances the clock by its bytes' time, so a
/// session's throughput estimate reads the link and not the machine's load (a busy CI machine once
/// made an instant in-memory answer look like a slow network). Real time still runs the rest.
final class SimulatedLink: Sendable {
    let bitsPerSecond: Double
    private let elapsed = Mutex<Duration>(.zero)

    /// 100 Mbit/s: far above every test ladder's top variant.
    init(bitsPerSecond: Double = 100_000_000) {
        self.bitsPerSecond = bitsPerSecond
    }

    func carry(bytes: Int) {
        let seconds = Double(bytes) * 8 / bitsPerSecond
        elapsed.withLock { $0 += .nanoseconds(Int64(seconds * 1e9)) }
    }

    var clock: TransferClock {
        TransferClock { [self] in elapsed.withLock { $0 } }
    }
}

/// A VOD ladder: a master playlist and one media playlist per variant, every segment `duration`
/// seconds, TS by default or fMP4 (with an `EXT-X-MAP` init section per variant).
struct Ladder {
    var bandwidths = [200_000, 600_000, 1_500_000]
    var segments = 12
    var duration = 1.0
    var fmp4 = false
    var root = "/vod"

    var masterURL: URL { FakeCDN.url("\(root)/master.m3u8") }

    var master: String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n"
        for (index, bandwidth) in bandwidths.enumerated() {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),RESOLUTION=\(320 * (index + 1))x\(180 * (index + 1))\nv\(index)/index.m3u8\n"
        }
        return text
    }

    func mediaPlaylist(variant: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(Int(duration.rounded(.up)))\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        if fmp4 { text += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
        for sequence in 0..<segments {
            text += "#EXTINF:\(duration),\n\(segmentName(sequence))\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    func segmentName(_ sequence: Int) -> String { fmp4 ? "seg\(sequence).m4s" : "seg\(sequence).ts" }

    func segmentPath(variant: Int, sequence: Int) -> String { "\(root)/v\(variant)/\(segmentName(sequence))" }

    /// Puts every playlist and segment on `cdn`.
    func install(on cdn: FakeCDN) {
        cdn.set("\(root)/master.m3u8", playlist: master)
        for variant in bandwidths.indices {
            cdn.set("\(root)/v\(variant)/index.m3u8", playlist: mediaPlaylist(variant: variant))
            if fmp4 { cdn.set("\(root)/v\(variant)/init.mp4", contentType: "video/mp4", FakeMedia.box("ftyp", size: 1_000, tag: UInt8(variant))) }
            for sequence in 0..<segments {
                let body = fmp4 ? FakeMedia.box("moof", tag: UInt8(variant)) : FakeMedia.ts(variant: variant, sequence: sequence)
                cdn.set(segmentPath(variant: variant, sequence: sequence), contentType: fmp4 ? "video/mp4" : "video/mp2t", body)
            }
        }
    }
}

// MARK: Output and events

/// A `StreamingOutput` that records what it is given, drops chunks older than the generation it was
/// flushed to (as the engine's appsrc does at a seek), and lets the test move the playhead.
final class RecordingOutput: StreamingOutput {
    private struct State {
        var accepted: [MediaChunk] = []
        var dropped: [MediaChunk] = []
        var endOfStream: [Int] = []
        /// Every chunk in push order, kept or dropped.
        var log: [MediaChunk] = []
        /// How many chunks had been pushed when each end of stream came.
        var endOfStreamAfter: [Int] = []
        var floor = 0
        var playhead: Double?
        var playheadReads = 0
        var onPush: (@Sendable (MediaChunk) -> Void)?
    }

    private let state = Mutex(State())

    func push(_ chunk: MediaChunk) {
        let hook = state.withLock { s -> (@Sendable (MediaChunk) -> Void)? in
            s.log.append(chunk)
            if chunk.generation < s.floor { s.dropped.append(chunk) } else { s.accepted.append(chunk) }
            return s.onPush
        }
        hook?(chunk)
    }

    func pushEndOfStream(generation: Int) {
        state.withLock { s in
            guard generation >= s.floor else { return }
            s.endOfStream.append(generation)
            s.endOfStreamAfter.append(s.log.count)
        }
    }

    func playheadPosition() -> Double? {
        state.withLock { s in
            s.playheadReads += 1
            return s.playhead
        }
    }

    /// Called from the session's task for every chunk (after it is recorded).
    func onPush(_ hook: @escaping @Sendable (MediaChunk) -> Void) { state.withLock { $0.onPush = hook } }

    func setPlayhead(_ seconds: Double?) { state.withLock { $0.playhead = seconds } }

    /// Drops everything older than `generation`, now and later (a seek's flush).
    func flush(to generation: Int) {
        state.withLock { s in
            s.floor = generation
            s.dropped += s.accepted.filter { $0.generation < generation }
            s.accepted.removeAll { $0.generation < generation }
        }
    }

    var chunks: [MediaChunk] { state.withLock { $0.accepted } }
    var media: [MediaChunk] { chunks.filter { $0.kind == .media } }
    var dropped: [MediaChunk] { state.withLock { $0.dropped } }
    var endOfStream: [Int] { state.withLock { $0.endOfStream } }
    var endOfStreamAfter: [Int] { state.withLock { $0.endOfStreamAfter } }
    var log: [MediaChunk] { state.withLock { $0.log } }
    var playheadReads: Int { state.withLock { $0.playheadReads } }
    /// End of the last media chunk accepted (seconds), 0 when none.
    var pushedEnd: Double { media.last.map { $0.start + $0.duration } ?? 0 }
}

final class EventLog: Sendable {
    private let events = Mutex<[StreamingEvent]>([])

    func append(_ event: StreamingEvent) { events.withLock { $0.append(event) } }

    var all: [StreamingEvent] { events.withLock { $0 } }

    /// `.failed` errors.
    var failures: [StreamingError] { all.compactMap { if case .failed(let error) = $0 { error } else { nil } } }
    /// `.downloadFailed` errors.
    var downloadFailures: [StreamingError] { all.compactMap { if case .downloadFailed(let error) = $0 { error } else { nil } } }
    var requests: [RequestRecord] { all.compactMap { if case .request(let record) = $0 { record } else { nil } } }
    var readyTimelines: [MediaTimeline] { all.compactMap { if case .presentationReady(_, let timeline) = $0 { timeline } else { nil } } }
    var updatedTimelines: [MediaTimeline] { all.compactMap { if case .timelineUpdated(let timeline) = $0 { timeline } else { nil } } }
    var selectedVariants: [Int] { all.compactMap { if case .variantSelected(let variant) = $0 { variant.index } else { nil } } }
}

/// A session wired to a fake CDN, a recording output and an event log. Close it at the end of a test.
struct Harness {
    let cdn: FakeCDN
    let output = RecordingOutput()
    let events = EventLog()
    let session: StreamingSession

    init(cdn: FakeCDN, url: URL, configuration: StreamingConfiguration = Harness.fastConfiguration) {
        self.cdn = cdn
        let events = self.events
        var configuration = configuration
        configuration.transferClock = cdn.link.clock
        session = StreamingSession(url: url, transport: cdn.transport, configuration: configuration, output: output) { events.append($0) }
    }

    /// No retry delays worth waiting for: sessions under test fail fast.
    static var fastConfiguration: StreamingConfiguration {
        StreamingConfiguration(retryPolicy: .none)
    }
}

extension StreamingError {
    /// The error, thrown by `body`, as a typed value (nil when nothing was thrown).
    static func caught<T>(_ body: () throws(StreamingError) -> T) -> StreamingError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    static func caught<T>(_ body: () async throws(StreamingError) -> T) async -> StreamingError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}
