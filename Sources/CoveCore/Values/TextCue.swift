/// One cue of timed text (a caption or subtitle line) on the media timeline.
public struct TextCue: Sendable, Hashable {
    public let identifier: String?
    public let start: MediaTime
    public let end: MediaTime
    /// The text to show (markup stripped unless the track was loaded with it kept).
    public let text: String
    /// The cue's raw settings (WebVTT `align:start line:90%`), empty when none.
    public let settings: String

    public init(identifier: String? = nil, start: MediaTime, end: MediaTime, text: String, settings: String = "") {
        self.identifier = identifier
        self.start = start
        self.end = end
        self.text = text
        self.settings = settings
    }
}

/// Cues indexed by time. Parsers provide it (CoveText's WebVTT documents); the controller only asks
/// which cues are active and when that can next change, so it never depends on a caption format.
public protocol TimedTextCues: Sendable {
    /// The cues with start ≤ `time` < end.
    func cues(at time: MediaTime) -> [TextCue]
    /// The first cue start or end after `time`: when `cues(at:)` can next change (nil: never again).
    func nextChange(after time: MediaTime) -> MediaTime?
}

/// The active cues of the selected text track changed (the seed's sidecar plugin draws these).
public struct TextCueChange: Sendable, Hashable {
    /// The track the cues come from.
    public let track: MediaTrack
    /// The cues active at `position`, in start order; empty when the last one ended.
    public let cues: [TextCue]
    /// The content position the set was computed for.
    public let position: MediaTime

    public init(track: MediaTrack, cues: [TextCue], position: MediaTime) {
        self.track = track
        self.cues = cues
        self.position = position
    }
}
