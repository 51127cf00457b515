/// When the controller prepares the next video of the queue while the current one plays (the older
/// seed README's `BCOVBasicSessionLoadingPolicy`).
///
/// Preloading builds the next session's engine pipeline and prerolls it, paused, so the transition is
/// (nearly) gapless; it costs a second pipeline's memory and bandwidth while both exist, which is why
/// the default is never.
public struct SessionPreloadingPolicy: Sendable, Hashable {
    /// The share of the current video after which the next one is preloaded; nil: never.
    public let progressPercentage: Double?

    /// Never preload (the default).
    public static let never = SessionPreloadingPolicy(progressPercentage: nil)

    /// Preload once the current video has played `percentage` % of its duration. Values outside
    /// 0…100 (and NaN) mean never, as in the seed.
    public static func withProgressPercentage(_ percentage: Double) -> SessionPreloadingPolicy {
        guard percentage.isFinite, (0...100).contains(percentage) else { return .never }
        return SessionPreloadingPolicy(progressPercentage: percentage)
    }

    private init(progressPercentage: Double?) {
        self.progressPercentage = progressPercentage
    }

    /// True once `position` of `duration` is past the threshold (never for live or unknown durations).
    func shouldPreload(position: MediaTime, duration: MediaTime?) -> Bool {
        guard let percentage = progressPercentage, let duration, duration.isFinite, position.isFinite, duration.seconds > 0 else { return false }
        return position.seconds / duration.seconds * 100 >= percentage
    }
}
