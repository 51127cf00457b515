/// Whether playback ran dry and whether it can refill: one watch for the content and one for the bumper.
///
/// Normal playback that the viewer wants and that runs out of data is a stall (load and seek buffering
/// are not: they have their own `BufferEmpty`/`LikelyToKeepUp` pairs). Segment downloads that failed are
/// not fatal at once — buffered media keeps playing — but a stall after them cannot end by itself.
struct StallWatch: Equatable {
    /// Ran dry during normal playback and has not refilled.
    private(set) var isStalled = false
    /// The engine's latest buffering level (0–100), whatever the state; nil on a new pipeline.
    private(set) var bufferingPercent: Int?
    /// The first segment-download failure of the current pipeline.
    private(set) var downloadFailure: PlaybackError?

    enum Event: Equatable {
        /// The engine's buffering level. `counts`: normal playback (loaded, not seeking, played before);
        /// `wanted`: the viewer wants it to play.
        case buffering(Int, counts: Bool, wanted: Bool)
        /// Segment downloads failed.
        case downloadFailed(PlaybackError)
        /// The pipeline died while playing (a retry is about to rebuild it): to the viewer, a stall.
        case pipelineDied(wanted: Bool)
        /// A new pipeline replaced the old: nothing buffered yet and no failure (a stall goes on until it plays).
        case pipelineReplaced
        /// The rebuilt pipeline loaded: its downloads work, and playback has data again.
        case rebuiltPipelineLoaded
        /// A seek finished, so the gap is behind the playhead.
        case seekFinished
        /// The media ended: nothing more to wait for.
        case reachedEnd
    }

    enum Effect: Equatable {
        /// Ran dry: report the stall; with a `failure`, downloads had died and it cannot refill by itself.
        case stalled(failure: PlaybackError?)
        /// Refilled after a stall.
        case recovered
        /// Downloads failed for the first time on this pipeline; `whileStalled`: playback cannot go on now.
        case downloadFailed(PlaybackError, whileStalled: Bool)
    }

    /// Takes an event; returns what the loop must do, if anything.
    mutating func handle(_ event: Event) -> Effect? {
        switch event {
        case .buffering(let percent, let counts, let wanted):
            bufferingPercent = percent
            guard counts else { return nil }
            if percent == 0 && !isStalled && wanted {
                isStalled = true
                return .stalled(failure: downloadFailure)
            }
            if percent >= 100 && isStalled {
                isStalled = false
                return .recovered
            }
            return nil
        case .downloadFailed(let error):
            guard downloadFailure == nil else { return nil }
            downloadFailure = error
            return .downloadFailed(error, whileStalled: isStalled)
        case .pipelineDied(let wanted):
            guard !isStalled && wanted else { return nil }
            isStalled = true
            return .stalled(failure: nil)
        case .pipelineReplaced:
            downloadFailure = nil
            bufferingPercent = nil
            return nil
        case .rebuiltPipelineLoaded:
            downloadFailure = nil
            return refilled()
        case .seekFinished:
            return refilled()
        case .reachedEnd:
            isStalled = false
            return nil
        }
    }

    private mutating func refilled() -> Effect? {
        guard isStalled else { return nil }
        isStalled = false
        return .recovered
    }
}
