import Foundation

/// Bytes for a decoder: an init section or a media segment, with where it sits on the timeline.
///
/// The unit of the feed between the layer that fetches media (Cove's streaming: manifests, ABR, retries,
/// keys, accounting) and an engine that only demuxes, decodes and renders (GStreamer's `appsrc`, the
/// scripted engine in tests).
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
    /// The timestamp the decoder's buffer carries (seconds): the presentation time plus the producer's
    /// `decoderTimeOffset`, minus a transport stream's PCR-to-PTS delay.
    public let decoderTime: Double
    public let duration: Double
    /// Timestamps may not continue from the previous chunk (variant switch, discontinuity, seek): the
    /// demuxer must resynchronise.
    public let discontinuity: Bool
    /// The repositioning generation the chunk belongs to; a stale one is dropped by the input.
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

/// An engine's decoder input that a producer feeds: chunks in order, the end of the stream, and the
/// playhead coming back (the producer measures its buffer from it).
public protocol MediaFeedInput: AnyObject, Sendable {
    /// Hands one chunk to the decoder. Never blocks for long; chunks of an older generation are dropped.
    func push(_ chunk: MediaChunk)
    /// Everything of `generation` has been pushed: the stream ends after it.
    func pushEndOfStream(generation: Int)
    /// The playhead on the presentation timeline, in seconds, when the engine knows it.
    func playheadPosition() -> Double?
}

/// What feeds an input: the engine asks it to start again elsewhere when its decoder input was flushed
/// (a seek reaches the input as a repositioning, in order with the flush), and reads which generation is
/// current (so chunks fetched before a repositioning are dropped).
public protocol MediaFeedProducer: AnyObject, Sendable {
    /// The generation chunks carry now.
    var generation: Int { get }
    /// The input was flushed and repositioned to `position` (presentation seconds): produce from there.
    /// Returns the generation the new chunks carry.
    func reposition(to position: Double) -> Int
    /// How much later than presentation time the chunks' decoder timestamps are (seconds).
    var decoderTimeOffset: Double { get }
    /// Stops producing (the input is going away).
    func close()
}
