import Foundation

/// One of a fed player's decoder inputs.
public enum FeedInput: String, Sendable, Hashable, CaseIterable {
    /// The presentation's main stream: a variant's video (and its muxed audio).
    case main
    /// A separate audio stream beside it (an HLS audio rendition, a DASH audio set), decoded and played
    /// in sync with the main one.
    case audio
}

/// An engine that can also be fed: its players take media pushed in by a producer above them (Cove's
/// streaming: manifests, ABR, retries, keys) instead of reading a URL themselves, and only demux, decode
/// and render. The split Media3 draws between a `MediaSource` and its renderers.
///
/// ```
/// controller ──commands──▶ StreamingPlayer ──commands──▶ FedEnginePlayer (demux, decode, render)
///                             │  sessions                    ▲ input .main / .audio
///                             └── MediaChunk (init, media, end) ┘ ◀── playhead, flushes (reposition)
/// ```
///
/// `makePlayer` stays the way to play a URL the engine reads itself (a progressive file).
public protocol FeedableMediaEngine: MediaEngine {
    /// Builds a player whose media is pushed into its inputs (`configuration.url` is only named in logs
    /// and errors). It stays idle after `load` until `FedEnginePlayer.startFeed(at:)`.
    func makeFedPlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any FedEnginePlayer
}

/// A player of a `FeedableMediaEngine` whose media a producer pushes in.
///
/// The order of a start: `load(playWhenReady:)` records the intent; the producer is attached to
/// `.main` (and, for a separate audio stream, `.audio` is opened and fed) once it knows what it plays;
/// `startFeed(at:)` then builds the decoding chain, beginning at that presentation time. A flushing
/// seek reaches each input's producer as `MediaFeedProducer.reposition(to:)`, in order with the flush,
/// so chunks fetched for the old position are dropped by their generation.
public protocol FedEnginePlayer: EnginePlayer {
    /// The input chunks for `input` are pushed to; nil for `.audio` until `openInput(.audio)`.
    func input(_ input: FeedInput) -> (any MediaFeedInput)?
    /// Opens the separate audio input (before `startFeed`); the main input always exists. Returns it.
    @discardableResult
    func openInput(_ input: FeedInput) -> any MediaFeedInput
    /// Links `producer` to `input`: the input asks it to reposition after a flush and drops chunks of
    /// other generations. A producer already linked there is replaced and closed, without a flush (an
    /// audio rendition switch continues where the old one stopped pushing).
    func attach(_ producer: any MediaFeedProducer, to input: FeedInput)
    /// Builds the decoding chain and starts it where the feed begins (presentation seconds): paused for
    /// preroll, or playing when `load`/`play` asked for it.
    func startFeed(at position: Double)
    /// The presentation's duration (nil: unknown or live), so the engine's own queries agree.
    func setFeedDuration(_ seconds: Double?)
}
