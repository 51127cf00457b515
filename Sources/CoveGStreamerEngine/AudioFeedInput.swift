import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Logging
import Synchronization

/// The fed player's separate audio input (`FeedInput.audio`): a second appsrc that playbin3 reads as its
/// `suburi` (`appsrc://audio`), beside the main source, for a producer's audio stream (an HLS audio
/// rendition, a DASH audio set). Which rendition plays, and switching it, is the producer side's business
/// (`AppSourceFeed.replace(producer:)` keeps the source as it is).
///
/// playbin3 sends a seek only to its main source, so every seek is forwarded here too; and when the
/// audio demuxer relinks (a new transport-stream program) the source alone is restarted where the
/// playhead is (`restart`).
final class AudioFeedInput: Sendable {
    /// The playbin3 `suburi` this input answers to.
    static let uri = "appsrc://audio"

    /// Held until the main source's streams are selected: decodebin3 in GStreamer 1.22 builds its first
    /// streams-selected message (the video alone) under its lock and posts it after releasing it, so when
    /// the rendition's audio arrives at the same moment, playbin3 can handle the audio-and-video selection
    /// first and then the stale video-only one, and remove the audio output for good (the source stops
    /// "not-linked" on every restart). Seen in about 1 start of 15 with DASH's separate audio set.
    let feed = AppSourceFeed(held: true)
    /// How long the audio waits for the main source's selection before it goes anyway. Generous: nothing
    /// plays before the video's first segment is in anyway, and on a slow link (a first segment taking
    /// seconds) audio released early met the stale selection again and never linked.
    private static let holdLimit: Duration = .seconds(10)

    private let logger: Logger
    /// Guards the restart bookkeeping (see `restart`); never held while calling out.
    private let state = Mutex<State>(State())

    private struct State {
        /// When the source was restarted after failing (see `restart`).
        var restarts: [ContinuousClock.Instant] = []
        /// A restart is scheduled for when the last one has settled.
        var restartPending = false
    }

    /// What became of a failure of the audio source.
    enum RestartOutcome {
        /// Restarted now.
        case restarted
        /// Part of the relink a recent restart is settling: one more restart is scheduled for after it.
        case deferred
        /// It keeps failing: the failure is real.
        case exhausted
    }

    /// Errors this soon after a restart belong to the same relink (the demuxer re-exposes its pads once
    /// per program change, and each exposure can stop the source once more).
    private static let settleTime: Duration = .milliseconds(300)
    /// More restarts than this within `restartWindow` means the source is broken: the failure then
    /// reaches the controller, whose retry rebuilds the pipeline, instead of restarting the source
    /// forever (a relink that never succeeds repeats every couple of seconds).
    private static let restartLimit = 6
    private static let restartWindow: Duration = .seconds(30)

    init(logger: Logger) {
        self.logger = logger
    }

    /// The feed starts: the held audio goes at the latest after `holdLimit`.
    func start() {
        // Weakly held: a closed feed is not kept alive (nor touched) by the timer.
        DispatchQueue.global().asyncAfter(deadline: .now() + MediaTime(Self.holdLimit).seconds) { [weak feed] in feed?.release() }
    }

    /// The main source's streams were selected: the rendition's audio may reach the decoders now.
    func releaseInput() {
        feed.release()
    }

    func attach(appsrc: UnsafeMutablePointer<GstElement>, start: Double?, duration: Double?) {
        feed.attach(appsrc: appsrc, start: start)
        feed.setDuration(duration)
    }

    /// The same seek as the main source got (flushing, same seqnum): the audio source restarts there.
    func forward(seek event: UnsafeMutablePointer<GstEvent>) {
        feed.send(event)
    }

    /// Whether `name` is this feed's appsrc (an error's source element).
    func owns(sourceElement name: String) -> Bool { feed.elementName == name }

    /// Restarts the audio source where the playhead is (a flushing seek on it alone). A failure while a
    /// recent restart settles schedules one more restart after it instead of failing; a source that
    /// needs more than `restartLimit` restarts in `restartWindow` fails for real.
    /// `position` and `rate` are read when the restart happens (`fallbackPosition` when the position is
    /// unknown then); once `isClosed` says so, a deferred restart is dropped.
    func restart(
        at position: @escaping @Sendable () -> Double?, fallbackPosition: Double?, decoderOffset: Double,
        rate: @escaping @Sendable () -> Double, isClosed: @escaping @Sendable () -> Bool
    ) -> RestartOutcome {
        enum Step { case now, later(Duration), alreadyScheduled, exhausted }
        let now = ContinuousClock.now
        let step = state.withLock { s -> Step in
            s.restarts = s.restarts.filter { now - $0 < Self.restartWindow }
            if s.restartPending { return .alreadyScheduled }
            guard s.restarts.count < Self.restartLimit else { return .exhausted }
            if let last = s.restarts.last, now - last < Self.settleTime {
                s.restartPending = true
                return .later(Self.settleTime - (now - last))
            }
            s.restarts.append(now)
            return .now
        }
        let seek: @Sendable () -> Bool = { [feed] in
            // Closed meanwhile: nothing to restart.
            guard !isClosed() else { return false }
            let at = position() ?? fallbackPosition ?? 0
            guard let event = cove_make_seek(rate(), AppSourceFeed.nanoseconds(max(at, 0) + decoderOffset), 0) else { return false }
            return feed.send(event)
        }
        switch step {
        case .now:
            return seek() ? .restarted : .exhausted
        case .later(let delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + MediaTime(delay).seconds) { [weak self] in
                guard let self else { return }
                state.withLock { s in
                    s.restartPending = false
                    s.restarts.append(ContinuousClock.now)
                }
                if !seek() { logger.warning("the audio rendition source could not be restarted after its demuxer relinked") }
            }
            return .deferred
        case .alreadyScheduled:
            return .deferred
        case .exhausted:
            return .exhausted
        }
    }

    func close() {
        feed.close()
    }
}
