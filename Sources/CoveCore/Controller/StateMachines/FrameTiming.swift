/// When a presented frame is reported, and as what: the first frame of a play, of a rebuilt pipeline or
/// of a preloaded session that took over, or the first frame after a seek.
///
/// A display shows its prerolled frame before playback starts, so a starting frame can arrive before
/// `Play`: it is held and reported right after `Play` (keeping the lifecycle order), stamped with the
/// time the viewer saw it — the frame's own time, or `Play`'s when a pause came in between.
struct FrameTiming: Equatable {
    enum Event: Equatable {
        /// The engine presented a frame at `wallTime`. `playRequested`/`isPlaying` are the session's
        /// playback state; a bumper playing first owns the first frame.
        case presented(wallTime: Double, playRequested: Bool, isPlaying: Bool, bumperPlaying: Bool)
        /// The app paused: a held frame will be seen when playback starts, not when it was prerolled.
        case pauseRequested
        /// Playback started (the controller reported `Play`) at `now`.
        case playStarted(now: Double)
        /// A seek was sent: once the first frame has been reported, the next frame is the seek's.
        case seekIssued
        /// A seek failed, or the media ended during it: no seek frame will come.
        case seekAbandoned
        /// The pipeline was replaced: a frame it held never played.
        case pipelineReplaced
        /// A rebuilt pipeline (a retry, a resume, a seek by rebuilding) loaded: its first frame is the resume frame.
        case rebuiltPipelineLoaded
        /// A preloaded session took over at the end of the previous one.
        case preloadTookOver
    }

    /// The session's first frame was reported (or is held to be).
    private(set) var reportedFirstFrame = false
    private var held: FramePresentation?
    private var heldIsStale = false
    private var awaitingSeekFrame = false
    private var awaitingResumeFrame = false
    private var awaitingTransitionFrame = false

    /// Takes an event; returns the frame to report now, if any.
    mutating func handle(_ event: Event) -> FramePresentation? {
        switch event {
        case .presented(let wallTime, let playRequested, let isPlaying, let bumperPlaying):
            if awaitingTransitionFrame && playRequested {
                awaitingTransitionFrame = false
                reportedFirstFrame = true
                return starting(FramePresentation(cause: .transition, wallTime: wallTime), isPlaying: isPlaying)
            }
            if awaitingResumeFrame && playRequested {
                awaitingResumeFrame = false
                awaitingSeekFrame = false
                return starting(FramePresentation(cause: .resume, wallTime: wallTime), isPlaying: isPlaying)
            }
            if !reportedFirstFrame && playRequested && !bumperPlaying {
                reportedFirstFrame = true
                awaitingSeekFrame = false
                return starting(FramePresentation(cause: .start, wallTime: wallTime), isPlaying: isPlaying)
            }
            if awaitingSeekFrame {
                awaitingSeekFrame = false
                return FramePresentation(cause: .seek, wallTime: wallTime)
            }
            return nil
        case .pauseRequested:
            if held != nil { heldIsStale = true }
            return nil
        case .playStarted(let now):
            guard let frame = held else { return nil }
            held = nil
            defer { heldIsStale = false }
            return FramePresentation(cause: frame.cause, wallTime: heldIsStale ? now : frame.wallTime)
        case .seekIssued:
            awaitingSeekFrame = reportedFirstFrame
            return nil
        case .seekAbandoned:
            awaitingSeekFrame = false
            return nil
        case .pipelineReplaced:
            // The dead pipeline's frame never played: the new pipeline's first frame stands in for it.
            if let frame = held {
                held = nil
                if frame.cause == .start { reportedFirstFrame = false }
            }
            return nil
        case .rebuiltPipelineLoaded:
            awaitingResumeFrame = true
            return nil
        case .preloadTookOver:
            awaitingTransitionFrame = true
            return nil
        }
    }

    /// A frame that starts playback: reported now while playing, else held for `Play`.
    private mutating func starting(_ frame: FramePresentation, isPlaying: Bool) -> FramePresentation? {
        if isPlaying { return frame }
        held = frame
        heldIsStale = false
        return nil
    }
}
