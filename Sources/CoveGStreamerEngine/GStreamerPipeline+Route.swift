import CoveCore
import Foundation

/// Who fetches the media, and what follows from it: where decoder time stands against presentation time,
/// and whether a start position needs a seek.
///
/// Pure decisions: safe from any thread.
extension GStreamerPipeline {
    /// Who fetches the media.
    enum Route: Equatable {
        /// A producer above the engine (Cove's streaming) pushes into `appsrc://`.
        case fed
        /// GStreamer reads the URL itself: a local media file.
        case reading
        /// A media file whose bytes a producer above the engine (Cove's progressive loader) pushes into
        /// `appsrc://` at the offsets the demuxer asks for; everything else as `reading`.
        case bytes
    }

    /// A producer feeds this pipeline (the engine only demuxes, decodes and renders).
    var isFed: Bool { route == .fed }

    /// The demuxer reads a whole file (by itself, or through a byte feed): GStreamer's own timeline,
    /// seeks and duration apply.
    var readsAFile: Bool { route != .fed }

    /// Decoder time minus presentation time: a producer may place media `decoderTimeOffset` later (see
    /// `MediaFeedProducer.decoderTimeOffset`); GStreamer's own reading places it as it is.
    var decoderOffset: Double {
        feed?.producer?.decoderTimeOffset ?? 0
    }

    /// A start at a position needs a seek once prerolled, unless the feed starts the source there.
    var needsStartSeek: Bool {
        readsAFile && (configuration.startPosition.map { $0 > .zero && $0.isFinite } ?? false)
    }
}
