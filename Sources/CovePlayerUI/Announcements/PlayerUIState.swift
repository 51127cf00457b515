/// What the player UI shows, reduced to what a screen-reader user is told about when it changes.
public struct PlayerUIState: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        case loading
        case playing
        case paused
        case buffering
        case ended
        case failed
    }

    public let status: Status
    /// Position in the content (or in the ad, during an ad).
    public let position: Duration
    public let phase: PlaybackPhase
    /// Title of the caption track shown; nil when captions are off.
    public let captions: String?
    /// Title of the audio track playing; nil when there is no choice.
    public let audio: String?
    /// Title of the bitrate menu entry chosen; nil when there is no menu.
    public let bitrate: String?
    /// Whether a live stream plays at its live edge; nil for on-demand content.
    public let isAtLiveEdge: Bool?

    public init(
        status: Status, position: Duration = .zero, phase: PlaybackPhase = .content, captions: String? = nil,
        audio: String? = nil, bitrate: String? = nil, isAtLiveEdge: Bool? = nil
    ) {
        self.status = status
        self.position = position
        self.phase = phase
        self.captions = captions
        self.audio = audio
        self.bitrate = bitrate
        self.isAtLiveEdge = isAtLiveEdge
    }
}
