import CoveCore
import CoveDASH
import CoveHLS
import Foundation
import Logging
import Synchronization

/// Plays one HLS or DASH presentation into a `StreamingOutput`: loads the manifests, picks each segment's
/// variant, fetches segments ahead of the playhead up to the forward buffer, and starts over at a seek.
///
/// One task fetches at a time (as hls.js and Shaka do per stream). A seek bumps the generation at
/// once — synchronously, from whatever thread asks — cancels the task and starts a new one at the
/// target; everything the old task still pushes carries the old generation and is dropped by the output.
public final class StreamingSession: MediaFeedProducer, Sendable {
    public let url: URL
    /// Which part of the manifest this session plays (a DASH audio set for an audio rendition's session).
    public let selection: ManifestSelection
    /// Which stream this session's segments feed (their records say so).
    public let stream: MediaTransfer.Stream
    private let configuration: StreamingConfiguration
    private let loader: StreamingLoader
    private let keys: KeyCache
    private let output: any StreamingOutput
    private let onEvent: @Sendable (StreamingEvent) -> Void
    private let logger: Logger
    private let state: Mutex<State>
    /// Body bytes of every request so far (the loader's records add to it).
    private let bytesTally = SharedCounter()

    private struct State {
        var closed = false
        var generation = 0
        var task: Task<Void, Never>?
        var presentation: Presentation?
        var timelines: [Int: (timeline: MediaTimeline, loadedAt: ContinuousClock.Instant)] = [:]
        var clock = SequenceClock()
        var estimator: ThroughputEstimator
        var maxBitrate: Int?
        var forwardBuffer: Duration?
        /// The variant the last pushed segment came from (nil before the first and after a seek).
        var currentVariant: Int?
        /// The variant whose init segment the decoder has (with its URL).
        var initPushed: (variant: Int, section: InitSection)?
        /// End of the media pushed in this generation (seconds on the timeline).
        var pushedEnd: Double?
        /// Where this generation started (the playhead until the engine reports one).
        var generationStart: Double = 0
        var pushedSomething = false
        /// Variants whose segment failed after its retries, and when (left out for a while: failover).
        var excludedVariants: [Int: ContinuousClock.Instant] = [:]
        /// Anything was pushed, in any generation: later failures are mid-playback.
        var everPushed = false
        /// The discontinuity sequence of the last pushed segment: a change means timestamps restart.
        var lastDiscontinuity: Int?
        var ended = false
        var reportedVariant: Int?
        /// fMP4 track timescales from each variant's init segment.
        var timescales: [Int: [UInt32: UInt32]] = [:]
        /// Per discontinuity sequence: the earliest PTS (seconds) of its first TS segment and that segment's start.
        var mpegtsAnchors: [Int: (pts: Double, start: Double)] = [:]
        /// A DASH presentation's manifest, as laid out for this session's selection, and when it was loaded.
        var dash: (layout: DASHLayout, loadedAt: ContinuousClock.Instant)?
        /// `sidx` boxes read for indexed `SegmentBase` representations: variant → period → index.
        var segmentIndexes: [Int: [Int: SegmentIndexBox.Index]] = [:]
    }

    /// - Parameters:
    ///   - url: the presentation's manifest (an HLS playlist or a DASH MPD).
    ///   - selection: which of its streams this session plays (the main stream, or a rendition).
    ///   - transport: the HTTP client every request goes through (after the request filters).
    ///   - configuration: retries, ABR, buffering and request filters.
    ///   - output: where demuxable bytes go (the engine's `appsrc` feed).
    ///   - logger: where the session logs (URLs redacted).
    ///   - firstGeneration: the flush generation to start at (a rebuilt pipeline continues the count).
    ///   - origin: the presentation this session's playlist belongs to (an audio rendition's master),
    ///     whose scheme says whether local files may be read (default: `url` itself).
    ///   - stream: which stream its segments feed, for their records (default: from `selection`; an HLS
    ///     audio rendition's session, whose selection is `.main` of its own playlist, says `.audio`).
    ///   - onEvent: what the session reports (variant switches, transfers, failures), from its own task.
    public init(
        url: URL, selection: ManifestSelection = .main, transport: any HTTPTransport, configuration: StreamingConfiguration = StreamingConfiguration(),
        output: any StreamingOutput, logger: Logger = Logger(label: "cove.streaming"), firstGeneration: Int = 0, origin: URL? = nil,
        stream: MediaTransfer.Stream? = nil, onEvent: @escaping @Sendable (StreamingEvent) -> Void
    ) {
        self.url = url
        switch selection {
        case .main: self.stream = stream ?? .main
        case .dashAudio: self.stream = stream ?? .audio
        case .wholeFile: self.stream = stream ?? .text
        }
        self.selection = selection
        self.logger = logger
        self.configuration = configuration
        self.output = output
        self.onEvent = onEvent
        var initial = State(estimator: ThroughputEstimator(configuration.throughput))
        // Sessions that feed the same decoder input one after another (a rendition switch) number their
        // generations apart, so nothing of the old one can pass for the new one's.
        initial.generation = firstGeneration
        state = Mutex(initial)
        let tally = bytesTally
        self.loader = StreamingLoader(
            transport: transport, filters: configuration.requestFilters, retry: configuration.retryPolicy, timeout: configuration.requestTimeout,
            clock: configuration.transferClock,
            origin: origin ?? url, stream: self.stream,
            onRecord: { record in
                tally.withLock { $0 += record.bytes }
                onEvent(.request(record))
            }
        )
        keys = KeyCache(loader: loader, logger: logger)
    }

    // MARK: Commands (any thread)

    /// Starts fetching from `position` (nil: the start of a VOD, the live edge of a live stream); returns
    /// the generation its chunks carry.
    @discardableResult
    public func start(at position: Double?) -> Int {
        restart(at: position)
    }

    /// Starts over at `position` (a seek): the generation moves on at once; returns the new one.
    @discardableResult
    public func seek(to position: Double) -> Int {
        restart(at: position)
    }

    /// The engine's input was flushed to `position`: the session starts over there (see `seek(to:)`).
    public func reposition(to position: Double) -> Int {
        restart(at: position)
    }

    @discardableResult
    private func restart(at position: Double?) -> Int {
        let (generation, old) = state.withLock { s -> (Int, Task<Void, Never>?) in
            s.generation += 1
            s.pushedEnd = nil
            s.pushedSomething = false
            s.ended = false
            s.currentVariant = nil
            s.initPushed = nil
            s.lastDiscontinuity = nil
            s.generationStart = position ?? s.generationStart
            defer { s.task = nil }
            return (s.generation, s.closed ? nil : s.task)
        }
        old?.cancel()
        let task = Task { [self] in await run(generation: generation, from: position) }
        let keep = state.withLock { s -> Bool in
            guard !s.closed, s.generation == generation else { return false }
            s.task = task
            return true
        }
        if !keep { task.cancel() }
        return generation
    }

    public func setMaxBitrate(_ bitsPerSecond: Int?) {
        state.withLock { $0.maxBitrate = bitsPerSecond.flatMap { $0 > 0 ? $0 : nil } }
    }

    public func setForwardBuffer(_ duration: Duration?) {
        state.withLock { $0.forwardBuffer = duration }
    }

    /// Stops every download; nothing is pushed afterwards.
    public func close() {
        let task = state.withLock { s -> Task<Void, Never>? in
            s.closed = true
            s.generation += 1
            defer { s.task = nil }
            return s.task
        }
        task?.cancel()
    }

    // MARK: Readings

    /// Seconds of media pushed ahead of the playhead (nil before anything was pushed).
    public var bufferedAhead: Double? {
        let (end, start) = state.withLock { ($0.pushedEnd, $0.generationStart) }
        guard let end else { return nil }
        return max(end - (output.playheadPosition() ?? start), 0)
    }

    /// Where the media pushed in this generation ends (presentation seconds; nil before anything was pushed).
    public var pushedEnd: Double? { state.withLock { $0.pushedEnd } }

    /// Everything up to the end has been pushed.
    public var hasPushedEnd: Bool { state.withLock { $0.ended } }

    public var bandwidthEstimate: Int? {
        state.withLock { $0.estimator.hasEstimate ? $0.estimator.estimate : nil }
    }

    public var bytesLoaded: Int { bytesTally.withLock { $0 } }

    /// The generation chunks must carry now (it moves on with every start and seek).
    public var generation: Int { state.withLock { $0.generation } }

    /// A loader for one of the presentation's subtitle renditions, sharing this session's requests
    /// (filters, retries, accounting) and placing cues with its MPEG-TS clock.
    public func makeTextRenditionLoader(
        for rendition: AlternateRendition, onCues: @escaping @Sendable ([TextCue]) -> Void, onError: @escaping @Sendable (StreamingError) -> Void
    ) throws(StreamingError) -> TextRenditionLoader {
        try TextRenditionLoader(
            loader: loader, rendition: rendition, mapper: { [weak self] in self?.mpegtsToPresentation($0) }, logger: logger, onCues: onCues, onError: onError)
    }

    /// Decoder time minus presentation time (see `StreamingConfiguration.decoderTimeOffset`).
    public var decoderTimeOffset: Double { configuration.decoderTimeOffset }

    public var presentation: Presentation? { state.withLock { $0.presentation } }

    /// The variant the latest pushed segment came from.
    public var playingVariant: VariantTrack? {
        state.withLock { s in s.reportedVariant.flatMap { index in s.presentation?.variants.first { $0.index == index } } }
    }

    /// The presentation time of an MPEG-TS timestamp (`seconds` = PTS / 90 kHz), e.g. a WebVTT segment's
    /// `X-TIMESTAMP-MAP`: anchored on the first TS segment pushed in each discontinuity sequence (the
    /// anchor nearest in PTS wins), across the 33-bit wrap. nil until a TS segment was pushed.
    public func mpegtsToPresentation(_ seconds: Double) -> Double? {
        guard seconds.isFinite else { return nil }
        let wrap = Double(UInt64(1) << 33) / 90_000
        let anchors = state.withLock { $0.mpegtsAnchors }.sorted { $0.key > $1.key }.map(\.value)
        let placed = anchors.map { anchor -> (delta: Double, start: Double) in
            var delta = (seconds - anchor.pts).truncatingRemainder(dividingBy: wrap)
            if delta > wrap / 2 { delta -= wrap } else if delta <= -wrap / 2 { delta += wrap }
            return (delta, anchor.start)
        }
        return placed.min { abs($0.delta) < abs($1.delta) }.map { $0.start + $0.delta }
    }

    /// The window the playhead may move in: the whole VOD, or the live playlist's segments up to the live edge.
    public var seekableRange: ClosedRange<Double>? {
        state.withLock { s -> ClosedRange<Double>? in
            guard let timeline = Self.reportingTimeline(s), !timeline.segments.isEmpty else { return nil }
            return timeline.start...(timeline.isLive ? timeline.liveEdge : timeline.end)
        }
    }

    /// The presentation's duration; nil while unknown and for live streams.
    public var duration: Double? {
        state.withLock { s -> Double? in
            guard let timeline = Self.reportingTimeline(s), !timeline.isLive, !timeline.segments.isEmpty else { return nil }
            return timeline.end
        }
    }

    /// True once the presentation is known to be live (its playlist has no end).
    public var isLive: Bool? { state.withLock { Self.reportingTimeline($0)?.isLive } }

    /// The timeline of the variant playing (or of any loaded one before that).
    private static func reportingTimeline(_ s: State) -> MediaTimeline? {
        (s.currentVariant ?? s.reportedVariant).flatMap { s.timelines[$0]?.timeline } ?? s.timelines.values.first?.timeline
    }

    // MARK: The fetch loop

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { !$0.closed && $0.generation == generation } && !Task.isCancelled
    }

    private func run(generation: Int, from position: Double?) async {
        do {
            let presentation = try await loadPresentation()
            guard isCurrent(generation) else { return }
            let startVariant = chooseVariant(presentation, bufferAhead: 0, segmentDuration: nil)
            var timeline = try await loadTimeline(for: startVariant, in: presentation)
            guard isCurrent(generation) else { return }
            try checkSupported(presentation, timeline)
            let startTime = position ?? defaultStart(timeline, presentation: presentation)
            state.withLock { s in if s.generation == generation { s.generationStart = startTime } }
            onEvent(.starting(at: startTime, generation: generation))
            guard var sequence = timeline.index(containing: startTime).map({ timeline.segments[$0].sequence }) else {
                throw StreamingError(.invalidManifest, "The playlist has no segments", url: presentation.variants[startVariant].playlistURL)
            }
            var variant = startVariant
            // The variant a slow download was abandoned for, and where that segment starts: the same
            // media comes from it next (found by time: variants need not number their segments alike).
            var replacement: (variant: Int, start: Double)?
            while isCurrent(generation) {
                if try await waitForRoom(generation: generation, segmentDuration: timeline.targetDuration, presentation: presentation) == false { return }
                variant = replacement?.variant ?? chooseVariant(presentation, bufferAhead: bufferedAhead ?? 0, segmentDuration: timeline.targetDuration)
                timeline = try await loadTimeline(for: variant, in: presentation)
                if let start = replacement?.start, let index = timeline.index(containing: start) {
                    sequence = timeline.segments[index].sequence
                }
                replacement = nil
                guard isCurrent(generation) else { return }
                guard let first = timeline.segments.first, let last = timeline.segments.last else {
                    // A live playlist may be empty for a moment; a VOD one never plays.
                    guard timeline.isLive else {
                        throw StreamingError(.invalidManifest, "The variant's playlist lists no segments", url: presentation.variants[variant].playlistURL)
                    }
                    try await Task.sleep(for: .milliseconds(Int(timeline.targetDuration * 500)))
                    continue
                }
                if sequence > last.sequence {
                    if timeline.isLive {
                        // At the live edge: wait for the playlist to grow.
                        try await Task.sleep(for: .milliseconds(Int(timeline.targetDuration * 500)))
                        continue
                    }
                    output.pushEndOfStream(generation: generation)
                    state.withLock { s in if s.generation == generation { s.ended = true } }
                    return
                }
                if sequence < first.sequence {
                    // The live window slid past us (a long stall or pause): carry on from its start.
                    sequence = first.sequence
                }
                guard let index = timeline.index(ofSequence: sequence) else {
                    sequence += 1
                    continue
                }
                let segment = timeline.segments[index]
                sequence &+= 1
                if segment.isGap { continue }
                do {
                    if case .abandoned(let lower) = try await fetchAndPush(segment, variant: variant, presentation: presentation, generation: generation) {
                        replacement = (lower, segment.start)
                        sequence &-= 1
                    }
                } catch {
                    guard error.code != .cancelled, failOver(from: variant, in: presentation, after: error) else { throw error }
                    // The same segment again, from another variant.
                    sequence &-= 1
                }
            }
        } catch let error as StreamingError {
            logger.debug("streaming stopped", metadata: ["generation": "\(generation)", "error": "\(error)"])
            report(error, generation: generation)
        } catch {
            logger.trace("streaming cancelled", metadata: ["generation": "\(generation)"])
            // Task.sleep's CancellationError: a seek or teardown.
        }
    }

    /// A variant whose segment failed after its retries is left out for `failoverExclusion` (Shaka's
    /// failover): true when another variant within the app's cap can serve the segment instead.
    private func failOver(from variant: Int, in presentation: Presentation, after error: StreamingError) -> Bool {
        guard error.code == .network || error.code == .httpStatus else { return false }
        let (excluded, cap) = state.withLock { s -> ([Int: ContinuousClock.Instant], Int?) in
            s.excludedVariants[variant] = ContinuousClock.now
            return (s.excludedVariants, s.maxBitrate)
        }
        let other = Self.fresh(presentation.variants, excluded: excluded).contains { candidate in cap.map { candidate.bandwidth <= $0 } ?? true }
        if other { logger.notice("variant failed; trying another", metadata: ["variant": "\(variant)", "error": "\(error)"]) }
        return other
    }

    /// How long a failed variant is left out.
    private static let failoverExclusion: Duration = .seconds(30)

    /// The variants that have not failed recently.
    private static func fresh(_ variants: [VariantTrack], excluded: [Int: ContinuousClock.Instant]) -> [VariantTrack] {
        let now = ContinuousClock.now
        return variants.filter { variant in
            guard let failed = excluded[variant.index] else { return true }
            return now - failed >= failoverExclusion
        }
    }

    private func report(_ error: StreamingError, generation: Int) {
        guard error.code != .cancelled, isCurrent(generation) else { return }
        let pushed = state.withLock { $0.everPushed }
        onEvent(pushed ? .downloadFailed(error) : .failed(error))
    }

    /// What this engine cannot play yet fails before anything starts, so the engine can hand the URL on.
    private func checkSupported(_ presentation: Presentation, _ timeline: MediaTimeline) throws(StreamingError) {
        if let key = timeline.segments.lazy.compactMap(\.key).first(where: { !SegmentDecryptor.canDecrypt($0) }) {
            throw StreamingError.drmUnsupported(key, url: presentation.manifestURL)
        }
    }

    /// Where playback starts without a position: EXT-X-START, else the start of a VOD or the live edge.
    private func defaultStart(_ timeline: MediaTimeline, presentation: Presentation) -> Double {
        if let offset = presentation.startOffset {
            let time = offset >= 0 ? timeline.start + offset : timeline.end + offset
            return min(max(time, timeline.start), timeline.isLive ? timeline.liveEdge : timeline.end)
        }
        return timeline.isLive && !timeline.isEvent ? timeline.liveEdge : timeline.start
    }

    /// Waits while the forward buffer is full. False when the generation is over.
    ///
    /// The target is the app's (the buffer optimizer's), raised — at the measured rate — to two
    /// downloads of the next segment at the variant playing (a segment that arrives late is covered)
    /// and to what lets the best variant the estimate affords pass ABR's arrival check (long segments
    /// do not hold quality down). A small optimizer target stays small on a fast link, where both are
    /// milliseconds.
    private func waitForRoom(generation: Int, segmentDuration: Double, presentation: Presentation) async throws -> Bool {
        while isCurrent(generation) {
            let (target, floor) = state.withLock { s -> (Duration, Double) in
                let target = s.forwardBuffer ?? configuration.defaultForwardBuffer
                guard s.estimator.hasEstimate, let playing = s.currentVariant.flatMap({ index in presentation.variants.first { $0.index == index } }) else {
                    return (target, 0)
                }
                let estimate = s.estimator.estimate
                let fresh = Self.fresh(presentation.variants, excluded: s.excludedVariants)
                return (
                    target,
                    max(
                        2 * ABRPolicy.fetchSeconds(bandwidth: playing.bandwidth, segmentDuration: segmentDuration, estimate: estimate),
                        configuration.abr.bufferToAfford(variants: fresh, estimate: estimate, segmentDuration: segmentDuration, cap: s.maxBitrate)
                    )
                )
            }
            let targetSeconds = max(MediaTime(target).seconds, min(floor, MediaTime(configuration.defaultForwardBuffer).seconds))
            guard let ahead = bufferedAhead, ahead >= targetSeconds else { return true }
            logger.trace("forward buffer full", metadata: ["ahead": "\(ahead)", "playhead": "\(output.playheadPosition().map { "\($0)" } ?? "unknown")"])
            // Wake when the playhead should have used the surplus (bounded, so rate changes and
            // forward-buffer changes are seen soon).
            try await Task.sleep(for: .milliseconds(Int(min(max(ahead - targetSeconds, 0.05), 0.5) * 1000)))
        }
        return false
    }

    /// `segmentDuration` nil: not known yet (the first playlist is not loaded), the loaded one's or 6 s.
    private func chooseVariant(_ presentation: Presentation, bufferAhead: Double, segmentDuration: Double?) -> Int {
        state.withLock { s -> Int in
            // Recently failed variants are left out (all of them failing: back to the whole ladder).
            let fresh = Self.fresh(presentation.variants, excluded: s.excludedVariants)
            let candidates = fresh.isEmpty ? presentation.variants : fresh
            if !s.estimator.hasEstimate && s.currentVariant == nil {
                // Nothing measured yet: the start policy's variant, if the cap allows it.
                let first = configuration.startsOnLowestVariant ? candidates.min { ($0.bandwidth, $0.index) < ($1.bandwidth, $1.index) } : candidates.first
                if let first, s.maxBitrate.map({ first.bandwidth <= $0 }) ?? true { return first.index }
            }
            let duration = segmentDuration ?? s.timelines.values.first?.timeline.targetDuration ?? 6
            return configuration.abr.choose(
                variants: candidates, current: s.currentVariant, estimate: s.estimator.estimate, bufferAhead: bufferAhead, segmentDuration: duration,
                cap: s.maxBitrate
            )
        }
    }

    // MARK: Loading

    private func loadPresentation() async throws(StreamingError) -> Presentation {
        if let known = state.withLock({ $0.presentation }) { return known }
        let loaded = try await loadEntry()
        if MediaSniffer.isMPD(loaded.body) {
            let layout = try Self.layout(loaded, selection: selection)
            state.withLock { s in
                s.dash = (layout, ContinuousClock.now)
                s.presentation = layout.presentation
            }
            return layout.presentation
        }
        try MediaSniffer.checkPlaylist(loaded.body, contentType: loaded.contentType, url: loaded.url)
        let presentation: Presentation
        switch try HLSPresentationReader.readEntry(loaded.body, url: loaded.url) {
        case .presentation(let value):
            presentation = value
        case .singleVariant(let value, let playlist):
            presentation = value
            try Self.checkNotSelfListing(playlist, url: loaded.url)
            let timeline = state.withLock { s in
                let timeline = HLSPresentationReader.timeline(from: playlist, url: loaded.url, clock: &s.clock)
                s.timelines[0] = (timeline, ContinuousClock.now)
                return timeline
            }
            // loadTimeline finds this timeline cached and would never announce it.
            onEvent(.presentationReady(presentation, timeline))
        }
        state.withLock { $0.presentation = presentation }
        return presentation
    }

    /// The URL the app gave: a playlist by its name, or — any other name — first its head (64 kB), which
    /// says whether it is a playlist (then loaded whole), a media file (`notStreamable`: the engine reads
    /// it itself) or neither (an HTML page, junk: `notMedia` at once, not a decoder waiting forever).
    private func loadEntry() async throws(StreamingError) -> StreamingLoader.Loaded {
        if Self.namesPlaylist(url) || Self.namesMPD(url) { return try await loader.load(.manifest, url: url, maxBytes: 8 << 20) }
        let head: StreamingLoader.Loaded
        do {
            head = try await loader.load(.manifest, url: url, byteRange: ByteSpan(offset: 0, length: 64 << 10), maxBytes: 1 << 20)
        } catch  where error.code == .tooLarge {
            throw StreamingError(.notStreamable, "The URL answers with more than a playlist holds: a media file", url: url)
        }
        if MediaSniffer.significantHead(head.body).starts(with: Array("#EXTM3U".utf8)) || MediaSniffer.isMPD(head.body) {
            // A server that honoured the range may have cut a long playlist: load it whole.
            return head.body.count < 64 << 10 ? head : try await loader.load(.manifest, url: url, maxBytes: 4 << 20)
        }
        if MediaSniffer.segmentFormat(head.body) != nil {
            throw StreamingError(.notStreamable, "The URL is a media file, not a playlist", url: url)
        }
        return head
    }

    /// A name that says DASH manifest (`.mpd`).
    static func namesMPD(_ url: URL) -> Bool {
        url.path.lowercased().hasSuffix(".mpd")
    }

    /// A name that says HLS playlist (`.m3u8`, `.m3u`).
    static func namesPlaylist(_ url: URL) -> Bool {
        let path = url.path.lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u")
    }

    /// The variant's timeline: loaded the first time, reloaded for live once it is a target duration old.
    private func loadTimeline(for variant: Int, in presentation: Presentation) async throws(StreamingError) -> MediaTimeline {
        if state.withLock({ $0.dash != nil }) { return try await loadDASHTimeline(for: variant, in: presentation) }
        let cached = state.withLock { $0.timelines[variant] }
        if let cached, !cached.timeline.isLive || ContinuousClock.now - cached.loadedAt < .milliseconds(Int(cached.timeline.targetDuration * 1000)) {
            return cached.timeline
        }
        let playlistURL = presentation.variants[variant].playlistURL
        let loaded = try await loader.load(.manifest, url: playlistURL, maxBytes: 8 << 20, variantIndex: variant)
        try MediaSniffer.checkPlaylist(loaded.body, contentType: loaded.contentType, url: loaded.url)
        let playlist = try HLSPresentationReader.readMediaPlaylist(loaded.body, url: loaded.url)
        try Self.checkNotSelfListing(playlist, url: loaded.url)
        let (timeline, first) = state.withLock { s -> (MediaTimeline, Bool) in
            let timeline = HLSPresentationReader.timeline(from: playlist, url: loaded.url, clock: &s.clock)
            let first = s.timelines.isEmpty
            s.timelines[variant] = (timeline, ContinuousClock.now)
            return (timeline, first)
        }
        if first {
            onEvent(.presentationReady(presentation, timeline))
        } else if timeline.isLive || cached?.timeline.isLive == true {
            onEvent(.timelineUpdated(timeline))
        }
        return timeline
    }

    // MARK: DASH

    private static func layout(_ loaded: StreamingLoader.Loaded, selection: ManifestSelection) throws(StreamingError) -> DASHLayout {
        let mpd: MPD
        do {
            mpd = try MPD.parse([UInt8](loaded.body), url: loaded.url)
        } catch {
            throw StreamingError(.invalidManifest, "The DASH manifest could not be read: \(error)", url: loaded.url)
        }
        return try DASHLayout(mpd: mpd, selection: selection)
    }

    /// A DASH variant's timeline, from the MPD already loaded: a live MPD is reloaded once its
    /// `minimumUpdatePeriod` has passed (and its segment list recomputed for the wall clock each target
    /// duration); an indexed `SegmentBase` representation's `sidx` is fetched the first time.
    private func loadDASHTimeline(for variant: Int, in presentation: Presentation) async throws(StreamingError) -> MediaTimeline {
        let (cached, dash) = state.withLock { ($0.timelines[variant], $0.dash!) }
        let isLive = dash.layout.mpd.kind == .dynamic
        if let cached, !isLive || ContinuousClock.now - cached.loadedAt < .milliseconds(Int(cached.timeline.targetDuration * 1000)) {
            return cached.timeline
        }
        var layout = dash.layout
        if isLive, let period = layout.mpd.minimumUpdatePeriod, ContinuousClock.now - dash.loadedAt >= .milliseconds(Int(max(period, 0.5) * 1000)) {
            let reloadURL = layout.mpd.location ?? url
            let loaded = try await loader.load(.manifest, url: reloadURL, maxBytes: 8 << 20)
            guard MediaSniffer.isMPD(loaded.body) else {
                throw StreamingError(.notMedia, "Reloading the live DASH manifest returned something else than an MPD", url: loaded.url)
            }
            let reloaded = try Self.layout(loaded, selection: selection)
            if reloaded.presentation.variants.count == presentation.variants.count { layout = reloaded }
            state.withLock { $0.dash = (layout, ContinuousClock.now) }
        }
        var indexes = state.withLock { $0.segmentIndexes[variant] ?? [:] }
        var timeline: MediaTimeline?
        while timeline == nil {
            switch try layout.timeline(for: variant, now: configuration.wallClock(), indexes: indexes) {
            case .ready(let value):
                timeline = value
            case .needsIndex(let period, let indexURL, let range):
                let loaded = try await loader.load(.manifest, url: indexURL, byteRange: range, maxBytes: 16 << 20, variantIndex: variant)
                indexes[period] = try SegmentIndexBox.parse(loaded.body, offset: range.offset)
                state.withLock { $0.segmentIndexes[variant, default: [:]][period] = indexes[period] }
            }
        }
        let first = state.withLock { s -> Bool in
            let first = s.timelines.isEmpty
            s.timelines[variant] = (timeline!, ContinuousClock.now)
            return first
        }
        if first {
            onEvent(.presentationReady(presentation, timeline!))
        } else if isLive {
            onEvent(.timelineUpdated(timeline!))
        }
        return timeline!
    }

    private static func checkNotSelfListing(_ playlist: MediaPlaylist, url: URL) throws(StreamingError) {
        if playlist.segments.contains(where: { HLSURI.resolve($0.uri, against: url) == url }) {
            throw StreamingError(.invalidManifest, "The media playlist lists itself as a segment; point its segments at media files", url: url)
        }
    }

    /// What became of one segment.
    private enum SegmentOutcome {
        case pushed
        /// Its download turned slow and was given up; the same segment comes next from this variant.
        case abandoned(for: Int)
    }

    private func fetchAndPush(
        _ segment: SegmentReference, variant: Int, presentation: Presentation, generation: Int
    ) async throws(StreamingError) -> SegmentOutcome {
        let decryption = try await keys.decryption(for: segment.key, sequence: segment.sequence, segmentURL: segment.url)
        let (switched, needsInit) = state.withLock { s -> (Bool, Bool) in
            let switched = s.currentVariant != variant
            let needsInit = segment.initSection.map { section in s.initPushed.map { $0.variant != variant || $0.section != section } ?? true } ?? false
            return (switched, needsInit)
        }
        var initData: Data?
        if needsInit, let section = segment.initSection {
            let loaded = try await loader.load(.initSegment, url: section.url, byteRange: section.byteRange, variantIndex: variant)
            let initBody = try decryption?.initSection(loaded) ?? loaded.body
            if try MediaSniffer.checkSegment(initBody, contentType: loaded.contentType, url: loaded.url) == .isoBMFF {
                let timescales = ISOBMFFTiming.timescales(initSegment: initBody)
                state.withLock { $0.timescales[variant] = timescales }
            }
            initData = initBody
        }
        let loaded: StreamingLoader.Loaded
        let unsampled: (bytes: Int, seconds: Double)
        switch try await loadSegment(segment, variant: variant, presentation: presentation) {
        case .loaded(let value, let rest):
            loaded = value
            unsampled = rest
        case .abandoned(let lower):
            return .abandoned(for: lower)
        }
        var body = try decryption?.segment(loaded) ?? loaded.body
        let format = try MediaSniffer.checkSegment(body, contentType: loaded.contentType, url: loaded.url)
        let target = segment.start + configuration.decoderTimeOffset
        var decoderTime = target
        switch format {
        case .mpegTS:
            let timing = MPEGTSTiming.read(body)
            decoderTime = target - timing.pcrToPTSDelay
            if let pts = timing.earliestPTS {
                state.withLock { s in
                    if s.mpegtsAnchors[segment.discontinuity] == nil { s.mpegtsAnchors[segment.discontinuity] = (Double(pts) / 90_000, segment.start) }
                }
            }
        case .isoBMFF:
            if let timescales = state.withLock({ $0.timescales[variant] }),
                let retimed = ISOBMFFTiming.retimed(fragment: body, timescales: timescales, target: target)
            {
                body = retimed
            }
        default:
            break
        }
        let seconds = MediaTime(loaded.record.duration).seconds
        let (current, previousEnd, firstOfGeneration, newDiscontinuity) = state.withLock { s -> (Bool, Double?, Bool, Bool) in
            s.estimator.sample(bytes: unsampled.bytes, seconds: unsampled.seconds)
            return (!s.closed && s.generation == generation, s.pushedEnd, !s.pushedSomething, s.lastDiscontinuity != segment.discontinuity)
        }
        guard current, !Task.isCancelled else { return .pushed }
        let discontinuity = switched || firstOfGeneration || needsInit || newDiscontinuity || (previousEnd.map { abs($0 - segment.start) > 0.5 } ?? true)
        if let initData, let section = segment.initSection {
            output.push(
                MediaChunk(
                    kind: .initSegment, data: initData, start: segment.start, duration: 0, discontinuity: true, generation: generation, variantIndex: variant,
                    sequence: segment.sequence))
            // Only for this generation: a seek that came meanwhile reset it, and its decoder needs its own.
            state.withLock { s in if s.generation == generation { s.initPushed = (variant, section) } }
        }
        output.push(
            MediaChunk(
                kind: .media, data: body, start: segment.start, decoderTime: decoderTime, duration: segment.duration, discontinuity: discontinuity,
                generation: generation, variantIndex: variant, sequence: segment.sequence))
        let announce = state.withLock { s -> Bool in
            guard s.generation == generation else { return false }
            s.pushedEnd = segment.end
            s.pushedSomething = true
            s.everPushed = true
            s.lastDiscontinuity = segment.discontinuity
            s.currentVariant = variant
            defer { s.reportedVariant = variant }
            return s.reportedVariant != variant
        }
        logger.debug(
            "segment pushed",
            metadata: [
                "sequence": "\(segment.sequence)", "variant": "\(variant)", "bytes": "\(body.count)",
                "ms": "\(Int(seconds * 1000))", "start": "\(segment.start)", "generation": "\(generation)", "discontinuity": "\(discontinuity)",
            ])
        if announce { onEvent(.variantSelected(presentation.variants[variant])) }
        return .pushed
    }

    /// The presentation time a segment carries and the stream it feeds, for its record.
    private func span(of segment: SegmentReference) -> MediaTransfer.Span {
        MediaTransfer.Span(start: segment.start, duration: segment.duration, stream: stream)
    }

    private enum SegmentLoad: Sendable {
        /// With the part the throughput estimate was not given while it downloaded.
        case loaded(StreamingLoader.Loaded, unsampled: (bytes: Int, seconds: Double))
        case abandoned(for: Int)
    }

    /// Loads a media segment while `AbandonmentRule` watches its progress (every 100 ms) against the
    /// buffer ahead: a download that would outlast the buffer is cancelled for a lower variant, and
    /// what it measured becomes the throughput estimate so the next choices follow the slower link.
    /// The progress also feeds the estimate as it comes (every ≥ 16 kB, as Shaka samples progress
    /// events): a segment during which the link dropped has already pulled the estimate down when it
    /// completes, instead of counting as one average.
    private func loadSegment(_ segment: SegmentReference, variant: Int, presentation: Presentation) async throws(StreamingError) -> SegmentLoad {
        let loading = presentation.variants[variant]
        let span = span(of: segment)
        let (fresh, cap) = state.withLock { s in (Self.fresh(presentation.variants, excluded: s.excludedVariants), s.maxBitrate) }
        let lower = fresh.filter { candidate in candidate.bandwidth < loading.bandwidth && (cap.map { candidate.bandwidth <= $0 } ?? true) }
        guard !lower.isEmpty, bufferedAhead != nil else {
            let loaded = try await loader.load(.segment, url: segment.url, byteRange: segment.byteRange, variantIndex: variant, span: span)
            return .loaded(loaded, unsampled: (loaded.body.count, MediaTime(loaded.record.duration).seconds))
        }
        let progress = ProgressBox()
        let cursor = SampleCursor()
        let minimumSample = configuration.throughput.minimumBytes
        let clock = configuration.transferClock
        let begin = clock.now()
        let rule = configuration.abandonment
        do {
            return try await withThrowingTaskGroup(of: SegmentLoad.self) { group in
                group.addTask { [loader] in
                    let loaded = try await loader.load(
                        .segment, url: segment.url, byteRange: segment.byteRange, variantIndex: variant, span: span, progress: { progress.set($0) })
                    // What the watch has not given the estimator yet, on the watch's clock.
                    let done = cursor.done
                    return .loaded(loaded, unsampled: (loaded.body.count - done.bytes, MediaTime(clock.now() - begin).seconds - done.seconds))
                }
                group.addTask { [self] in
                    // (seconds since the request, bytes received) every 100 ms: the rate of the last half second.
                    var history: [(at: Double, received: Int)] = []
                    while true {
                        try await Task.sleep(for: .milliseconds(100))
                        let elapsed = MediaTime(clock.now() - begin).seconds
                        // No report yet: the response head is not in, or the transport reports only whole
                        // bodies. Nothing to judge either way.
                        guard let now = progress.get() else { continue }
                        if let last = history.last, now.received < last.received {
                            // A retry or a redirect started the body over: measure it from here.
                            history.removeAll()
                            cursor.restart(at: elapsed)
                        }
                        history.append((elapsed, now.received))
                        history.removeAll { elapsed - $0.at > 0.55 }
                        if let step = cursor.advance(to: now.received, at: elapsed, minimumBytes: minimumSample) {
                            state.withLock { $0.estimator.sample(bytes: step.bytes, seconds: step.seconds) }
                        }
                        guard let ahead = bufferedAhead else { continue }
                        let attemptElapsed = elapsed - cursor.attemptStart
                        let recentRate = history.first.flatMap { first -> Double? in
                            elapsed - first.at >= 0.45 ? Double(now.received - first.received) / (elapsed - first.at) : nil
                        }
                        guard
                            let replacement = rule.replacement(
                                elapsed: attemptElapsed, received: now.received, recentRate: recentRate, expected: now.expected,
                                segmentDuration: segment.duration, loading: loading, variants: lower, bufferAhead: ahead
                            )
                        else { continue }
                        // The link is now what this download measured (the slower of its average and its last
                        // half second); nothing measured: what the replacement needs.
                        let average = attemptElapsed > 0 ? Double(now.received) / attemptElapsed : 0
                        let measured = min(average, recentRate ?? average) * 8
                        let replacementBandwidth = lower.first { $0.index == replacement }.map { Double($0.bandwidth) } ?? 0
                        state.withLock { $0.estimator.restart(at: measured > 0 ? measured : replacementBandwidth) }
                        logger.notice(
                            "slow segment download abandoned for a lower variant",
                            metadata: [
                                "sequence": "\(segment.sequence)", "variant": "\(variant)", "replacement": "\(replacement)",
                                "received": "\(now.received)", "elapsed": "\(attemptElapsed)", "ahead": "\(ahead)",
                            ])
                        return .abandoned(for: replacement)
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        } catch let error as StreamingError {
            throw error
        } catch {
            throw StreamingError(.cancelled, "The segment request was cancelled", url: segment.url)
        }
    }

}

/// A counter shared with escaping closures (a `Mutex` itself cannot be captured).
final class SharedCounter: Sendable {
    private let value = Mutex(0)
    func withLock<R>(_ body: (inout Int) -> R) -> R { value.withLock { body(&$0) } }
}

/// How much of one download the throughput estimate has been given (bytes, seconds since the request),
/// and when its current attempt began (a retry or redirect starts the body over).
private final class SampleCursor: Sendable {
    private let value = Mutex<(bytes: Int, seconds: Double, attemptStart: Double)>((0, 0, 0))

    var done: (bytes: Int, seconds: Double) { value.withLock { ($0.bytes, $0.seconds) } }
    var attemptStart: Double { value.withLock { $0.attemptStart } }

    /// The part since the last sample, once it is at least `minimumBytes` (then it counts as sampled).
    func advance(to received: Int, at seconds: Double, minimumBytes: Int) -> (bytes: Int, seconds: Double)? {
        value.withLock { cursor in
            guard received - cursor.bytes >= minimumBytes else { return nil }
            defer { cursor = (received, seconds, cursor.attemptStart) }
            return (received - cursor.bytes, seconds - cursor.seconds)
        }
    }

    /// A new attempt began at `seconds`: its bytes count from zero.
    func restart(at seconds: Double) {
        value.withLock { $0 = (0, seconds, seconds) }
    }
}
