/// A command the controller can carry out right now (Media3's `Player.Command`). A UI enables a
/// control only while its command is available, instead of re-deriving the rules itself: no seeking in
/// a bumper, during an SSAI ad or in live without a DVR window; no rate change during ads; track
/// menus only when there is a choice; skipping only a skippable ad past its offset.
///
/// Read `PlaybackController.availableCommands`; `availableCommandsChanged` reports each change, in
/// order with the events that caused it.
public enum PlayerCommand: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `play()` (before `Ready` it is remembered and playback starts once the media is loaded).
    case play
    case pause
    /// `seek(to:)` within the current video.
    case seek
    /// `playbackRate`.
    case changeRate
    /// `volume` and `isMuted`.
    case setVolume
    /// `PlaybackSession.selectAudioTrack` (there is more than one audio track).
    case selectAudioTrack
    /// `PlaybackSession.selectTextTrack` (there is a text track, or one is selected).
    case selectTextTrack
    /// `advanceToNext()` (the queue has a next video).
    case advanceToNext
    /// Skipping the ad playing now (a plugin's API, e.g. `SSAISession.skipAd()`).
    case skipAd

    public var description: String { rawValue }
}
