import CoveCore
import CoveHLS
import CoveText
import Foundation
import Logging
import Synchronization

/// Loads one subtitle rendition — HLS (`EXT-X-MEDIA:TYPE=SUBTITLES` with a URI: its media playlist, then
/// its segments) or one whole WebVTT file (a DASH text set) —
/// fetching the WebVTT near the playhead, and reports their cues on the presentation timeline — as
/// hls.js's and Shaka's text streams do, so the engine delivers cues without GStreamer's network code.
///
/// - Segments covering [playhead − 1 s, playhead + `lookahead`] are fetched in timeline order, each once.
/// - A segment's `X-TIMESTAMP-MAP=MPEGTS:<ticks>,LOCAL:<time>` puts a cue at local time L at MPEG-TS time
///   `ticks / 90 kHz + (L − LOCAL)`; the `mapper` turns that into presentation time. While the mapper
///   answers nil (no video segment seen yet), the cues wait and are mapped once it answers. Without the
///   header, cue times are presentation times as written.
/// - Every cue is reported once (by start, end and text), however many segments repeat it.
/// - A live playlist is reloaded every target duration while the loader runs.
/// - A segment that fails (HTTP error, not WebVTT) is reported once through `onError` and skipped; it
///   never stops the video.
public final class TextRenditionLoader: Sendable {
    /// Converts MPEG-TS seconds (PTS / 90 kHz) to presentation seconds; nil while not known yet.
    public typealias TimestampMapper = @Sendable (Double) -> Double?

    public let rendition: AlternateRendition
    public let playlistURL: URL
    /// Seconds ahead of the playhead whose segments are fetched.
    public let lookahead: Double
    private let loader: StreamingLoader
    private let mapper: TimestampMapper
    private let onCues: @Sendable ([TextCue]) -> Void
    private let onError: @Sendable (StreamingError) -> Void
    private let logger: Logger
    private let state: Mutex<State>

    /// How often cues waiting for the mapper are tried again while nothing else wakes the loader.
    static let mapperRetry: Duration = .milliseconds(200)

    /// A cue as parsed: on the presentation timeline, or on the MPEG-TS one until the mapper knows it.
    private struct PendingCue: Sendable {
        enum Base: Sendable { case presentation, mpegts }
        var base: Base
        var start: Double
        var end: Double
        let identifier: String?
        let text: String
        let settings: String
    }

    /// What makes two cues the same cue (times to the millisecond: segments repeat a cue exactly).
    private struct CueKey: Hashable {
        let start: Int64
        let end: Int64
        let text: String
    }

    private struct State {
        var running = false
        var generation = 0
        var task: Task<Void, Never>?
        var playhead: Double = 0
        var timeline: MediaTimeline?
        var loadedAt: ContinuousClock.Instant?
        var clock = SequenceClock()
        /// Segments (by media sequence number) fetched or failed: never fetched again.
        var done: Set<Int> = []
        var pending: [PendingCue] = []
        var delivered: Set<CueKey> = []
        /// The loop waits for `update`, `seek` or a timer.
        var waiter: CheckedContinuation<Void, Never>?
        var wakePending = false
        var idle = false
    }

    /// - Parameters:
    ///   - loader: the session's loader (request filters, retries, accounting).
    ///   - rendition: a text rendition with a playlist URL.
    ///   - mapper: MPEG-TS seconds to presentation seconds (`StreamingSession.mpegtsToPresentation`).
    ///   - lookahead: seconds ahead of the playhead to fetch (default 30).
    ///   - onCues: new cues, each once, sorted by start; called from the loader's task.
    ///   - onError: a failure of the playlist or of one segment; playback of the video goes on.
    ///   - logger: where the loader logs (URLs redacted).
    public init(
        loader: StreamingLoader, rendition: AlternateRendition, mapper: @escaping TimestampMapper, lookahead: Double = 30,
        logger: Logger = Logger(label: "cove.streaming.text"),
        onCues: @escaping @Sendable ([TextCue]) -> Void, onError: @escaping @Sendable (StreamingError) -> Void = { _ in }
    ) throws(StreamingError) {
        guard rendition.kind == .text else {
            throw StreamingError(.invalidManifest, "The rendition '\(rendition.name)' is not a subtitle rendition")
        }
        guard let url = rendition.playlistURL else {
            throw StreamingError(
                .unsupportedFeature, "The subtitle rendition '\(rendition.name)' has no playlist of its own (its cues are carried in the media)")
        }
        self.rendition = rendition
        self.playlistURL = url
        self.lookahead = lookahead.isFinite ? max(lookahead, 0) : 30
        self.loader = loader
        self.mapper = mapper
        self.onCues = onCues
        self.onError = onError
        self.logger = logger
        state = Mutex(State())
    }

    // MARK: Commands (any thread)

    /// Starts loading around the current playhead (0 until `update(playhead:)` or `seek(to:)`). Does
    /// nothing when already running.
    public func start() {
        let generation = state.withLock { s -> Int? in
            guard !s.running else { return nil }
            s.running = true
            s.generation += 1
            return s.generation
        }
        if let generation { launch(generation) }
    }

    /// Cancels every request and timer; nothing is requested or reported afterwards. `start()` resumes
    /// (segments already loaded are not loaded again).
    public func stop() {
        let task = state.withLock { s -> Task<Void, Never>? in
            s.running = false
            s.generation += 1
            s.idle = false
            defer { s.task = nil }
            return s.task
        }
        task?.cancel()
        wake()
    }

    /// The playhead moved (playback): segments that came into the window are fetched.
    public func update(playhead: Double) {
        guard playhead.isFinite else { return }
        state.withLock { s in
            s.playhead = playhead
            s.idle = false
        }
        wake()
    }

    /// The playhead jumped: a request for a segment far from `position` is abandoned and the segments
    /// around `position` are fetched first.
    public func seek(to position: Double) {
        guard position.isFinite else { return }
        let (generation, old) = state.withLock { s -> (Int?, Task<Void, Never>?) in
            s.playhead = position
            s.idle = false
            guard s.running else { return (nil, nil) }
            s.generation += 1
            defer { s.task = nil }
            return (s.generation, s.task)
        }
        old?.cancel()
        if let generation { launch(generation) }
    }

    // MARK: Readings

    /// The subtitle playlist's timeline as last loaded (nil before).
    public var timeline: MediaTimeline? { state.withLock { $0.timeline } }

    /// Cues parsed but not reported yet because the mapper does not know their time.
    public var unmappedCueCount: Int { state.withLock { $0.pending.count } }

    /// Nothing to fetch in the current window: the loader waits for the playhead, a reload or the mapper.
    package var isIdle: Bool { state.withLock { $0.idle } }

    // MARK: The loop

    private func launch(_ generation: Int) {
        let task = Task { [self] in await run(generation: generation) }
        let keep = state.withLock { s -> Bool in
            guard s.running, s.generation == generation else { return false }
            s.task = task
            return true
        }
        if !keep { task.cancel() }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.running && $0.generation == generation } && !Task.isCancelled
    }

    private func run(generation: Int) async {
        var playlistFailures = 0
        while isCurrent(generation) {
            if reloadDue() {
                do {
                    try await loadPlaylist(generation: generation)
                    playlistFailures = 0
                } catch {
                    guard error.code != .cancelled, isCurrent(generation) else { return }
                    if playlistFailures == 0 { report(error, generation: generation) }
                    playlistFailures += 1
                    // Try again later (a live playlist at its next reload); a failure streak is reported once.
                    let known = state.withLock { s -> Bool in
                        s.loadedAt = ContinuousClock.now
                        return s.timeline != nil
                    }
                    if !known {
                        await idle(generation: generation, for: .seconds(min(2 << min(playlistFailures, 4), 30)))
                        continue
                    }
                }
            }
            guard isCurrent(generation) else { return }
            deliverPending(generation: generation)
            if let segment = nextSegment() {
                await fetch(segment, generation: generation)
                continue
            }
            await idle(generation: generation, for: nextTimer())
        }
    }

    /// No timeline yet, or a live one a target duration old.
    private func reloadDue() -> Bool {
        state.withLock { s -> Bool in
            guard let timeline = s.timeline, let loadedAt = s.loadedAt else { return true }
            return timeline.isLive && ContinuousClock.now - loadedAt >= .milliseconds(Int(timeline.targetDuration * 1000))
        }
    }

    /// When the loop must wake by itself: the next live reload, or a retry of cues waiting for the mapper.
    private func nextTimer() -> Duration? {
        state.withLock { s -> Duration? in
            var timer: Duration?
            if let timeline = s.timeline, timeline.isLive, let loadedAt = s.loadedAt {
                let due = loadedAt + .milliseconds(Int(timeline.targetDuration * 1000))
                timer = max(due - ContinuousClock.now, .milliseconds(1))
            }
            if !s.pending.isEmpty { timer = min(timer ?? Self.mapperRetry, Self.mapperRetry) }
            return timer
        }
    }

    private func loadPlaylist(generation: Int) async throws(StreamingError) {
        if case .wholeFile(let duration) = rendition.selection {
            // One WebVTT file for the whole presentation (DASH sidecar text): one segment, cue times as written.
            let timeline = MediaTimeline(
                segments: [SegmentReference(sequence: 0, start: 0, duration: max(duration, 0), url: playlistURL)], targetDuration: max(duration, 1),
                isLive: false)
            state.withLock { s in
                guard s.running, s.generation == generation else { return }
                s.timeline = timeline
                s.loadedAt = ContinuousClock.now
            }
            return
        }
        let loaded = try await loader.load(.manifest, url: playlistURL, maxBytes: 8 << 20)
        try MediaSniffer.checkPlaylist(loaded.body, contentType: loaded.contentType, url: loaded.url)
        let playlist = try HLSPresentationReader.readMediaPlaylist(loaded.body, url: loaded.url)
        state.withLock { s in
            guard s.running, s.generation == generation else { return }
            let timeline = HLSPresentationReader.timeline(from: playlist, url: loaded.url, clock: &s.clock)
            s.timeline = timeline
            s.loadedAt = ContinuousClock.now
            // Segments that left a live window are never fetched again: forget them.
            if let first = timeline.segments.first?.sequence { s.done = s.done.filter { $0 >= first } }
        }
    }

    /// The first segment in the window not loaded yet.
    private func nextSegment() -> SegmentReference? {
        state.withLock { s -> SegmentReference? in
            guard let timeline = s.timeline else { return nil }
            let low = s.playhead - 1
            let high = s.playhead + lookahead
            guard let from = timeline.index(containing: low) else { return nil }
            for segment in timeline.segments[from...] {
                if segment.start >= high { break }
                if segment.end <= low || segment.isGap || s.done.contains(segment.sequence) { continue }
                s.done.insert(segment.sequence)
                return segment
            }
            return nil
        }
    }

    private func fetch(_ segment: SegmentReference, generation: Int) async {
        do {
            let loaded = try await loader.load(.text, url: segment.url, byteRange: segment.byteRange, maxBytes: 4 << 20)
            let cues = try Self.cues(from: loaded.body, contentType: loaded.contentType, url: loaded.url)
            state.withLock { $0.pending += cues }
            logger.debug("subtitle segment loaded", metadata: ["sequence": "\(segment.sequence)", "cues": "\(cues.count)"])
            deliverPending(generation: generation)
        } catch {
            if error.code == .cancelled || !isCurrent(generation) {
                // A seek or stop abandoned it: it may be wanted again.
                state.withLock { _ = $0.done.remove(segment.sequence) }
                return
            }
            logger.debug("subtitle segment skipped", metadata: ["sequence": "\(segment.sequence)", "error": "\(error)"])
            report(error, generation: generation)
        }
    }

    private func report(_ error: StreamingError, generation: Int) {
        guard error.code != .cancelled, isCurrent(generation) else { return }
        onError(error)
    }

    /// Maps what it can, reports cues not reported before, keeps the rest for later.
    private func deliverPending(generation: Int) {
        let taken = state.withLock { s -> [PendingCue] in
            defer { s.pending.removeAll() }
            return s.pending
        }
        guard !taken.isEmpty else { return }
        var mapped: [PendingCue] = []
        var waiting: [PendingCue] = []
        for var cue in taken {
            if cue.base == .mpegts {
                // The end moves with the start, so a mapping across the 33-bit wrap keeps the duration.
                guard let start = mapper(cue.start), start.isFinite else {
                    waiting.append(cue)
                    continue
                }
                cue.end = start + (cue.end - cue.start)
                cue.start = start
                cue.base = .presentation
            }
            mapped.append(cue)
        }
        let fresh = state.withLock { s -> [TextCue] in
            guard s.running, s.generation == generation else {
                s.pending += mapped + waiting
                return []
            }
            s.pending += waiting
            var fresh: [TextCue] = []
            for cue in mapped {
                let start = MediaTime(seconds: cue.start)
                let end = MediaTime(seconds: max(cue.end, cue.start))
                let key = CueKey(start: Self.milliseconds(cue.start), end: Self.milliseconds(cue.end), text: cue.text)
                guard s.delivered.insert(key).inserted else { continue }
                fresh.append(TextCue(identifier: cue.identifier, start: start, end: end, text: cue.text, settings: cue.settings))
            }
            return fresh
        }
        guard !fresh.isEmpty else { return }
        onCues(fresh.sorted { ($0.start, $0.end) < ($1.start, $1.end) })
    }

    private static func milliseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1000).rounded()
        return value.isFinite ? Int64(max(min(value, 9e15), -9e15)) : 0
    }

    /// A TTML document: XML whose first element (within the first 4 kB) is `tt` (any prefix).
    static func looksLikeTTML(_ body: Data) -> Bool {
        let window = String(decoding: body.prefix(4096), as: UTF8.self)
        return window.contains("<tt ") || window.contains("<tt>") || window.range(of: #"<[A-Za-z0-9_]+:tt[ >]"#, options: .regularExpression) != nil
    }

    /// Parses one WebVTT segment (or a whole TTML file) into cues on the presentation or the MPEG-TS timeline.
    private static func cues(from body: Data, contentType: String?, url: URL) throws(StreamingError) -> [PendingCue] {
        if MediaSniffer.segmentFormat(body) == .isoBMFF {
            throw StreamingError(
                .unsupportedFeature, "The subtitle segment is WebVTT or IMSC in fMP4, which Cove's streaming engine does not read yet", url: url)
        }
        let head = MediaSniffer.significantHead(body)
        if head.first == UInt8(ascii: "<"), Self.looksLikeTTML(body) {
            let cues: [TTML.Cue]
            do {
                cues = try TTML.parse([UInt8](body))
            } catch {
                throw StreamingError(.notMedia, "The subtitle file is not valid TTML: \(error)", url: url)
            }
            return cues.map { PendingCue(base: .presentation, start: $0.start, end: $0.end, identifier: $0.identifier, text: $0.text, settings: "") }
        }
        guard head.starts(with: Array("WEBVTT".utf8)) else {
            throw StreamingError(
                .notMedia,
                "Expected a WebVTT subtitle segment but the server sent \(MediaSniffer.describe(head, contentType: contentType)); the segment is skipped",
                url: url)
        }
        let document: WebVTTDocument
        do {
            document = try WebVTT.parse([UInt8](body))
        } catch {
            throw StreamingError(.notMedia, "The subtitle segment is not valid WebVTT: \(error)", url: url)
        }
        let map = document.timestampMap
        return document.cues.map { cue in
            PendingCue(
                base: map == nil ? .presentation : .mpegts,
                start: cue.startSeconds + (map?.presentationOffset ?? 0), end: cue.endSeconds + (map?.presentationOffset ?? 0),
                identifier: cue.identifier, text: cue.text, settings: cue.settings.raw
            )
        }
    }

    // MARK: Waiting

    /// Waits for `update`, `seek`, `stop`, cancellation or `timeout`.
    private func idle(generation: Int, for timeout: Duration?) async {
        let ready = state.withLock { s -> Bool in
            guard s.running, s.generation == generation else { return false }
            if s.wakePending {
                s.wakePending = false
                return false
            }
            s.idle = true
            return true
        }
        guard ready else { return }
        let timer = timeout.map { timeout in
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { self?.wake() }
            }
        }
        defer { timer?.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (resumeNow, stale) = state.withLock { s -> (Bool, CheckedContinuation<Void, Never>?) in
                    if s.wakePending || Task.isCancelled || !(s.running && s.generation == generation) {
                        s.wakePending = false
                        return (true, nil)
                    }
                    defer { s.waiter = continuation }
                    return (false, s.waiter)
                }
                stale?.resume()
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            wake()
        }
        state.withLock { $0.idle = false }
    }

    private func wake() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let waiter = s.waiter else {
                s.wakePending = true
                return nil
            }
            s.waiter = nil
            return waiter
        }
        waiter?.resume()
    }
}
