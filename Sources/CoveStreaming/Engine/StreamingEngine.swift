import CoveCore
import CoveNetworking
import Foundation
import Logging

/// Cove's streaming in front of an engine that decodes: a `MediaEngine` whose players fetch HLS and DASH
/// themselves (manifests, ABR, retries, keys, request filters, accounting) and push the segments into a
/// fed player of `base`, which only demuxes, decodes and renders. URLs named as media files are read by
/// byte ranges (`ProgressiveLoader`) into a byte-fed player of `base`; only local files are read by
/// `base` itself.
///
/// The same streaming runs over any `FeedableMediaEngine`: GStreamer in apps, the scripted engine in
/// tests (so ABR, seeks, failover and accounting are tested deterministically without GStreamer).
public struct StreamingEngine: MediaEngine {
    /// The engine that decodes.
    public let base: any FeedableMediaEngine
    public let configuration: StreamingConfiguration
    let transport: any HTTPTransport
    let logger: Logger

    public var name: String { base.name }

    /// - Parameters:
    ///   - base: the engine that decodes what Cove's streaming fetches (and reads media files itself).
    ///   - configuration: how Cove's streaming loads, adapts and buffers (request filters, retries, ABR).
    ///   - transport: the HTTP client for every streaming request (default: the shared AsyncHTTPClient transport).
    ///   - logger: where the streaming logs (secrets are redacted before they get there).
    public init(
        feeding base: any FeedableMediaEngine, configuration: StreamingConfiguration = StreamingConfiguration(), transport: (any HTTPTransport)? = nil,
        logger: Logger = Logger(label: "cove.streaming")
    ) {
        self.base = base
        self.configuration = configuration
        self.transport = transport ?? AsyncHTTPClientTransport.shared
        self.logger = logger
    }

    public func makePlayer(configuration player: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
        guard Self.streamsItself(player.url) else { return try makeFilePlayer(configuration: player) }
        return try StreamingPlayer(configuration: player, settings: settings(for: player), engine: self)
    }

    /// A media file: over the network (or from a downloaded copy) Cove's progressive loader reads it by
    /// byte ranges into a byte-fed player, so the app's transport, filters, rights token and accounting
    /// apply as to a stream; a local file, or an engine that cannot be fed bytes, reads it itself.
    func makeFilePlayer(configuration player: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
        let url = player.url
        let scheme = url.scheme?.lowercased() ?? ""
        let remote = scheme == "http" || scheme == "https" || LocalResources.handles(url)
        guard remote, let feedable = base as? any ByteFeedableMediaEngine else { return try base.makePlayer(configuration: player) }
        return try ProgressivePlayer(configuration: player, settings: settings(for: player), engine: self, base: feedable)
    }

    /// Whether Cove's streaming takes the URL: every HTTP(S) URL but those whose name says media file; an
    /// unknown name is probed by the session (an HLS playlist or a DASH manifest plays, a media file goes
    /// to the base engine, an HTML page or junk is a typed error at once).
    /// A scheme registered in `LocalResources` (downloaded media, `cove-offline:`) is Cove's too: only its
    /// streaming can read it; so is a presentation on disk (`file:`), read by the streaming loader.
    public static func streamsItself(_ url: URL) -> Bool {
        if LocalResources.handles(url) || url.isFileURL { return !progressiveExtensions.contains(url.pathExtension.lowercased()) }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !progressiveExtensions.contains(url.pathExtension.lowercased())
    }

    /// Names of single media files (read by ranges, not as a stream).
    private static let progressiveExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "mov", "mkv", "webm", "mp3", "aac", "wav", "ogg", "oga", "opus", "flac", "ts", "jpg", "png",
    ]

    /// The streaming settings with this player's start policy, and its Playback Rights token on the
    /// requests the controller chose (`bcov_auth`, after the app's own filters).
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
