/// What a session does at most once, so the loop never does it twice: `Ready` is reported once (a rebuilt
/// pipeline carries on without it), the next video's preload starts once, and `FailedToPlayToEndTime` is
/// reported once per failure — a rebuilt pipeline that loads makes a later failure reportable again.
struct SessionMilestones: Equatable {
    enum Milestone: Hashable, Sendable {
        /// `Ready` was reported: a pipeline loading later is a rebuild, not the session's load.
        case readyReported
        /// The next video's preload was started for this session.
        case preloadStarted
        /// `FailedToPlayToEndTime` was reported and no rebuilt pipeline has loaded since: an automatic resume
        /// may follow it.
        case failedToPlayToEndReported
    }

    private var reached: Set<Milestone> = []

    func has(_ milestone: Milestone) -> Bool { reached.contains(milestone) }

    /// Marks `milestone` reached; false when it already was (what it stands for is not done again).
    mutating func reach(_ milestone: Milestone) -> Bool {
        reached.insert(milestone).inserted
    }

    /// A rebuilt pipeline loaded: playback goes on, and a later failure to play to the end is reported again.
    mutating func rebuiltPipelineLoaded() {
        reached.remove(.failedToPlayToEndReported)
    }
}
