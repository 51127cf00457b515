/// MPRIS's `PlaybackStatus`: what a desktop's "now playing" shows and what PlayPause toggles on.
///
/// Cove has no buffering status here: the spec has none, and a stall keeps the player `playing`.
enum MediaPlayer2PlaybackStatus: String, Sendable, Hashable {
    case playing = "Playing"
    case paused = "Paused"
    /// No video loaded yet, the video ended or failed, or a client pressed Stop.
    case stopped = "Stopped"
}
