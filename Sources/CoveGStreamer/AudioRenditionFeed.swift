import CCoveGst
import CGStreamer
import CoveCore
import CoveStreaming
import Foundation
import Logging
import Synchronization

/// An HLS stream's alternate audio renditions (`EXT-X-MEDIA:TYPE=AUDIO` with playlists of their own),
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
    private let feed = AppSourceFeed()
    private let transport: any HTTPTransport
    private let configuration: StreamingConfiguration
    private let logger: Logger
    private let onEvent: @Sendable (StreamingEvent) -> Void
    private let state = Mutex<State>(State())

    private struct State {
        var selected: String?
        var nextGeneration = 0
    }

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
        self.logger = logger
        self.onEvent = onEvent
        let preferred = tracks.first { $0.rendition.isDefault } ?? tracks[0]
        state.withLock { $0.selected = preferred.track.id }
        feed.attach(session: makeSession(for: preferred.rendition), playhead: playhead)
    }

    var selected: String? { state.withLock { $0.selected } }
    var session: StreamingSession? { feed.session }

    private func makeSession(for rendition: AlternateRendition) -> StreamingSession {
        let first = state.withLock { s -> Int in
            defer { s.nextGeneration += 1_000_000 }
            return s.nextGeneration
        }
        return StreamingSession(
            url: rendition.playlistURL!, transport: transport, configuration: configuration, output: feed, logger: logger,
            firstGeneration: first, onEvent: onEvent
        )
    }

    /// Starts the selected rendition at `position` (where the video starts).
    func start(at position: Double) {
        feed.session?.start(at: position)
    }

    func attach(appsrc: UnsafeMutablePointer<GstElement>, start: Double?) {
        feed.attach(appsrc: appsrc, start: start)
        feed.setDuration(feed.session?.duration)
    }

    /// The same seek as the main source got (flushing, same seqnum): the audio source restarts there.
    func forward(seek event: UnsafeMutablePointer<GstEvent>) {
        feed.send(event)
    }

    /// Switches to the rendition `id` at `position` (decoder-time seek on the audio source). False when
    /// `id` is not one of these renditions.
    func select(_ id: String, at position: Double?, decoderOffset: Double, rate: Double) -> Bool {
        guard let rendition = tracks.first(where: { $0.track.id == id })?.rendition else { return false }
        let changed = state.withLock { s -> Bool in
            defer { s.selected = id }
            return s.selected != id
        }
        guard changed else { return true }
        let session = makeSession(for: rendition)
        feed.replace(session: session)
        let at = max(position ?? 0, 0)
        // Reposition the audio source: its repositioning starts the new session at the playhead.
        if let event = cove_make_seek(rate, gint64((at + decoderOffset) * 1_000_000_000), 0), feed.send(event) {
            return true
        }
        session.start(at: at)
        return true
    }

    func close() {
        feed.close()
    }
}
