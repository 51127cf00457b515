/// When the controls hide and come back (the seed's `hideControlsInterval` / `keepControlsVisible`,
/// Media3's show timeout): they hide a set time after the viewer last touched them, but only while
/// nothing pins them — a pause, an open menu, a scrubbing preview, an ad's countdown, the end.
///
/// Pure and clock-free: times are offsets on whatever monotonic clock the front end reads, so the
/// same rules run under a test's manual clock and a terminal's real one.
public struct ControlsVisibility: Sendable, Hashable {
    /// How long after the last activity the controls hide; nil: they never hide.
    public let hideDelay: Duration?
    /// When the viewer last pressed a key (or the controls were last unpinned).
    public private(set) var lastActivity: Duration
    /// Something on screen needs the controls up.
    public private(set) var isPinned: Bool

    /// Starts shown, counting from `now`.
    public init(hideDelay: Duration?, now: Duration = .zero, pinned: Bool = true) {
        self.hideDelay = hideDelay.flatMap { $0 < .zero ? nil : $0 }
        self.lastActivity = now
        self.isPinned = pinned
    }

    /// `options`' delay (nil with `keepControlsVisible` or in screen-reader mode).
    public init(options: PlayerUIOptions, screenReaderMode: Bool = false, now: Duration = .zero) {
        self.init(hideDelay: options.controlsHideDelay(screenReaderMode: screenReaderMode), now: now)
    }

    /// A key press: the controls show (if hidden) and the hide countdown starts again.
    public mutating func noteActivity(at now: Duration) {
        lastActivity = max(lastActivity, now)
    }

    /// Pins or unpins the controls. Unpinning restarts the countdown, so resuming playback with the
    /// controls up gives the viewer the whole interval before they go.
    public mutating func setPinned(_ pinned: Bool, at now: Duration) {
        if isPinned && !pinned { noteActivity(at: now) }
        isPinned = pinned
    }

    /// When the controls will hide, if nothing happens before then; nil while they cannot hide.
    public var hideDeadline: Duration? {
        guard !isPinned, let hideDelay else { return nil }
        return lastActivity + hideDelay
    }

    public func isShown(at now: Duration) -> Bool {
        guard let hideDeadline else { return true }
        return now < hideDeadline
    }

    /// What pins the controls in a player UI: anything but content (or a bumper) playing with no
    /// menu or preview open.
    public static func isPinned(_ state: ControlBarState, status: PlayerUIState.Status, overlayOpen: Bool) -> Bool {
        overlayOpen || state.phase.isAd || !state.isPlaying || status != .playing
    }
}
