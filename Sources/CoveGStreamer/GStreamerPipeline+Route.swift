import CoveCore
import CoveStreaming
import Foundation

/// Who fetches the media: Cove's streaming (HLS, DASH, anything not named as a media file) or GStreamer
/// itself (progressive files), and what Cove's streaming is set up with.
///
/// Pure decisions and reads of `state` under its lock: safe from any thread.
extension GStreamerPipeline {
    /// Who fetches the media.
    enum Route: Equatable {
        /// Cove's streaming engine pushes into `appsrc://`.
        case cove
        /// GStreamer reads the URL itself: progressive media files.
        case gstreamer
    }

    /// What Cove's streaming needs from the engine.
    struct StreamingSetup: Sendable {
        let transport: any HTTPTransport
        let configuration: StreamingConfiguration

        /// The engine's streaming settings with this player's start policy, and its Playback Rights token
        /// on the requests the controller chose (`bcov_auth`, after the app's own filters).
        func settings(for player: EnginePlayerConfiguration) -> StreamingConfiguration {
            var settings = configuration
            settings.startsOnLowestVariant = player.startPolicy.startsOnLowestVariant
            if let token = player.playbackRights {
                let kinds: Set<StreamingRequestKind>
                switch player.rightsTokenRequests {
                case .none: kinds = []
                case .keys: kinds = [.key]
                case .all: kinds = [.manifest, .segment, .initSegment, .key, .text]
                }
                if !kinds.isEmpty { settings.requestFilters.append(.queryItem("bcov_auth", token.compact, kinds: kinds)) }
            }
            return settings
        }
    }

    /// Whether Cove's streaming takes the URL: every HTTP(S) URL but those whose name says media file; an
    /// unknown name is probed by the session (an HLS playlist or a DASH manifest plays, a media file goes
    /// to GStreamer, an HTML page or junk is a typed error at once).
    /// A scheme registered in `LocalResources` (downloaded media, `cove-offline:`) is Cove's too: only its
    /// streaming can read it; so is a presentation on disk (`file:`), read by the streaming loader.
    static func isStreamedByCove(_ url: URL) -> Bool {
        if LocalResources.handles(url) || url.isFileURL { return !progressiveExtensions.contains(url.pathExtension.lowercased()) }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !progressiveExtensions.contains(url.pathExtension.lowercased())
    }

    /// Names GStreamer reads itself: progressive files.
    private static let progressiveExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "mov", "mkv", "webm", "mp3", "aac", "wav", "ogg", "oga", "opus", "flac", "ts", "jpg", "png",
    ]

    /// Who fetches the media now (Cove's streaming can hand a media file behind an unknown name to GStreamer).
    var route: Route { state.withLock { $0.route } }

    /// Cove's streaming fetches this stream (not GStreamer's own HLS or progressive reading).
    var isStreamedByCove: Bool { route == .cove }

    /// Decoder time minus presentation time: Cove's streaming places media `decoderTimeOffset` later
    /// (see `StreamingConfiguration.decoderTimeOffset`); GStreamer's own reading places it as it is.
    var decoderOffset: Double {
        route == .cove ? (feed?.session?.decoderTimeOffset ?? 0) : 0
    }

    /// A start at a position needs a seek once prerolled, unless Cove's streaming starts the source there.
    var needsStartSeek: Bool {
        route == .gstreamer && (configuration.startPosition.map { $0 > .zero && $0.isFinite } ?? false)
    }

    /// Unsynchronised sinks play as fast as they decode, and their position follows the clock rather than
    /// the media: a forward buffer measured from it means nothing. Cove's streaming then fetches without
    /// waiting for the playhead (the decoders drain what it pushes at decode speed).
    func forwardBufferTarget(_ duration: Duration?) -> Duration? {
        configuration.pacing == .unsynchronized ? .seconds(3_600) : duration
    }
}
