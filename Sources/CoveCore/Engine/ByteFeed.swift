import Foundation

/// A media file's bytes for a demuxer that reads by offset: the seam that lets a single-file source (an
/// MP4 rendition, an MP3) be fetched by the layer above the engine — through the app's `HTTPTransport`,
/// its request filters, the Playback Rights token, accounting and offline copies — while the engine only
/// demuxes, decodes and renders.
///
/// The demuxer decides where to read (the file's start, its index at the end, the sample a seek lands
/// on); each new place reaches the producer as `ByteFeedProducer.reposition(toByte:)`, in order with the
/// engine's flush, and bytes fetched for an older place are dropped by their generation.
public protocol ByteFeedInput: AnyObject, Sendable {
    /// Hands bytes starting at `offset` to the demuxer. Never blocks for long; bytes of an older generation
    /// are dropped.
    func push(_ bytes: Data, at offset: Int64, generation: Int)
    /// The file ends after what `generation` pushed.
    func pushEndOfStream(generation: Int)
    /// Bytes pushed that the demuxer has not taken yet: how far ahead of it the producer reads.
    var queuedBytes: Int { get }
}

/// What feeds a `ByteFeedInput`: it restarts at the offset the demuxer asks for.
public protocol ByteFeedProducer: AnyObject, Sendable {
    /// The generation pushed bytes carry now.
    var generation: Int { get }
    /// The demuxer wants the file from `offset` on (its start, a seek, an index elsewhere in the file):
    /// produce from there. Returns the generation the new bytes carry. Called on an engine thread: it
    /// must not block.
    func reposition(toByte offset: Int64) -> Int
    /// Stops producing (the input is going away).
    func close()
}

/// An engine whose players can also be fed a single media file's bytes by a producer above them (Cove's
/// progressive loader) instead of reading the URL themselves.
public protocol ByteFeedableMediaEngine: FeedableMediaEngine {
    /// Builds a player that reads the file through its `byteInput`. It stays idle after `load` until
    /// `ByteFedEnginePlayer.startReading()`.
    func makeByteFedPlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any ByteFedEnginePlayer
}

/// A player of a `ByteFeedableMediaEngine` whose file's bytes a producer pushes in.
public protocol ByteFedEnginePlayer: EnginePlayer {
    /// Where the producer pushes the file's bytes.
    var byteInput: any ByteFeedInput { get }
    /// Links the producer the input asks to reposition.
    func attach(_ producer: any ByteFeedProducer)
    /// Starts the demuxer on the file: it asks the producer for the offsets it reads. Called with the
    /// first request, so the decoding chain is built while the first bytes are on the wire.
    func startReading()
    /// The file's length, once the first answer named it (before any of its bytes is pushed, so the
    /// demuxer's size and seeking queries agree); nil when the server did not say.
    func setFileSize(_ size: Int64?)
}
