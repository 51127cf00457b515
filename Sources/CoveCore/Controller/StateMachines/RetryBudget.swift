/// How many attempts a failure episode has used, and when it is over.
///
/// An episode's rebuild attempts follow the `RetryPolicy` (back-off with jitter, a maximum); once they
/// are used up, automatic-resume probes (if the policy has them) take over at their own interval. Playing
/// a few seconds past the point where a rebuilt pipeline loaded ends the episode: the next failure starts
/// again from attempt 1.
struct RetryBudget: Equatable {
    /// Rebuild attempts used in the current episode.
    private(set) var attempts = 0
    /// Automatic-resume probes used since playback last loaded.
    private(set) var automaticResumes = 0
    /// Once progress passes this, the episode is over.
    private(set) var resetPosition: MediaTime?

    /// How far past a rebuilt pipeline's start playback must get to end the episode.
    static let recoveryDistance = Duration.seconds(5)

    enum Event: Equatable {
        /// A failure the policy may retry; `random` (0..<1) is the jitter's draw.
        case failed(PlaybackError, policy: RetryPolicy, random: Double)
        /// Retries are used up; the policy may probe for the network's return.
        case gaveUp(PlaybackError, policy: RetryPolicy)
        /// A pipeline (rebuilt or resumed) loaded at `position`.
        case loaded(at: MediaTime)
        /// Playback progressed to `position`.
        case progressed(to: MediaTime)
    }

    enum Effect: Equatable {
        /// Rebuild after `delay`: attempt `attempt` of `maximum`.
        case retry(attempt: Int, maximum: Int, delay: Duration)
        /// Probe (resume automatically) after `interval`: probe `attempt` of `maximum` (nil: no limit).
        case probe(attempt: Int, maximum: Int?, interval: Duration)
    }

    /// The episode has used at least one attempt: a new failure means the network is still bad.
    var isInEpisode: Bool { attempts > 0 }

    /// Takes an event; returns the attempt to schedule, or nil (give up, or nothing to do).
    mutating func handle(_ event: Event) -> Effect? {
        switch event {
        case .failed(let error, let policy, let random):
            guard policy.isRetryable(error), attempts < policy.maximumAttempts else { return nil }
            attempts += 1
            return .retry(attempt: attempts, maximum: policy.maximumAttempts, delay: policy.delay(beforeAttempt: attempts, random: random))
        case .gaveUp(let error, let policy):
            guard let automatic = policy.automaticResume, policy.isRetryable(error) else { return nil }
            if let limit = automatic.maximumAttempts, automaticResumes >= limit { return nil }
            automaticResumes += 1
            return .probe(attempt: automaticResumes, maximum: automatic.maximumAttempts, interval: automatic.interval)
        case .loaded(let position):
            automaticResumes = 0
            resetPosition = position.advanced(by: Self.recoveryDistance)
            return nil
        case .progressed(let position):
            if let reset = resetPosition, position >= reset {
                resetPosition = nil
                attempts = 0
            }
            return nil
        }
    }
}
