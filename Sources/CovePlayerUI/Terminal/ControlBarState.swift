/// What the control bar shows at one moment: the renderer draws exactly this, so a front end
/// keeps one value up to date from the controller's events and redraws when it changes.
public struct ControlBarState: Sendable, Hashable {
    public var isPlaying: Bool
    /// Content time (what the app's progress reports say).
    public var position: Duration
    /// Content duration; nil when unknown or live.
    public var duration: Duration?
    public var phase: PlaybackPhase
    /// A caption track is selected.
    public var captionsOn: Bool
    /// What the bitrate control says ("Auto", "720p").
    public var bitrateLabel: String
    /// Live streams: at the live edge (the live control reads "Live"), else "Go to live".
    public var isAtLiveEdge: Bool
    /// During a skippable ad: how long until it can be skipped (zero: now).
    public var skipIn: Duration?
    /// Seeking is available now (`PlayerCommand.seek`); off, the jump-back control is drawn dimmed.
    public var canSeek: Bool

    public init(
        isPlaying: Bool = false, position: Duration = .zero, duration: Duration? = nil, phase: PlaybackPhase = .content,
        captionsOn: Bool = false, bitrateLabel: String = "Auto", isAtLiveEdge: Bool = true, skipIn: Duration? = nil, canSeek: Bool = true
    ) {
        self.isPlaying = isPlaying
        self.position = position
        self.duration = duration
        self.phase = phase
        self.captionsOn = captionsOn
        self.bitrateLabel = bitrateLabel
        self.isAtLiveEdge = isAtLiveEdge
        self.skipIn = skipIn
        self.canSeek = canSeek
    }
}
