/// Where an ad sits in its pod, and what the controls need to show for it.
public struct AdPosition: Sendable, Hashable, CustomStringConvertible {
    /// 1-based position in the pod.
    public let index: Int
    /// Ads in the pod.
    public let count: Int
    /// Time until this ad ends, when known.
    public let timeLeft: Duration?
    /// The ad's click-through URL (VAST `ClickThrough`); "Learn more" is shown only when there is one.
    public let clickThroughURL: String?
    /// The ad may be skipped (VAST `skipoffset`): the skip control is shown, counting down to its offset.
    public let isSkippable: Bool

    /// Throws `invalidAdPosition` unless 1 ≤ index ≤ count and `timeLeft` is not negative.
    public init(index: Int, count: Int, timeLeft: Duration? = nil, clickThroughURL: String? = nil, isSkippable: Bool = false) throws(PlayerUIError) {
        guard count >= 1, (1...count).contains(index) else {
            throw PlayerUIError(.invalidAdPosition, "ad \(index) of \(count): the index must be between 1 and the count")
        }
        if let timeLeft, timeLeft < .zero {
            throw PlayerUIError(.invalidAdPosition, "ad \(index) of \(count) has a negative time left (\(timeLeft))")
        }
        self.index = index
        self.count = count
        self.timeLeft = timeLeft
        self.clickThroughURL = clickThroughURL.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        self.isSkippable = isSkippable
    }

    public var description: String { "ad \(index)/\(count)" }
}

/// What is playing, as far as the controls care.
public enum PlaybackPhase: Sendable, Hashable {
    /// The content (or nothing yet).
    case content
    /// The bumper that plays before the content.
    case bumper
    /// An SSAI ad.
    case ad(AdPosition)

    public var isAd: Bool {
        if case .ad = self { return true }
        return false
    }
}
