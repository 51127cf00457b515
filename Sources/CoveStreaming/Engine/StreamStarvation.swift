/// Whether Cove's streaming has run dry under the playhead: the buffering Cove reports from what it
/// pushed (an engine fed through appsrc-like inputs reports no buffering of its own).
///
/// 0 % when the playhead has reached the end of the pushed media and stopped there (a real stall: the
/// demuxer holds a segment's last frame until more data comes, so "reached" is within `starvation`) —
/// or, with a separate audio source (a DASH audio set, an HLS rendition), when one stream has had
/// nothing ahead of the playhead for `overrun` while the other's clock went on: the picture froze while
/// the sound played (or the reverse). 100 % once `refilled` seconds of media (or the end) are there again.
///
/// A value kept in the streaming player's state (under its lock), changed by the buffer check
/// (`StreamingPlayer.checkBuffer`); times are wall seconds.
struct StreamStarvation {
    /// Media left at the playhead when it stops: at most the frames the demuxer still holds.
    static let starvation = 0.3
    /// How long one stream may have nothing ahead of a moving playhead (a segment's media can outlast its
    /// nominal duration by a frame or two) before the other stream's clock is known to run without it.
    static let overrun = 0.25
    /// How long the playhead must stand still near the end of the pushed media to count as stalled.
    static let frozen = 0.2
    /// Media buffered again before a stalled stream plays on.
    static let refilled = 1.0

    /// The stream ran dry while playing (0 % reported), waiting for media.
    var isStarved = false
    /// Since when one of two streams has had nothing ahead of the playhead.
    private(set) var drySince: Double?
    /// The streaming playhead last seen by the buffer check, and since when it has not moved.
    private(set) var playhead: (position: Double, since: Double)?

    /// Whether the playhead has stood still at `playhead` for `frozen` by `now`; a moved (or unknown)
    /// playhead is remembered from now on.
    mutating func playheadIsFrozen(at playhead: Double?, now: Double) -> Bool {
        guard let playhead, let last = self.playhead, abs(last.position - playhead) < 0.001 else {
            self.playhead = playhead.map { ($0, now) }
            return false
        }
        return now - last.since >= Self.frozen
    }

    /// With a separate audio source, whether one stream has had nothing `ahead` of the playhead for
    /// `overrun` by `now`.
    mutating func hasOverrun(separateAudio: Bool, ahead: Double, now: Double) -> Bool {
        guard separateAudio, ahead <= 0 else {
            drySince = nil
            return false
        }
        if drySince == nil { drySince = now }
        return now - (drySince ?? now) >= Self.overrun
    }

    /// Whether the media ahead of a playing stream that has not ended counts as run dry.
    static func runsDry(ahead: Double, frozen: Bool, overrun: Bool, ended: Bool) -> Bool {
        !ended && ((ahead < starvation && frozen) || overrun)
    }

    /// Whether a starved stream has media (or its end) again.
    static func isRefilled(ahead: Double, ended: Bool) -> Bool {
        ended || ahead >= refilled
    }
}
