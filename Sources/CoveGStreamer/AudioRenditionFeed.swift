import CCoveGst
import CGStreamer
import CoveCore
import CoveStreaming
import Foundation
import Logging
import Synchronization

/// A stream's alternate audio renditions (HLS `EXT-X-MEDIA:TYPE=AUDIO` with playlists of their own, DASH
/// audio adaptation sets),
/// streamed by Cove into a second appsrc that playbin3 reads as its `suburi` (`appsrc://audio`), beside
/// the variant's video in the main one.
///
/// The renditions are the audio tracks apps see (`cove-audio-N`); GStreamer sees one audio stream, the
/// one this feed plays. Switching language replaces the rendition's session and repositions the audio
/// source at the playhead (as Shaka switches an audio stream). playbin3 sends a seek only to its main
/// source, so every seek is forwarded here too.
final class AudioRenditionFeed: @unchecked Sendable {
    /// The playbin3 `suburi` this feed answers to.
    static let uri = "appsrc://audio"

    let tracks: [(track: EngineTrack, rendition: AlternateRendition)]
    /// Held until the main source's streams are selected: decodebin3 in GStreamer 1.22 builds its first
    /// streams-selected message (the video alone) under its lock and posts it after releasing it, so when
    /// the rendition's audio arrives at the same moment, playbin3 can handle the audio-and-video selection
    /// first and then the stale video-only one, and remove the audio output for good (the source stops
    /// "not-linked" on every restart). Seen in about 1 start of 15 with DASH's separate audio set.
    private let feed = AppSourceFeed(held: true)
    /// How long the audio waits for the main source's selection before it goes anyway. Generous: nothing
    /// plays before the video's first segment is in anyway, and on a slow link (a first segment taking
    /// seconds) audio released early met the stale selection again and never linked.
    private static let holdLimit: Duration = .seconds(10)

    private let transport: any HTTPTransport
    /// The presentation the renditions belong to: whether they may read local files is its to say.
    private let manifestURL: URL
    private let configuration: StreamingConfiguration
    private let logger: Logger
    private let onEvent: @Sendable (StreamingEvent) -> Void
    private let state = Mutex<State>(State())

    private struct State {
        var selected: String?
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

    /// nil when the presentation's first variant has no audio renditions with playlists.
    init?(
        presentation: Presentation, transport: any HTTPTransport, configuration: StreamingConfiguration, logger: Logger,
        playhead: @escaping @Sendable () -> Double?, onEvent: @escaping @Sendable (StreamingEvent) -> Void
    ) {
        let group = presentation.variants.first?.audioGroup
        let renditions = presentation.audioRenditions.enumerated().filter { $0.element.playlistURL != nil && $0.element.groupID == group }
        guard !renditions.isEmpty else { return nil }
        tracks = renditions.map { index, rendition in
            (EngineTrack(id: "cove-audio-\(index)", kind: .audio, language: rendition.language, title: rendition.name), rendition)
        }
        self.transport = transport
        self.configuration = configuration
        self.manifestURL = presentation.manifestURL
        self.logger = logger
        self.onEvent = onEvent
        let preferred = tracks.first { $0.rendition.isDefault } ?? tracks[0]
        state.withLock { $0.selected = preferred.track.id }
        feed.attach(session: makeSession(for: preferred.rendition), playhead: playhead)
    }

    var selected: String? { state.withLock { $0.selected } }
    var session: StreamingSession? { feed.session }

    private func makeSession(for rendition: AlternateRendition, firstGeneration: Int = 0) -> StreamingSession {
        StreamingSession(
            url: rendition.playlistURL!, selection: rendition.selection, transport: transport, configuration: configuration, output: feed, logger: logger,
            firstGeneration: firstGeneration, origin: manifestURL, stream: .audio, onEvent: onEvent
        )
    }

    /// Starts the selected rendition at `position` (where the video starts).
    func start(at position: Double) {
        feed.session?.start(at: position)
        // Weakly held: a closed feed is not kept alive (nor touched) by the timer.
        DispatchQueue.global().asyncAfter(deadline: .now() + MediaTime(Self.holdLimit).seconds) { [weak feed] in feed?.release() }
    }

    /// The main source's streams were selected: the rendition's audio may reach the decoders now.
    func releaseInput() {
        feed.release()
    }

    func attach(appsrc: UnsafeMutablePointer<GstElement>, start: Double?) {
        feed.attach(appsrc: appsrc, start: start)
        feed.setDuration(feed.session?.duration)
    }

    /// The same seek as the main source got (flushing, same seqnum): the audio source restarts there.
    func forward(seek event: UnsafeMutablePointer<GstEvent>) {
        feed.send(event)
    }

    /// Switches to the rendition `id`: the new rendition's segments follow what the old one already pushed,
    /// into the same source, without a flush (a flush of the audio source alone restarts its demuxer on
    /// a new program while data flows, and it stops "not-linked"); the new language is heard once the
    /// media already buffered has played — as a variant switch is seen. False when `id` is not one of
    /// these renditions.
    func select(_ id: String, at position: Double?, decoderOffset: Double, rate: Double) -> Bool {
        guard let rendition = tracks.first(where: { $0.track.id == id })?.rendition else { return false }
        let changed = state.withLock { s -> Bool in
            defer { s.selected = id }
            return s.selected != id
        }
        guard changed else { return true }
        let old = feed.session
        let continueAt = old?.pushedEnd ?? max(position ?? 0, 0)
        // The new session's first generation is the old one's current: chunks of both pass the source's
        // generation filter, in push order (the old ones first), and no seek is needed.
        // Started before it replaces the old one, so the feed's current generation never changes.
        let session = makeSession(for: rendition, firstGeneration: (old?.generation ?? 1) - 1)
        session.start(at: continueAt)
        feed.replace(session: session)
        return true
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
