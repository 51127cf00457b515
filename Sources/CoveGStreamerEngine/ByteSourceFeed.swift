import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// A media file's input (`ByteFeedInput`): playbin3's `appsrc://` in BYTES format, the way `souphttpsrc`
/// would serve it — seekable, its size known — but with every byte fetched by Cove's progressive loader.
///
/// The demuxer (qtdemux, after typefind) reads from the start, seeks to the index or the sample a seek
/// needs by sending a byte seek upstream; appsrc turns each into `seek-data(offset)`, which restarts the
/// producer there with a new generation (`ByteFeedProducer.reposition(toByte:)`). appsrc empties its
/// queue right after `seek-data` returns, so bytes wait here until it asks for data again; bytes of an
/// older generation are dropped here and, if already queued, by the C probe.
///
/// Pushes run on one serial queue, in order, never on the producer's tasks or GStreamer's threads.
final class ByteSourceFeed: ByteFeedInput, @unchecked Sendable {
    private let queue = DispatchQueue(label: "cove-bytes-push")
    private let state = Mutex(State())
    private let link = Mutex<(any ByteFeedProducer)?>(nil)

    private enum Pending {
        case bytes(Data, offset: Int64, generation: Int)
        case end(generation: Int)

        var generation: Int {
            switch self {
            case .bytes(_, _, let generation), .end(let generation): return generation
            }
        }
    }

    private struct State {
        var source: ByteSourceBox?
        /// The source asked for data since its last repositioning: pushes go through.
        var started = false
        /// The source's first positioning (at its start) happened.
        var positioned = false
        var pending: [Pending] = []
        var closed = false
        var size: Int64?
        /// The file's first bytes were looked at for its type (once per appsrc).
        var typed = false
    }

    var producer: (any ByteFeedProducer)? { link.withLock { $0 } }

    func attach(producer: any ByteFeedProducer) {
        link.withLock { $0 = producer }
    }

    /// The file's length, whenever it becomes known: applied to the appsrc now if it exists, else when
    /// it is made. Set under the lock, so an attach and a size racing each other leave the latest size.
    func setSize(_ size: Int64?) {
        state.withLock { s in
            s.size = size
            if let source = s.source { cove_appsrc_set_size(source.source, gint64(size ?? -1)) }
        }
    }

    /// playbin3 made its appsrc: take it over in BYTES format.
    func attach(appsrc: UnsafeMutablePointer<GstElement>) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let generation = producer?.generation ?? 0
        guard let source = cove_appsrc_attach_bytes(appsrc, gint(truncatingIfNeeded: generation), -1, onBytesPositioned, context) else { return }
        let old = state.withLock { s -> ByteSourceBox? in
            defer {
                s.source = ByteSourceBox(source: source)
                s.started = false
                s.positioned = false
                s.typed = false
                cove_appsrc_set_size(source, gint64(s.size ?? -1))
            }
            return s.source
        }
        if let old { queue.async { cove_appsrc_detach(old.source) } }
    }

    // MARK: ByteFeedInput

    func push(_ bytes: Data, at offset: Int64, generation: Int) {
        queue.async { [self] in deliver(.bytes(bytes, offset: offset, generation: generation)) }
    }

    func pushEndOfStream(generation: Int) {
        queue.async { [self] in deliver(.end(generation: generation)) }
    }

    /// Read under the lock: `close()` takes the source out under it before its release is queued, so the
    /// appsrc read here is never one being freed (the level read takes only appsrc's own lock).
    var queuedBytes: Int {
        state.withLock { s in
            let pending = s.pending.reduce(0) { total, item in
                if case .bytes(let data, _, _) = item { return total + data.count }
                return total
            }
            return pending + (s.source.map { Int(cove_appsrc_queued_bytes($0.source)) } ?? 0)
        }
    }

    // MARK: Repositioning (GStreamer's threads)

    /// `offset` UInt64.max: the source asks for data (what waited goes now). Otherwise a repositioning:
    /// the producer restarts there; appsrc flushes its queue when this returns, so nothing is pushed
    /// until it asks for data again. Returns the generation buffers must carry.
    fileprivate func sourcePositioned(at offset: UInt64) -> Int32 {
        if offset == UInt64.max {
            let release = state.withLock { s -> Bool in
                guard !s.started, !s.closed else { return false }
                s.started = true
                return true
            }
            if release { queue.async { [self] in flushPending() } }
            return Int32(truncatingIfNeeded: producer?.generation ?? 0)
        }
        let (closed, keep) = state.withLock { s -> (Bool, Bool) in
            s.started = false
            // The start's positioning at the file's first byte: what the producer already fetched from
            // there (waiting here) is what the demuxer wants.
            let keep = !s.positioned && offset == 0
            s.positioned = true
            if !keep { s.pending.removeAll() }
            return (s.closed, keep)
        }
        guard !closed, !keep, let producer else { return Int32(truncatingIfNeeded: producer?.generation ?? 0) }
        return Int32(truncatingIfNeeded: producer.reposition(toByte: Int64(clamping: offset)))
    }

    // MARK: Pushing (the serial queue)

    private func flushPending() {
        let pending = state.withLock { s -> [Pending] in
            defer { s.pending = [] }
            return s.pending
        }
        for item in pending { deliver(item) }
    }

    private func deliver(_ item: Pending) {
        // A flushing seek in progress refuses buffers (FLUSHING) until it completes: try again shortly,
        // for as long as the bytes still belong to the current generation.
        for _ in 0..<400 {
            let current = producer?.generation
            let found = state.withLock { s -> ByteSourceBox?? in
                guard !s.closed, current == item.generation else { return .some(nil) }
                guard s.started, s.pending.isEmpty, let source = s.source else {
                    s.pending.append(item)
                    return .none
                }
                return .some(source)
            }
            guard let found else { return }
            guard let source = found?.source else { return }
            let result: GstFlowReturn
            switch item {
            case .bytes(let data, let offset, let generation):
                if offset == 0, let caps = takeFirstLook(at: data) { cove_appsrc_set_caps_string(source, caps) }
                result = data.withUnsafeBytes { raw in
                    cove_appsrc_push_bytes(
                        source, raw.baseAddress?.assumingMemoryBound(to: guint8.self), gsize(raw.count), guint64(max(offset, 0)),
                        gint(truncatingIfNeeded: generation))
                }
            case .end:
                result = cove_appsrc_end_of_stream(source)
            }
            guard result == GST_FLOW_FLUSHING else { return }
            usleep(5_000)
        }
        FileHandle.standardError.write(Data("cove: file bytes were dropped: the demuxer input stayed flushing for 2 s\n".utf8))
    }

    /// The file's type from its first bytes, once per appsrc: an ISO media file (`ftyp` first, as MP4, M4A and
    /// MOV renditions start) is announced as `video/quicktime`, so parsebin's typefinder takes it from the
    /// caps instead of running every typefinder over the data (startup time). Anything else is left to
    /// the typefinder.
    private func takeFirstLook(at data: Data) -> String? {
        let first = state.withLock { s -> Bool in
            defer { s.typed = true }
            return !s.typed
        }
        guard first, data.count >= 12 else { return nil }
        let start = data.startIndex
        return data[start + 4..<start + 8].elementsEqual("ftyp".utf8) ? "video/quicktime" : nil
    }

    /// Stops pushing; the appsrc is released on the push queue.
    func close() {
        let producer = link.withLock { p -> (any ByteFeedProducer)? in
            defer { p = nil }
            return p
        }
        producer?.close()
        let source = state.withLock { s -> ByteSourceBox? in
            s.closed = true
            s.pending = []
            defer { s.source = nil }
            return s.source
        }
        if let source { queue.async { cove_appsrc_detach(source.source) } }
    }
}

private struct ByteSourceBox: @unchecked Sendable { let source: OpaquePointer }

private let onBytesPositioned: CoveAppSourceSeek = { context, offset in
    guard let context else { return 0 }
    return gint(Unmanaged<ByteSourceFeed>.fromOpaque(context).takeUnretainedValue().sourcePositioned(at: UInt64(offset)))
}
