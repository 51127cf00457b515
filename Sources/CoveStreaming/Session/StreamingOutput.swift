import CoveCore
import Foundation

/// Where a streaming session's media goes: an engine's decoder input (GStreamer's `appsrc`), or a
/// recorder in tests. (The feed's types live in CoveCore, where engines see them: `MediaChunk`,
/// `MediaFeedInput`.)
public typealias StreamingOutput = MediaFeedInput

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
