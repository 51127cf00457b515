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
    let configuration: StreamingConfiguration
    let loader: StreamingLoader
    let keys: KeyCache
    /// Key systems, licences and decryption sessions, shared with the play's other sessions.
    let protection: ProtectionBroker
    let output: any StreamingOutput
    let onEvent: @Sendable (StreamingEvent) -> Void
    let logger: Logger
    let state: Mutex<State>
    /// Body bytes of every request so far (the loader's records add to it).
    let bytesTally = SharedCounter()

    struct State {
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
        /// This generation's fetching stopped on a failure (reported): nothing more will come in it.
        var stoppedOnFailure = false
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
        /// Per variant: its init segment's Common Encryption and the session that decrypts its fragments.
        var protections: [Int: (content: ProtectedInitSegment, session: any DecryptionSession)] = [:]
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
    ///   - protection: the play's content protection (decryption modules, the source's licence URLs),
    ///     shared by its sessions; nil: one of its own from `configuration.decryptionModules`.
    ///   - onEvent: what the session reports (variant switches, transfers, failures), from its own task.
    public init(
        url: URL, selection: ManifestSelection = .main, transport: any HTTPTransport, configuration: StreamingConfiguration = StreamingConfiguration(),
        output: any StreamingOutput, logger: Logger = Logger(label: "cove.streaming"), firstGeneration: Int = 0, origin: URL? = nil,
        stream: MediaTransfer.Stream? = nil, protection: ProtectionBroker? = nil, onEvent: @escaping @Sendable (StreamingEvent) -> Void
    ) {
        self.url = url
        self.protection = protection ?? ProtectionBroker(modules: configuration.decryptionModules, logger: logger)
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
    func restart(at position: Double?) -> Int {
        let (generation, old) = state.withLock { s -> (Int, Task<Void, Never>?) in
            s.generation += 1
            s.pushedEnd = nil
            s.pushedSomething = false
            s.stoppedOnFailure = false
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

    /// Seconds of media pushed ahead of the playhead (nil before anything was pushed in this generation;
    /// 0 when its fetching stopped on a failure before anything was pushed).
    public var bufferedAhead: Double? {
        let (end, start, stopped) = state.withLock { ($0.pushedEnd, $0.generationStart, $0.stoppedOnFailure) }
        // Nothing pushed in a generation whose fetching failed: nothing is ahead and nothing is coming (a
        // feed restarted under a playing pipeline whose first segment came back as junk; with no measure the
        // buffer check reported no stall and the playhead stood still for good: issue 33's chaos run).
        guard let end else { return stopped ? 0 : nil }
        return max(end - (output.playheadPosition() ?? start), 0)
    }

    /// This generation's fetching stopped on a failure before it pushed anything: its input will get
    /// nothing more, whatever the pipeline's state (a flushed pipeline waits for data to preroll again).
    var stoppedWithNothingPushed: Bool { state.withLock { $0.stoppedOnFailure && $0.pushedEnd == nil } }

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
    static func reportingTimeline(_ s: State) -> MediaTimeline? {
        (s.currentVariant ?? s.reportedVariant).flatMap { s.timelines[$0]?.timeline } ?? s.timelines.values.first?.timeline
    }
}
