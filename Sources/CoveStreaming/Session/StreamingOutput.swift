import Foundation

/// Bytes for the decoder: an init segment or a media segment, with where it sits on the timeline.
public struct MediaChunk: Sendable {
    public enum Kind: Sendable, Hashable {
        /// Decoder set-up (fMP4 `moov`): pushed before the first fragment of a variant.
        case initSegment
        case media
    }
    public let kind: Kind
    public let data: Data
    /// The segment's start on the presentation timeline (seconds): its first buffer's timestamp.
    public let start: Double
    /// The timestamp the decoder's buffer carries (seconds): the presentation time plus the session's
    /// `decoderTimeOffset`, minus a transport stream's PCR-to-PTS delay (see `MPEGTSTiming`).
    public let decoderTime: Double
    public let duration: Double
    /// Timestamps may not continue from the previous chunk (variant switch, discontinuity, seek): the
    /// demuxer must resynchronise.
    public let discontinuity: Bool
    /// The seek generation the chunk belongs to; a stale one is dropped by the output.
    public let generation: Int
    public let variantIndex: Int
    public let sequence: Int

    public init(
        kind: Kind, data: Data, start: Double, decoderTime: Double? = nil, duration: Double, discontinuity: Bool, generation: Int, variantIndex: Int,
        sequence: Int
    ) {
        self.kind = kind
        self.data = data
        self.start = start
        self.decoderTime = decoderTime ?? start
        self.duration = duration
        self.discontinuity = discontinuity
        self.generation = generation
        self.variantIndex = variantIndex
        self.sequence = sequence
    }
}

/// Where a streaming session's media goes: the engine's decoder input (GStreamer's `appsrc`), or a
/// recorder in tests.
public protocol StreamingOutput: AnyObject, Sendable {
    /// Hands one chunk to the decoder. Never blocks for long; chunks of an older generation are dropped.
    func push(_ chunk: MediaChunk)
    /// Everything of `generation` has been pushed: the stream ends after it.
    func pushEndOfStream(generation: Int)
    /// The playhead on the presentation timeline, in seconds, when the engine knows it.
    func playheadPosition() -> Double?
}

/// What a streaming session reports, in order.
public enum StreamingEvent: Sendable {
    /// The manifest and the first variant's timeline are loaded: the ladder, the duration (nil for
    /// live), the seekable window.
    case presentationReady(Presentation, MediaTimeline)
    /// A generation starts fetching at this time (the start asked for, EXT-X-START, or the live edge):
    /// the decoder's timeline must begin there.
    case starting(at: Double, generation: Int)
    /// A live playlist was reloaded: its window moved.
    case timelineUpdated(MediaTimeline)
    /// Segments now come from this variant.
    case variantSelected(VariantTrack)
    /// A request finished (successful or not).
    case request(RequestRecord)
    /// A download failed after its retries, with media already pushed: what is buffered still plays.
    case downloadFailed(StreamingError)
    /// Nothing could be pushed: the session cannot start.
    case failed(StreamingError)
}
