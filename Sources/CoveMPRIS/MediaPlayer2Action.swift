import CoveCore
import Foundation

/// What the service does with a controller (or the app) for a request: the output of the pure
/// planner, carried out by `MediaPlayer2Router`.
enum MediaPlayer2Action: Sendable, Hashable {
    case play
    case pause
    case seek(MediaTime)
    case advanceToNext
    case setVolume(Double)
    case setRate(Double)
    /// Replace the queue with this URL and play it (`OpenUri`).
    case open(URL)
    case raise
    case quit
    /// The spec says to do nothing (a stale track ID, a position past the end, no next video); the
    /// reason goes to the log instead of being dropped silently.
    case ignore(String)
}
