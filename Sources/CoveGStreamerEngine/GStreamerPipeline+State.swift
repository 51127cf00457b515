import CGStreamer
import CoveCore

/// What the pipeline's threads share, and the handlers it connected.
///
/// `State` lives only inside `GStreamerPipeline.state` (a `Mutex`): streaming threads (probes,
/// handoffs, signals), the bus thread, callers' threads and the producer's tasks all read and
/// write it there, in short critical sections that never call into GStreamer.
extension GStreamerPipeline {
    /// A signal handler connected on a sink (each holds a reference to its sink, dropped at teardown).
    struct RenderHandler: Sendable {
        let sink: ElementRef
        let kind: EngineTrack.Kind
        let id: gulong
        /// The video sink's `preroll-handoff`: the frame a display sink would show before the clock runs.
        let prerollID: gulong?
    }

    /// What streaming threads and the bus thread share.
    struct State {
        var closed = false
        var wantsPlaying = false
        var prerolled = false
        /// The pipeline is at PLAYING (its state-changed message said so, or a sink rendered a frame).
        var pipelineAtPlaying = false
        /// nil until the stream collection says whether there is video.
        var expectsVideo: Bool?
        /// Set after a load or a flush: the next relevant buffer at a sink is a "first frame".
        var awaitingBuffer = true
        /// Wall time of a first frame that arrived before the pipeline was playing.
        var frameWaitingForPlaying: Double?
        /// Wall time the first frame at the start position was shown at preroll (see `sinkPrerolled`),
        /// until the load finishes and it can be reported after `prerolled`.
        var shownAtPreroll: Double?
        /// The app's seek the engine is executing; completed by the ASYNC_DONE carrying its seqnum.
        var pendingSeek: (id: Int, target: MediaTime, seqnum: UInt32)?
        /// The internal seek to `startPosition` (and initial rate): its seqnum, while it is in flight.
        var startSeekSeqnum: UInt32?
        /// Flushes seen at the sinks, and the seqnum of the latest (a seek's seqnum travels with its flush).
        var flushGeneration = 0
        var lastFlushSeqnum: UInt32?
        /// `flushGeneration` when end-of-stream last reached a sink: an EOS message is stale once a flush followed it.
        var eosGeneration = 0
        /// The rate of the latest seek (the pipeline plays at 1.0 until one sets another).
        var appliedRate = 1.0
        /// `appliedRate` before the latest seek: what the pipeline still plays at if that seek is refused.
        var rateBeforeSeek = 1.0
        var rate: Double
        var failed = false
        var lastBufferingSent = -1
        /// Which of the picture and sound reached end-of-stream since the flush `generation`.
        var mediaEndedKinds: (generation: Int, kinds: Set<EngineTrack.Kind>) = (0, [])
        /// The flush generation whose end of stream was reported (-1: none yet).
        var endReportedGeneration = -1
        var httpStatusByURI: [String: Int] = [:]
        var lastHTTPError: Int?
        var videoSize: (width: Int, height: Int)?
        /// GStreamer's streams and Cove's subtitle renditions, and which of them play.
        var tracks = TrackCollections()
        /// Signal handlers connected on the playbin.
        var signalHandlers: [gulong] = []
        /// Handoff handlers on headless sinks (each holds a reference to its sink).
        var renderHandlers: [RenderHandler] = []
        /// Kinds whose frames are timed by sink render handoffs rather than buffer arrival.
        var renderTimedKinds: Set<EngineTrack.Kind> { Set(renderHandlers.map(\.kind).filter { $0 != .text }) }
        /// Subtitle cues handed to the text sink, waiting for the bus thread to report them.
        var pendingCues: [TextCue] = []
        var bytesRead = 0
        /// GStreamer made this adaptive demuxer for a manifest behind a media file's name (see `manifestBehindMediaName`).
        var disguisedManifest: String?
        /// Fed: where the feed starts (presentation time), once the producer said; the pipeline leaves
        /// NULL only then.
        var feedStart: Double?
        /// Fed: the presentation's duration as the producer said (nil: unknown or live).
        var feedDuration: Double?
        /// Fed: the separate audio input, read by playbin3 as its `suburi`.
        var audio: AudioFeedInput?
        /// Stream time (ns) up to which media reached each sink since the last flush.
        var sinkEnds: [EngineTrack.Kind: Int64] = [:]

        init(rate: Double) {
            self.rate = rate
        }
    }
}
