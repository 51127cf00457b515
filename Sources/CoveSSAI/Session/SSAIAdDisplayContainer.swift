import CoveCore
import Synchronization

/// A place in the app's UI for a companion banner of a given size (the seed's `BCOVSSAICompanionSlot`).
public struct SSAICompanionSlot: Sendable {
    public let width: Int
    public let height: Int
    /// Shows the companion (nil: clear the slot when its ad ends).
    public let display: @Sendable (VASTCompanion?) -> Void

    public init(width: Int, height: Int, display: @escaping @Sendable (VASTCompanion?) -> Void) {
        self.width = width
        self.height = height
        self.display = display
    }
}

/// The seed's `BCOVSSAIAdComponentDisplayContainer`: add it as a session consumer and it fills the
/// app's companion slots while ads play — each slot gets the ad's companion of exactly its
/// width×height (no scaling, as the seed matches) — and clears them when the ad ends.
public final class SSAIAdDisplayContainer: PlaybackSessionConsumer, Sendable {
    public let companionSlots: [SSAICompanionSlot]
    private let shown = Mutex<Set<Int>>([])

    public init(companionSlots: [SSAICompanionSlot]) {
        self.companionSlots = companionSlots
    }

    public func playbackSession(_ session: PlaybackSession, didEnterAd ad: Ad) {
        guard let ssai = session.ssai, ad.sequenceIndex < ssai.timeline.breaks.count else { return }
        let ads = ssai.timeline.breaks[ad.sequenceIndex].ads
        guard ad.index < ads.count else { return }
        let companions = ads[ad.index].companions
        for (index, slot) in companionSlots.enumerated() {
            if let match = Self.match(slot, in: companions) {
                shown.withLock { _ = $0.insert(index) }
                slot.display(match)
            }
        }
    }

    public func playbackSession(_ session: PlaybackSession, didExitAd ad: Ad) {
        let cleared = shown.withLock { set -> Set<Int> in
            defer { set.removeAll() }
            return set
        }
        for index in cleared.sorted() { companionSlots[index].display(nil) }
    }

    /// The companion of exactly the slot's size, if the ad has one.
    static func match(_ slot: SSAICompanionSlot, in companions: [VASTCompanion]) -> VASTCompanion? {
        companions.first { $0.width == slot.width && $0.height == slot.height }
    }
}
