/// How the player UI behaves (the seed's `BCOVPUIPlayerViewOptions`, the parts that mean something in a
/// terminal). Animation durations, the presenting view controller, poster content mode and the 360
/// gesture limits have no terminal counterpart and are left out.
public struct PlayerUIOptions: Sendable, Hashable {
    /// How far the jump back button seeks back. Seed default: 10 s.
    public let jumpBackInterval: Duration
    /// How long after the last key press the controls hide. Seed default: 3 s.
    public let hideControlsInterval: Duration
    /// Never hide the controls (the seed offers it for audio-only players).
    public let keepControlsVisible: Bool
    /// Pick the supplied layout from the stream's media and video type, ignoring the app's layout.
    public let automaticControlTypeSelection: Bool
    /// Show controls while a bumper plays. Seed default: on.
    public let showBumperControls: Bool
    /// The preferred-bitrate menu (the seed's `preferredBitrateConfig`); nil hides the bitrate button.
    public let bitrateMenu: BitrateMenu?

    /// The seed's defaults.
    public static let standard = PlayerUIOptions(
        unchecked: .seconds(10), hideControlsInterval: .seconds(3), keepControlsVisible: false,
        automaticControlTypeSelection: false, showBumperControls: true, bitrateMenu: nil)

    /// Throws `invalidInterval` when `jumpBackInterval` is not positive or `hideControlsInterval` is negative.
    public init(
        jumpBackInterval: Duration = .seconds(10), hideControlsInterval: Duration = .seconds(3), keepControlsVisible: Bool = false,
        automaticControlTypeSelection: Bool = false, showBumperControls: Bool = true, bitrateMenu: BitrateMenu? = nil
    ) throws(PlayerUIError) {
        guard jumpBackInterval > .zero else {
            throw PlayerUIError(.invalidInterval, "jumpBackInterval must be positive, got \(jumpBackInterval)")
        }
        guard hideControlsInterval >= .zero else {
            throw PlayerUIError(.invalidInterval, "hideControlsInterval must not be negative, got \(hideControlsInterval)")
        }
        self.init(
            unchecked: jumpBackInterval, hideControlsInterval: hideControlsInterval, keepControlsVisible: keepControlsVisible,
            automaticControlTypeSelection: automaticControlTypeSelection, showBumperControls: showBumperControls, bitrateMenu: bitrateMenu)
    }

    private init(
        unchecked jumpBackInterval: Duration, hideControlsInterval: Duration, keepControlsVisible: Bool,
        automaticControlTypeSelection: Bool, showBumperControls: Bool, bitrateMenu: BitrateMenu?
    ) {
        self.jumpBackInterval = jumpBackInterval
        self.hideControlsInterval = hideControlsInterval
        self.keepControlsVisible = keepControlsVisible
        self.automaticControlTypeSelection = automaticControlTypeSelection
        self.showBumperControls = showBumperControls
        self.bitrateMenu = bitrateMenu
    }

    /// The jump back interval in whole seconds, for labels ("Jump back 10 s"); at least 1.
    public var jumpBackSeconds: Int { max(1, Int(jumpBackInterval.components.seconds)) }

    /// How long the controls stay after the last key press; nil when they never hide — with
    /// `keepControlsVisible`, or in the screen-reader mode (as the seed keeps them up under VoiceOver).
    public func controlsHideDelay(screenReaderMode: Bool) -> Duration? {
        keepControlsVisible || screenReaderMode ? nil : hideControlsInterval
    }
}
