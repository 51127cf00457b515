import CoveCore
import Foundation

/// How a streaming session loads, adapts and buffers. A value: apps set it once on the engine.
public struct StreamingConfiguration: Sendable {
    /// Changes requests before they are sent (tokens, CDN rewrites), per request kind.
    public var requestFilters: [RequestFilter]
    /// Retries of one request (server errors, broken connections; never a 4xx but 408/429).
    public var retryPolicy: RetryPolicy
    public var abr: ABRPolicy
    /// When a segment download that turned slow is given up for a lower variant.
    public var abandonment: AbandonmentRule
    public var throughput: ThroughputEstimator.Configuration
    /// Media buffered ahead of the playhead when the app has not set a forward buffer.
    public var defaultForwardBuffer: Duration
    /// The first segment comes from the lowest variant (fastest first frame), then ABR takes over with a
    /// measured throughput. False: from the first variant listed (what GStreamer and AVPlayer do).
    public var startsOnLowestVariant: Bool
    /// One request's deadline, redirects included.
    public var requestTimeout: Duration
    /// Decoder time minus presentation time (seconds). Transport-stream buffers are stamped up to their
    /// PCR-to-PTS delay (≤ ~1.5 s) before their presentation time, and a timestamp cannot be negative.
    public var decoderTimeOffset: Double
    /// Wall-clock time (seconds since 1970): which segments of a live DASH manifest exist now. Injected so
    /// tests (and apps with a synchronised clock, DASH `UTCTiming`) decide it.
    public var wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Times transfers for the throughput estimate and the abandonment watch (a simulated link in tests).
    public var transferClock: TransferClock = .continuous
    /// Awaited before a session's first request: the engine that decodes lets the request wait while it
    /// is still loading its decoders (`GStreamerEngine` waits for a warm-up in progress), so the time from
    /// the first request to the first frame never includes loading them. Returns at once by default.
    public var readiness: @Sendable () async -> Void = {}
    /// How a single media file (an MP4 rendition) is read: range sizes, read-ahead, and how many fetched
    /// bytes are kept so a seek back into them needs no request.
    public var progressive = ProgressiveLoader.Tuning()
    /// The decryption modules protected content is played with, in order of preference. ClearKey by
    /// default (keys from a licence server the source's `key_systems` names); an integrator adds a
    /// vendor's module, or a `ClearKeyModule(keys:)` with keys of its own.
    public var decryptionModules = DecryptionModules([ClearKeyModule()])

    public init(
        requestFilters: [RequestFilter] = [], retryPolicy: RetryPolicy = RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(250)),
        abr: ABRPolicy = .default, abandonment: AbandonmentRule = .default, throughput: ThroughputEstimator.Configuration = .init(),
        defaultForwardBuffer: Duration = .seconds(30),
        startsOnLowestVariant: Bool = true, requestTimeout: Duration = .seconds(20), decoderTimeOffset: Double = 10
    ) {
        self.decoderTimeOffset = decoderTimeOffset.isFinite ? min(max(decoderTimeOffset, 0), 3_600) : 10
        self.requestFilters = requestFilters
        self.retryPolicy = retryPolicy
        self.abr = abr
        self.abandonment = abandonment
        self.throughput = throughput
        self.defaultForwardBuffer = max(defaultForwardBuffer, .milliseconds(500))
        self.startsOnLowestVariant = startsOnLowestVariant
        self.requestTimeout = requestTimeout
    }
}
