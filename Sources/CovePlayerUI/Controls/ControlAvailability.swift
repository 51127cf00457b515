/// Which controls are shown and usable in a playback phase: content, a bumper, or an SSAI ad.
///
/// - Content: everything but the ad controls.
/// - SSAI ad: seeking is off (slider, jump back and "go to live" disabled, as the seed's `ssai_canSeek`
///   is NO during an ad); the "Ad n of m" countdown is shown; "Learn more" only when the ad has a
///   click-through; the skip control only when the ad is skippable (VAST `skipoffset`; it counts down to
///   the offset, then skips: the SSAI plugin seeks past the rest of the ad).
/// - Bumper (the seed's bumper look): no seeking, no jump back button, no buffer shown on the slider,
///   and the slider drawn in the bumper style; with `showBumperControls` off no controls at all.
public struct ControlAvailability: Sendable, Hashable {
    /// How the renderer draws the slider.
    public enum ProgressStyle: String, Sendable, Hashable {
        case content
        /// Ad progress: the ad's own timeline.
        case ad
        /// The seed draws it purple.
        case bumper
    }

    public let phase: PlaybackPhase
    /// False hides the whole control bar.
    public let areControlsShown: Bool
    /// Tags never drawn in this phase (removed from the layout).
    public let hidden: Set<ControlTag>
    /// Tags drawn but not usable.
    public let disabled: Set<ControlTag>
    /// Tags this phase needs drawn even if the layout has them removed (the ad countdown; "Learn more"
    /// when there is a click-through).
    public let revealed: Set<ControlTag>
    public let isSeekingAllowed: Bool
    /// Whether the slider shows how much is buffered.
    public let showsBufferProgress: Bool
    public let progressStyle: ProgressStyle
    /// Where "Learn more" goes.
    public let learnMoreURL: String?

    private static let adControls: Set<ControlTag> = [.adPodCountdown, .learnMore, .skip, .skipAdCountdown]
    private static let seekingControls: Set<ControlTag> = [.progress, .jumpBack, .live]

    public init(phase: PlaybackPhase, options: PlayerUIOptions = .standard) {
        self.phase = phase
        switch phase {
        case .content:
            areControlsShown = true
            hidden = Self.adControls
            disabled = []
            revealed = []
            isSeekingAllowed = true
            showsBufferProgress = true
            progressStyle = .content
            learnMoreURL = nil
        case .bumper:
            areControlsShown = options.showBumperControls
            hidden = Self.adControls.union([.jumpBack])
            disabled = [.progress, .live]
            revealed = []
            isSeekingAllowed = false
            showsBufferProgress = false
            progressStyle = .bumper
            learnMoreURL = nil
        case .ad(let ad):
            areControlsShown = true
            learnMoreURL = ad.clickThroughURL
            // Skip shows only for a skippable ad (VAST skipoffset: it counts down, then skips); "Learn more"
            // only with a click-through.
            var hiddenInAd: Set<ControlTag> = ad.isSkippable ? [.skipAdCountdown] : [.skip, .skipAdCountdown]
            var revealedInAd: Set<ControlTag> = ad.isSkippable ? [.adPodCountdown, .skip] : [.adPodCountdown]
            if ad.clickThroughURL == nil { hiddenInAd.insert(.learnMore) } else { revealedInAd.insert(.learnMore) }
            hidden = hiddenInAd
            disabled = Self.seekingControls
            revealed = revealedInAd
            isSeekingAllowed = false
            showsBufferProgress = false
            progressStyle = .ad
        }
    }

    public func isVisible(_ tag: ControlTag) -> Bool { areControlsShown && !hidden.contains(tag) }

    public func isEnabled(_ tag: ControlTag) -> Bool { isVisible(tag) && !disabled.contains(tag) }

    /// `layout` as this phase shows it: hidden tags removed, revealed tags restored, or no bars at all
    /// when controls are not shown. Disabled controls stay in place (the renderer dims them).
    public func applied(to layout: ControlLayout) -> ControlLayout {
        guard areControlsShown else { return .empty }
        var result = layout
        for tag in hidden.sorted(by: { $0.description < $1.description }) {
            result = result.settingRemoved(true, for: tag)
        }
        for tag in revealed.sorted(by: { $0.description < $1.description }) {
            result = result.settingRemoved(false, for: tag)
        }
        return result
    }
}
