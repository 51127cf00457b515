import CoveCore
import CovePlayerUI
import Foundation

/// What a viewer asks the controls to do, whatever the input was: a key in a terminal, a click on the
/// picture, a remote control's Enter on the focused control, a media key.
public enum ControlAction: Sendable, Hashable {
    case togglePlayback
    case play
    case pause
    /// Arrow keys: ahead or back by this much (live DVR: inside the window, short of the live position).
    case seekBy(Duration)
    /// The jump back control (`PlayerUIOptions.jumpBackInterval`).
    case jumpBack
    /// A click or a drag on the progress bar: this fraction of it (the content, or a DVR window).
    case seekToFraction(Double)
    /// Content time (a scrubbing preview's).
    case seekTo(Duration)
    case goToLive
    case selectAudioTrack(MediaTrack)
    case selectTextTrack(MediaTrack?)
    case selectBitrate(BitrateOption)
    case changeVolume(by: Double)
    case setVolume(Double)
    case toggleMute
    case changeRate(by: Double)
    case skipAd
    case learnMore
}

/// What the front end shows or does after an action, beyond what the events will say.
public enum ControlFeedback: Sendable, Hashable {
    /// A short message for the viewer ("Captions: French", "🔈 50 %").
    case message(String)
    /// The ad's click-through: the front end opens it (a browser) and may say so.
    case openURL(URL, message: String)
}
