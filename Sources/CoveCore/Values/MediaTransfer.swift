/// One finished network request of the engine's streaming (a playlist, an init segment, a segment):
/// exact bytes and timing, for traces, QoE and analytics.
public struct MediaTransfer: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case manifest, segment, initSegment, key, text, other
    }

    public let kind: Kind
    /// Redacted.
    public let url: String
    /// The HTTP status; 0 when no answer came (a broken connection, a cancelled request).
    public let status: Int
    /// Body bytes received.
    public let bytes: Int
    /// Wall-clock time the request was sent (Unix epoch seconds).
    public let startedAt: Double
    /// From sending to the last byte.
    public let duration: Duration
    /// The declared bandwidth of the variant it was for, when it was for one.
    public let variantBandwidth: Int?
    /// 1 for the first try, 2 for the first retry, …
    public let attempt: Int
    /// For a media segment: the presentation time it carries and the stream it feeds (what playback
    /// quality measures need to tell bytes played from bytes wasted).
    public let span: Span?

    /// A media segment's stretch of presentation time (seconds) and its stream.
    public struct Span: Sendable, Hashable {
        public let start: Double
        public let duration: Double
        public let stream: Stream

        public init(start: Double, duration: Double, stream: Stream) {
            self.start = start
            self.duration = max(duration, 0)
            self.stream = stream
        }

        public var end: Double { start + duration }
    }

    /// Which of a presentation's streams a segment feeds.
    public enum Stream: String, Sendable, Hashable {
        /// The variant playing (video, or muxed audio and video).
        case main
        /// A separate audio rendition (HLS `EXT-X-MEDIA`, a DASH audio set).
        case audio
        /// Subtitles.
        case text
    }

    public init(
        kind: Kind, url: String, status: Int, bytes: Int, startedAt: Double, duration: Duration, variantBandwidth: Int? = nil, attempt: Int = 1,
        span: Span? = nil
    ) {
        self.kind = kind
        self.url = url
        self.status = status
        self.bytes = bytes
        self.startedAt = startedAt
        self.duration = duration
        self.variantBandwidth = variantBandwidth
        self.attempt = attempt
        self.span = span
    }
}
