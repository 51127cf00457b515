import CoveCore
import Foundation
import Logging
import Synchronization

/// Reads a single media file (an MP4 rendition, an MP3) by byte ranges for a demuxer that asks where to
/// read: the producer behind a `ByteFeedInput`. Every request goes through the session's
/// `StreamingLoader` — the app's transport, request filters, the Playback Rights token, retries (a cut
/// body resumes where it stopped) and accounting — as HLS and DASH segments do.
///
/// Each place the demuxer asks for (the start, the index at the end, the sample a seek lands on) is a
/// generation: the requests of the old one are cancelled and reading starts at the new offset with a
/// small range that grows (`initialRange` doubling to `largestRange`), so the first bytes of a start or a
/// seek arrive after one short exchange while a long read reuses the connection for large ranges. Read
/// ahead stops while `readAhead` bytes wait unread at the demuxer's input, so a long file is never
/// pulled into memory whole. Fetched bytes are kept (`cacheLimit`, nearest the reading place first), so a
/// seek back, or the demuxer reading its index again, is answered from memory without a request.
public final class ProgressiveLoader: ByteFeedProducer, Sendable {
    public enum Event: Sendable {
        /// The first answer: the file's length when the server named it.
        case opened(size: Int64?)
        case request(RequestRecord)
        /// Reading failed after the loader's retries (a 403, a vanished file): the play fails with it.
        case failed(StreamingError)
    }

    public struct Tuning: Sendable, Hashable {
        /// The first range after a start or a seek.
        public var initialRange: Int
        /// The range size reading grows to.
        public var largestRange: Int
        /// Bytes allowed to wait unread at the demuxer's input before reading pauses.
        public var readAhead: Int
        /// Fetched bytes kept for repositionings into them (0: none; every seek is a new request).
        public var cacheLimit: Int

        public init(initialRange: Int = 256 << 10, largestRange: Int = 4 << 20, readAhead: Int = 8 << 20, cacheLimit: Int = 16 << 20) {
            self.initialRange = max(initialRange, 4 << 10)
            self.largestRange = max(largestRange, self.initialRange)
            self.readAhead = max(readAhead, self.largestRange)
            self.cacheLimit = max(cacheLimit, 0)
        }
    }

    private struct State {
        var generation = 0
        var task: Task<Void, Never>?
        var size: Int64?
        var opened = false
        var closed = false
        var bytesLoaded = 0
        var cache: ByteCache
        /// Where the current generation reads now: what the cache keeps nearest.
        var reading: Int64 = 0
    }

    let url: URL
    let loader: StreamingLoader
    let output: any ByteFeedInput
    let tuning: Tuning
    let logger: Logger
    /// The configuration's `readiness`, awaited before each read starts.
    private let readiness: @Sendable () async -> Void
    private let onEvent: @Sendable (Event) -> Void
    private let state: Mutex<State>

    public init(
        url: URL, transport: any HTTPTransport, configuration: StreamingConfiguration, output: any ByteFeedInput, tuning: Tuning = Tuning(),
        logger: Logger = Logger(label: "cove.progressive"), onEvent: @escaping @Sendable (Event) -> Void
    ) {
        self.url = url
        self.output = output
        self.tuning = tuning
        self.logger = logger
        self.readiness = configuration.readiness
        self.onEvent = onEvent
        // A downloaded copy (any scheme but HTTP's) is read from disk again at no cost: only bytes that
        // crossed the network are worth keeping.
        let remote = ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        self.state = Mutex(State(cache: ByteCache(limit: remote ? tuning.cacheLimit : 0)))
        let box = Relay<RequestRecord>()
        self.loader = StreamingLoader(
            transport: transport, filters: configuration.requestFilters, retry: configuration.retryPolicy, timeout: configuration.requestTimeout,
            clock: configuration.transferClock, origin: url,
            stream: .main, onRecord: { record in box.deliver(record) })
        box.connect { [weak self] record in self?.recorded(record) }
    }

    deinit { close() }

    /// The file's length, once the first answer named it.
    public var size: Int64? { state.withLock { $0.size } }

    /// Bytes received so far, over every request.
    public var bytesLoaded: Int { state.withLock { $0.bytesLoaded } }

    public var generation: Int { state.withLock { $0.generation } }

    /// Bytes kept for repositionings into them.
    public var cachedBytes: Int { state.withLock { $0.cache.total } }

    /// Keeps fetched bytes for later repositionings (under the lock; the chunk itself is not copied).
    fileprivate func keep(_ chunk: Data, at offset: Int64) {
        state.withLock { s in
            s.reading = offset + Int64(chunk.count)
            s.cache.insert(chunk, at: offset, anchor: s.reading)
        }
    }

    /// Starts reading at the file's first byte (the demuxer's start positioning keeps what this fetched).
    public func start() {
        _ = reposition(toByte: 0)
    }

    public func reposition(toByte offset: Int64) -> Int {
        let (generation, old) = state.withLock { s -> (Int, Task<Void, Never>?) in
            guard !s.closed else { return (s.generation, nil) }
            s.generation += 1
            defer { s.task = nil }
            return (s.generation, s.task)
        }
        old?.cancel()
        let task = Task<Void, Never> { [weak self] in await self?.read(generation: generation, from: max(offset, 0)) }
        let keep = state.withLock { s -> Bool in
            guard s.generation == generation, !s.closed else { return false }
            s.task = task
            return true
        }
        if !keep { task.cancel() }
        logger.debug("progressive read from", metadata: ["offset": "\(offset)", "generation": "\(generation)"])
        return generation
    }

    public func close() {
        let task = state.withLock { s -> Task<Void, Never>? in
            s.closed = true
            defer { s.task = nil }
            return s.task
        }
        task?.cancel()
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { !$0.closed && $0.generation == generation } && !Task.isCancelled
    }

    private func recorded(_ record: RequestRecord) {
        state.withLock { $0.bytesLoaded += record.bytes }
        onEvent(.request(record))
    }

    /// Learns the size from the first answer (a range's `Content-Range` total) and says the file is open.
    fileprivate func learned(size total: Int64?) {
        let first = state.withLock { s -> Bool in
            if let total { s.size = total }
            defer { s.opened = true }
            return !s.opened
        }
        if first { onEvent(.opened(size: total)) }
    }

    private func read(generation: Int, from offset: Int64) async {
        await readiness()
        var position = offset
        var range = tuning.initialRange
        // The first range of a repositioning goes at once: the demuxer is waiting for it, and the input's
        // level may still count the old place's bytes (appsrc empties its queue only after `seek-data`
        // returns, and this task can start before that) — waiting for room then cost a seek 50 ms.
        var firstRange = true
        while isCurrent(generation) {
            if let size = state.withLock({ $0.size }), position >= size {
                output.pushEndOfStream(generation: generation)
                return
            }
            // Room at the demuxer's input: the next range only once most of what waits was taken (polled:
            // 8 MiB of video lasts seconds, so a check every 50 ms costs nothing in time to refill).
            while !firstRange, output.queuedBytes > tuning.readAhead {
                do { try await Task.sleep(for: .milliseconds(50)) } catch { return }
                guard isCurrent(generation) else { return }
            }
            firstRange = false
            // Bytes held from an earlier read go from memory; the network fetches only what is missing.
            let (held, size, nextHeld) = state.withLock { s in
                s.reading = position
                return (s.cache.contiguous(from: position, maxLength: tuning.largestRange), s.size, s.cache.nextHeldOffset(after: position))
            }
            if let last = held.last {
                for chunk in held { output.push(chunk.data, at: chunk.offset, generation: generation) }
                position = last.end
                continue
            }
            var length = size.map { Int(min(Int64(range), $0 - position)) } ?? range
            if let nextHeld, nextHeld > position { length = Int(min(Int64(length), nextHeld - position)) }
            let sink = FeedSink(owner: self, offset: position, generation: generation)
            do {
                let outcome = try await loader.download(.segment, url: url, byteRange: ByteSpan(offset: Int(position), length: length), into: sink)
                sink.finish()
                position += Int64(outcome.length)
                if outcome.length != length, self.size == nil {
                    // The answer stopped short of the range (or was the whole file) without naming a
                    // length: the file ends there.
                    learned(size: position)
                }
            } catch {
                guard isCurrent(generation), error.code != .cancelled else { return }
                if error.code == .notMedia, error.httpStatus == 200 {
                    await readWhole(generation: generation, from: position)
                    return
                }
                logger.debug("progressive read failed", metadata: ["error": "\(error)"])
                onEvent(.failed(error))
                return
            }
            range = min(range * 2, tuning.largestRange)
        }
    }

    /// A server that ignores `Range` answers with the whole file: read it from its start in one exchange,
    /// pushing from `offset` on (what comes before is skipped). No read-ahead limit applies: the server
    /// sends what it sends, as to any client of it.
    private func readWhole(generation: Int, from offset: Int64) async {
        logger.notice("the server ignores byte ranges; reading the whole file", metadata: ["url": "\(Redaction.redact(url: url))"])
        let sink = WholeFileSink(owner: self, from: offset, generation: generation)
        do {
            let outcome = try await loader.download(.segment, url: url, into: sink)
            learned(size: Int64(outcome.length))
            guard isCurrent(generation) else { return }
            output.pushEndOfStream(generation: generation)
        } catch {
            guard isCurrent(generation), error.code != .cancelled else { return }
            onEvent(.failed(error))
        }
    }

    /// The whole file from its first byte, pushed from `from` on.
    private final class WholeFileSink: DownloadSink {
        private let owner: ProgressiveLoader
        private let from: Int64
        private let generation: Int
        private let held = Mutex<Int64>(0)

        init(owner: ProgressiveLoader, from: Int64, generation: Int) {
            self.owner = owner
            self.from = from
            self.generation = generation
        }

        func heldBytes() throws -> Int { Int(held.withLock { $0 }) }

        func restart() throws {
            guard held.withLock({ $0 }) <= from else {
                throw StreamingError(.network, "The server changed the file while it was being read", url: owner.url)
            }
            held.withLock { $0 = 0 }
        }

        func learnLength(_ length: Int, validator: String?) throws {
            owner.learned(size: Int64(length))
        }

        func append(_ chunk: Data) throws {
            guard owner.generation == generation else { throw CancellationError() }
            let start = held.withLock { h -> Int64 in
                defer { h += Int64(chunk.count) }
                return h
            }
            let end = start + Int64(chunk.count)
            guard end > from else { return }
            let skip = Int(max(from - start, 0))
            owner.learned(size: owner.size)
            owner.keep(chunk, at: start)
            owner.output.push(skip == 0 ? chunk : chunk.subdata(in: chunk.startIndex + skip..<chunk.endIndex), at: start + Int64(skip), generation: generation)
        }
    }

    /// Bytes of one range, pushed to the demuxer's input as they arrive.
    private final class FeedSink: DownloadSink {
        private let owner: ProgressiveLoader
        private let offset: Int64
        private let generation: Int
        private let pushed = Mutex(0)

        init(owner: ProgressiveLoader, offset: Int64, generation: Int) {
            self.owner = owner
            self.offset = offset
            self.generation = generation
        }

        func heldBytes() throws -> Int { pushed.withLock { $0 } }

        /// Bytes given to the demuxer cannot be taken back.
        func restart() throws {
            throw StreamingError(.network, "The server changed the file while it was being read", url: owner.url)
        }

        func append(_ chunk: Data) throws {
            guard owner.generation == generation else { throw CancellationError() }
            let at = pushed.withLock { held -> Int in
                defer { held += chunk.count }
                return held
            }
            if at == 0 && offset == 0 { owner.learned(size: owner.size) }
            owner.keep(chunk, at: offset + Int64(at))
            owner.output.push(chunk, at: offset + Int64(at), generation: generation)
        }

        func learnResourceLength(_ total: Int) {
            owner.learned(size: Int64(total))
        }

        /// From the file's first byte, a server that ignores `Range` sends the whole file: use it as it comes.
        var acceptsWholeResourceForRange: Bool { offset == 0 }

        func learnLength(_ length: Int, validator: String?) throws {
            owner.learned(size: Int64(length))
        }

        /// A range answered without bytes or a length still opens the file.
        func finish() {
            if offset == 0 { owner.learned(size: owner.size) }
        }
    }
}
