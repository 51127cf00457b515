import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// A fed pipeline's input (`MediaFeedInput`): hands a producer's chunks (Cove's streaming session's) to
/// playbin3's `appsrc` (`appsrc://`). The producer fetched them; GStreamer only demuxes, decodes and renders.
///
/// Pushes run on one serial queue, in order, never on the producer's tasks or GStreamer's threads. Until
/// the source has started (its first positioning: GstBaseSrc flushes the appsrc queue then) chunks wait
/// here. Every flushing seek reaches the source as a repositioning (`sourcePositioned`), which restarts
/// the producer at the target with a new generation (`MediaFeedProducer.reposition(to:)`), synchronously,
/// before GStreamer resumes; buffers of an older generation are dropped (here, and by the C probe for
/// those already queued).
final class AppSourceFeed: MediaFeedInput, @unchecked Sendable {
    private let queue = DispatchQueue(label: "cove-appsrc-push")
    private let state = Mutex(State())
    /// The producer and the playhead reader, linked after init (the producer needs the feed as its output).
    private let links = Mutex<(producer: (any MediaFeedProducer)?, playhead: PlayheadReader)>((nil, PlayheadReader { nil }))

    /// The playhead closure in a box of its own: a closure stored straight in the generic `Mutex` state is
    /// re-wrapped in reabstraction thunks on every read, and the producer reads it many times a second.
    final class PlayheadReader: Sendable {
        let read: @Sendable () -> Double?
        init(_ read: @escaping @Sendable () -> Double?) { self.read = read }
    }

    private enum Pending {
        case chunk(MediaChunk)
        case end(generation: Int)

        var generation: Int {
            switch self {
            case .chunk(let chunk): return chunk.generation
            case .end(let generation): return generation
            }
        }
    }

    private struct State {
        var source: SourceBox?
        /// The source asked for data since its last repositioning: pushes go through.
        var started = false
        /// The source's first positioning (at start) happened.
        var positioned = false
        var elementName: String?
        var pending: [Pending] = []
        var closed = false
        /// Nothing is pushed until `release()` (see `init(held:)`).
        var held = false
    }

    /// `held`: keep every chunk here until `release()` — a second source whose data must not reach the
    /// decoders before the main source's streams are selected (see `AudioFeedInput`).
    init(held: Bool = false) {
        state.withLock { $0.held = held }
    }

    /// Lets a held feed push (what waited goes first). Idempotent.
    func release() {
        let flush = state.withLock { s -> Bool in
            guard s.held else { return false }
            s.held = false
            return s.started && !s.closed
        }
        if flush { queue.async { [self] in flushPending() } }
    }

    /// What feeds this input (Cove's streaming session, for one).
    var producer: (any MediaFeedProducer)? { links.withLock { $0.producer } }

    /// Links the producer whose chunks this feed pushes, and where the playhead (presentation time) is read.
    func attach(producer: any MediaFeedProducer, playhead: @escaping @Sendable () -> Double?) {
        let reader = PlayheadReader(playhead)
        links.withLock { $0 = (producer, reader) }
    }

    /// playbin3 made its appsrc (on the thread changing state): take it over; with `start` > 0 its first
    /// segment begins there (a pending seek kept by GstBaseSrc until it starts).
    func attach(appsrc: UnsafeMutablePointer<GstElement>, start: Double?) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let generation = producer?.generation ?? 0
        guard let source = cove_appsrc_attach(appsrc, gint(generation), onSourcePositioned, context) else { return }
        let old = state.withLock { s -> SourceBox? in
            defer { s.source = SourceBox(source: source) }
            s.started = false
            s.positioned = false
            s.elementName = cove_object_name(UnsafeMutableRawPointer(appsrc)).map { String(cString: $0) }
            return s.source
        }
        // Detached on the push queue, after any push to it in progress.
        if let old { queue.async { cove_appsrc_detach(old.source) } }
        // The decoder's timeline is the presentation's plus the offset: start there even at 0.
        let at = (start ?? 0) + (producer?.decoderTimeOffset ?? 0)
        if at > 0 { _ = cove_appsrc_start_at(source, Self.nanoseconds(at)) }
    }

    /// The appsrc element's name ("appsrc3"), to recognise its errors.
    var elementName: String? { state.withLock { $0.elementName } }

    /// Seconds as GStreamer nanoseconds, clamped to what a stream can hold (a hostile playlist's durations
    /// must not trap the conversion).
    static func nanoseconds(_ seconds: Double) -> gint64 {
        guard seconds.isFinite else { return 0 }
        return gint64(min(max(seconds, 0), 1e9) * 1_000_000_000)
    }

    /// Replaces the producer whose chunks this feed pushes (an audio rendition switch); the old one stops.
    func replace(producer: any MediaFeedProducer) {
        let old = links.withLock { links -> (any MediaFeedProducer)? in
            defer { links.producer = producer }
            return links.producer
        }
        old?.close()
        state.withLock { $0.pending.removeAll() }
    }

    /// Sends a seek event straight to the appsrc (a second source that playbin3's seek does not reach).
    /// Returns false when there is no source yet.
    @discardableResult
    func send(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        guard let source = state.withLock({ $0.source?.source }) else {
            gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
            return false
        }
        return gst_element_send_event(cove_appsrc_element(source), event) != 0
    }

    /// The decoder-time duration (presentation duration plus the offset), so GStreamer's own queries agree.
    func setDuration(_ seconds: Double?) {
        guard let source = state.withLock({ $0.source?.source }) else { return }
        let offset = producer?.decoderTimeOffset ?? 0
        cove_appsrc_set_duration(source, seconds.map { Self.nanoseconds($0 + offset) } ?? -1)
    }

    /// GStreamer (re)positioned the source (`nanoseconds`, decoder time) — at start, keeping the producer's
    /// generation, or for a flushing seek, restarting the producer at the target — or, with
    /// `UInt64.max`, asked for data. appsrc empties its queue right after a repositioning returns, so
    /// nothing is pushed from then until it asks for data again. Returns the generation buffers must carry.
    fileprivate func sourcePositioned(at nanoseconds: UInt64) -> Int32 {
        if nanoseconds == UInt64.max {
            let release = state.withLock { s -> Bool in
                guard !s.started, !s.closed else { return false }
                s.started = true
                return !s.held
            }
            if release { queue.async { [self] in flushPending() } }
            return Int32(truncatingIfNeeded: producer?.generation ?? 0)
        }
        let (firstStart, closed) = state.withLock { s -> (Bool, Bool) in
            defer {
                s.started = false
                s.positioned = true
            }
            return (!s.positioned, s.closed)
        }
        guard !firstStart, !closed, let producer else { return Int32(truncatingIfNeeded: producer?.generation ?? 0) }
        let target = Double(nanoseconds) / 1_000_000_000 - producer.decoderTimeOffset
        let generation = producer.reposition(to: max(target, 0))
        // Only what an older generation left waiting goes: the restarted producer may already have pushed
        // the target's init segment and first segments (from a local copy, before reposition returned), and
        // dropping those left the demuxer without input and the seek unanswered for good (issue 33: a rate
        // change right after a seek, about 1 run in 10 under load, stuck with no buffer queued).
        state.withLock { $0.pending.removeAll { $0.generation != generation } }
        return Int32(truncatingIfNeeded: generation)
    }

    // MARK: MediaFeedInput

    func push(_ chunk: MediaChunk) {
        queue.async { [self] in deliver(.chunk(chunk)) }
    }

    func pushEndOfStream(generation: Int) {
        queue.async { [self] in deliver(.end(generation: generation)) }
    }

    func playheadPosition() -> Double? { links.withLock { $0.playhead }.read() }

    // MARK: Pushing (the serial queue)

    private func flushPending() {
        let pending = state.withLock { s -> [Pending] in
            defer { s.pending = [] }
            return s.pending
        }
        for item in pending { deliver(item) }
    }

    private func deliver(_ item: Pending) {
        let generation = item.generation
        // A flushing seek in progress refuses buffers (FLUSHING) until it completes: try again shortly,
        // for as long as the chunk still belongs to the current generation.
        for _ in 0..<400 {
            let current = producer?.generation
            let source = state.withLock { s -> SourceBox?? in
                guard !s.closed, current == generation else { return .some(nil) }
                // Waiting chunks go first: a chunk never overtakes them (an init segment must precede its fragments).
                guard s.started, !s.held, s.pending.isEmpty, let source = s.source else {
                    s.pending.append(item)
                    return .none
                }
                return .some(source)
            }
            guard let found = source else { return }
            guard let source = found?.source else { return }
            let result: GstFlowReturn
            switch item {
            case .chunk(let chunk):
                let pts = chunk.kind == .initSegment ? gint64(-1) : Self.nanoseconds(chunk.decoderTime)
                result = chunk.data.withUnsafeBytes { raw in
                    cove_appsrc_push(
                        source, raw.baseAddress?.assumingMemoryBound(to: guint8.self), gsize(raw.count), pts, chunk.discontinuity ? 1 : 0,
                        gint(truncatingIfNeeded: chunk.generation))
                }
            case .end:
                result = cove_appsrc_end_of_stream(source)
            }
            guard result == GST_FLOW_FLUSHING else { return }
            usleep(5_000)
        }
        // Two seconds of a seek that never completes: the chunk is given up (the next seek starts over).
        FileHandle.standardError.write(Data("cove: a segment was dropped: the decoder input stayed flushing for 2 s\n".utf8))
    }

    /// Stops pushing; the appsrc is released (after the pipeline reached NULL).
    func close() {
        producer?.close()
        // The producer holds this feed as its output: let go of it so neither keeps the other alive.
        links.withLock { $0 = (nil, PlayheadReader { nil }) }
        let source = state.withLock { s -> SourceBox? in
            s.closed = true
            s.pending = []
            defer { s.source = nil }
            return s.source
        }
        // Detach on the push queue, after any push in progress.
        if let source { queue.async { cove_appsrc_detach(source.source) } }
    }
}

/// The C glue's handle for the appsrc (used only under the feed's lock or on its push queue).
private struct SourceBox: @unchecked Sendable { let source: OpaquePointer }

private let onSourcePositioned: CoveAppSourceSeek = { context, position in
    guard let context else { return 0 }
    return gint(Unmanaged<AppSourceFeed>.fromOpaque(context).takeUnretainedValue().sourcePositioned(at: UInt64(position)))
}
