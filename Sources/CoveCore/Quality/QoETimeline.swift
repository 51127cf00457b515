import Foundation

/// What happened over one session's wall time, for drawing: buffer ahead, the bitrate selected against
/// the throughput estimate, stalls, seeks, variant switches and ad breaks. The companion of `QoEMeter`
/// (which sums the same events into figures): a pure recorder, events and their wall times in, a value out,
/// so a report draws the same thing in an app, in `cove probe --report` and in a test.
///
/// Times are seconds since the play request. Samples are taken at most every `sampleInterval` and the
/// recorder keeps at most `maximumSamples` of them (past that it keeps every other one and doubles the
/// interval), so a recording of a long play stays small.
public struct QoETimeline: Sendable, Hashable {
    /// The player's state at one moment.
    public struct Sample: Sendable, Hashable {
        public var time: Double
        /// The playhead (media seconds).
        public var playhead: Double?
        /// Media buffered ahead of the playhead (seconds).
        public var bufferAhead: Double?
        /// The engine's throughput estimate (bits/s).
        public var throughputEstimate: Int?

        public init(time: Double, playhead: Double? = nil, bufferAhead: Double? = nil, throughputEstimate: Int? = nil) {
            self.time = time
            self.playhead = playhead
            self.bufferAhead = bufferAhead
            self.throughputEstimate = throughputEstimate
        }
    }

    /// One media segment of the main stream: when it arrived, the variant it came from (the bitrate the
    /// player selected for it) and the throughput it was fetched at.
    public struct SegmentFetch: Sendable, Hashable {
        public var time: Double
        public var variantBandwidth: Int?
        /// Body bits over the request's duration (nil for an instant answer).
        public var throughput: Int?

        public init(time: Double, variantBandwidth: Int?, throughput: Int?) {
            self.time = time
            self.variantBandwidth = variantBandwidth
            self.throughput = throughput
        }
    }

    /// A stretch of wall time (a stall, an ad break); `end` is nil while it is open.
    public struct Span: Sendable, Hashable {
        public var start: Double
        public var end: Double?

        public init(start: Double, end: Double?) {
            self.start = start
            self.end = end
        }
    }

    /// A seek: asked for at `start`, its first frame at `end`, the playhead moved `from` → `to`.
    public struct Seek: Sendable, Hashable {
        public var start: Double
        public var end: Double?
        public var from: Double?
        public var to: Double?

        public init(start: Double, end: Double?, from: Double?, to: Double?) {
            self.start = start
            self.end = end
            self.from = from
            self.to = to
        }
    }

    /// A variant switch the engine reported.
    public struct Switch: Sendable, Hashable {
        public var time: Double
        public var from: Int?
        public var to: Int
        public var reason: String

        public init(time: Double, from: Int?, to: Int, reason: String) {
            self.time = time
            self.from = from
            self.to = to
            self.reason = reason
        }

        public var isUp: Bool { from.map { to > $0 } ?? false }
        public var isDown: Bool { from.map { to < $0 } ?? false }
    }

    /// An error the session reported, and whether it ended playback.
    public struct ErrorMark: Sendable, Hashable {
        public var time: Double
        public var code: String
        public var isFatal: Bool

        public init(time: Double, code: String, isFatal: Bool) {
            self.time = time
            self.code = code
            self.isFatal = isFatal
        }
    }

    public let requestedAt: Date
    public private(set) var samples: [Sample] = []
    public private(set) var segments: [SegmentFetch] = []
    public private(set) var stalls: [Span] = []
    public private(set) var seeks: [Seek] = []
    public private(set) var switches: [Switch] = []
    public private(set) var adBreaks: [Span] = []
    public private(set) var errors: [ErrorMark] = []
    public private(set) var firstFrame: Double?
    /// When the session ended, failed or was torn down.
    public private(set) var end: Double?
    /// The variants the stream declared (bits/s, ascending).
    public private(set) var ladder: [Int] = []
    public private(set) var sampleInterval: Double
    public let maximumSamples: Int
    private var lastPlayhead: Double?

    public init(requestedAt: Date, sampleInterval: Double = 0.25, maximumSamples: Int = 4000) {
        self.requestedAt = requestedAt
        self.sampleInterval = max(sampleInterval, 0.001)
        self.maximumSamples = max(maximumSamples, 16)
    }

    /// Records one event, seen at `now`, with the engine's state at that moment (`session.player?.status`).
    public mutating func handle(_ event: PlaybackEvent, at now: Date, status: EngineStatus?) {
        let time = now.timeIntervalSince(requestedAt)
        switch event {
        case .progress, .forwardBufferChanged:
            sample(at: time, status: status)
        case .framePresented(_, let frame):
            let frameTime = frame.wallTime - requestedAt.timeIntervalSince1970
            switch frame.cause {
            case .start where firstFrame == nil:
                firstFrame = frameTime
            case .seek:
                if let open = seeks.indices.last, seeks[open].end == nil {
                    seeks[open].end = frameTime
                    seeks[open].to = status?.position?.seconds
                }
            default:
                break
            }
            sample(at: time, status: status, force: true)
        case .mediaTransferred(_, let transfer):
            guard transfer.kind == .segment, transfer.span?.stream ?? .main == .main, (200..<300).contains(transfer.status) else { break }
            let seconds = MediaTime(transfer.duration).seconds
            segments.append(
                SegmentFetch(
                    time: transfer.startedAt + seconds - requestedAt.timeIntervalSince1970, variantBandwidth: transfer.variantBandwidth,
                    throughput: seconds > 0 ? Int((Double(transfer.bytes) * 8 / seconds).rounded()) : nil
                ))
        case .variantsDiscovered(_, let discovered):
            ladder = discovered.variants.map(\.bandwidth).sorted()
        case .variantChanged(_, let change):
            switches.append(Switch(time: time, from: change.from?.bandwidth, to: change.to.bandwidth, reason: change.reason.rawValue))
        case .adSequenceEntered:
            if adBreaks.last.map({ $0.end != nil }) ?? true { adBreaks.append(Span(start: time, end: nil)) }
        case .adSequenceExited:
            if let open = adBreaks.indices.last, adBreaks[open].end == nil { adBreaks[open].end = time }
        case .lifecycle(_, let lifecycle):
            handle(lifecycle, at: time, status: status)
        default:
            break
        }
    }

    private mutating func handle(_ lifecycle: LifecycleEvent, at time: Double, status: EngineStatus?) {
        switch lifecycle {
        case .stalled where firstFrame != nil:
            // A stall also says BufferEmpty: a seek it seemed to start was none.
            if let open = seeks.indices.last, seeks[open].end == nil { seeks.remove(at: open) }
            if stalls.last.map({ $0.end != nil }) ?? true { stalls.append(Span(start: time, end: nil)) }
        case .recovered:
            closeStall(at: time)
        case .bufferEmpty where firstFrame != nil:
            // The controller says BufferEmpty as a seek starts.
            // From the playhead seen before it: by now the engine may already report the target.
            if seeks.last.map({ $0.end != nil }) ?? true {
                seeks.append(Seek(start: time, end: nil, from: lastPlayhead, to: nil))
            }
        case .end, .terminate:
            closeStall(at: time)
            closeAdBreak(at: time)
            if end == nil { end = time }
        case .error(let error):
            errors.append(ErrorMark(time: time, code: error.code.name, isFatal: false))
        case .fail(let error), .failedToPlayToEndTime(let error):
            errors.append(ErrorMark(time: time, code: error.code.name, isFatal: true))
            closeStall(at: time)
            closeAdBreak(at: time)
            if end == nil { end = time }
        default:
            break
        }
        sample(at: time, status: status)
    }

    private mutating func closeStall(at time: Double) {
        if let open = stalls.indices.last, stalls[open].end == nil { stalls[open].end = time }
    }

    private mutating func closeAdBreak(at time: Double) {
        if let open = adBreaks.indices.last, adBreaks[open].end == nil { adBreaks[open].end = time }
    }

    private mutating func sample(at time: Double, status: EngineStatus?, force: Bool = false) {
        guard let status else { return }
        let playhead = status.position.map(\.seconds).flatMap { $0.isFinite ? $0 : nil }
        if let playhead { lastPlayhead = playhead }
        if !force, let last = samples.last, time - last.time < sampleInterval { return }
        samples.append(
            Sample(
                time: time, playhead: playhead, bufferAhead: status.bufferedAhead.map { MediaTime($0).seconds }, throughputEstimate: status.bandwidthEstimate
            ))
        if samples.count > maximumSamples {
            samples = samples.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
            sampleInterval *= 2
        }
    }

    /// The last moment the recording covers: its end, or its latest mark.
    public var lastTime: Double {
        let marks = [
            end, samples.last?.time, segments.last?.time, stalls.last.map { $0.end ?? $0.start }, seeks.last.map { $0.end ?? $0.start },
            switches.last?.time, adBreaks.last.map { $0.end ?? $0.start }, errors.last?.time, firstFrame,
        ]
        return marks.compactMap { $0 }.max() ?? 0
    }
}

extension QoETimeline {
    /// As JSON: the plot's data (times in seconds since the play request, to the millisecond).
    public var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.seconds) ?? .null }
        func integer(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
        func span(_ span: Span) -> JSONValue { .object(["start": number(span.start), "end": number(span.end)]) }
        return .object([
            "firstFrame": number(firstFrame),
            "end": number(end),
            "ladder": .array(ladder.map { .int(Int64($0)) }),
            "samples": .array(
                samples.map {
                    .object([
                        "t": number($0.time), "playhead": number($0.playhead), "bufferAhead": number($0.bufferAhead),
                        "throughputEstimate": integer($0.throughputEstimate),
                    ])
                }),
            "segments": .array(
                segments.map { .object(["t": number($0.time), "variant": integer($0.variantBandwidth), "throughput": integer($0.throughput)]) }),
            "stalls": .array(stalls.map(span)),
            "adBreaks": .array(adBreaks.map(span)),
            "seeks": .array(seeks.map { .object(["start": number($0.start), "end": number($0.end), "from": number($0.from), "to": number($0.to)]) }),
            "switches": .array(
                switches.map { .object(["t": number($0.time), "from": integer($0.from), "to": .int(Int64($0.to)), "reason": .string($0.reason)]) }),
            "errors": .array(errors.map { .object(["t": number($0.time), "code": .string($0.code), "fatal": .bool($0.isFatal)]) }),
        ])
    }
}
