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

    public init(kind: Kind, url: String, status: Int, bytes: Int, startedAt: Double, duration: Duration, variantBandwidth: Int? = nil, attempt: Int = 1) {
        self.kind = kind
        self.url = url
        self.status = status
        self.bytes = bytes
        self.startedAt = startedAt
        self.duration = duration
        self.variantBandwidth = variantBandwidth
        self.attempt = attempt
    }
}
