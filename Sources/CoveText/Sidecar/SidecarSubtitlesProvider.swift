import CoveCore
import Foundation
import Logging

/// The seed's sidecar subtitles plugin: wraps an upstream provider and attaches the video's WebVTT
/// `text_tracks` to its session. Tracks are fetched and parsed in Swift in the background — the
/// session starts at once, and a track that is missing, slow or broken is marked failed with a typed
/// error while playback carries on (GStreamer's own `suburi` would fail the whole pipeline on a 404).
public struct SidecarSubtitlesProvider: PlaybackSessionProvider {
    public let upstream: any PlaybackSessionProvider
    private let transport: any HTTPTransport
    private let options: WebVTTParseOptions
    private let timeout: Duration

    /// - Parameters:
    ///   - upstream: the provider this one wraps (default: the basic provider).
    ///   - transport: the SDK's HTTP client (`AsyncHTTPClientTransport.shared` in apps).
    ///   - options: how the WebVTT files are parsed (limits, markup).
    ///   - timeout: per track, for the whole download.
    public init(
        upstream: any PlaybackSessionProvider = BasicSessionProvider(), transport: any HTTPTransport,
        options: WebVTTParseOptions = WebVTTParseOptions(), timeout: Duration = .seconds(15)
    ) {
        self.upstream = upstream
        self.transport = transport
        self.options = options
        self.timeout = timeout
    }

    public var sessionPreloadingPolicy: SessionPreloadingPolicy { upstream.sessionPreloadingPolicy }

    public func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
        var plan = try await upstream.prepareSession(for: video, context: context)
        let first = plan.sidecarTextTracks.count
        let captions = video.textTracks.filter(Self.isCaptionTrack)
        let tracks = captions.enumerated().map { SidecarTextTrack(index: first + $0.offset, textTrack: $0.element) }
        for track in tracks {
            let load = TrackLoad(track: track, transport: transport, options: options, timeout: timeout, logger: context.logger)
            Task { await load.run() }
        }
        plan.sidecarTextTracks += tracks
        return plan
    }

    /// Subtitles, captions and descriptions in WebVTT; thumbnail and chapter/metadata tracks are not text to show.
    static func isCaptionTrack(_ track: TextTrack) -> Bool {
        guard track.kind != .metadata, track.kind.rawValue != "chapters", track.kind.rawValue != "thumbnails" else { return false }
        let mime = track.mimeType?.lowercased() ?? "text/vtt"
        return mime.contains("vtt") || track.source.pathExtension.lowercased() == "vtt"
    }
}

/// One track's download and parse.
private struct TrackLoad: Sendable {
    let track: SidecarTextTrack
    let transport: any HTTPTransport
    let options: WebVTTParseOptions
    let timeout: Duration
    let logger: Logger

    func run() async {
        let urls = [track.textTrack.source] + track.textTrack.alternativeSources.filter { $0 != track.textTrack.source }
        var failure = PlaybackError(.invalidArgument, "The text track has no URL to load")
        for url in urls {
            do throws(PlaybackError) {
                let cues = try await load(url)
                track.finishLoading(cues)
                logger.debug("sidecar text track loaded", metadata: ["track": "\(track.mediaTrack.id)", "cues": "\(cues.document.cues.count)"])
                return
            } catch {
                failure = error
            }
        }
        logger.warning("sidecar text track failed; playback continues without it", metadata: ["track": "\(track.mediaTrack.id)", "error": "\(failure)"])
        track.failLoading(failure)
    }

    private func load(_ url: URL) async throws(PlaybackError) -> WebVTTTimedText {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: timeout, maxResponseBytes: options.limits.maxBytes + 1))
        } catch {
            throw PlaybackError(.downloadFailed, "The text track could not be downloaded: \(error)", url: Redaction.redact(url: url))
        }
        guard (200..<300).contains(response.status) else {
            throw PlaybackError(
                response.status == 404 ? .notFound : .httpStatus, "The text track answered HTTP \(response.status); check its URL in the catalog's text_tracks",
                url: Redaction.redact(url: url), httpStatus: response.status)
        }
        let bytes = Array(response.body)
        let options = self.options
        // Parsing a large file is CPU work: off the caller's executor.
        let parsed: Result<WebVTTDocument, WebVTTParseError> = await Task.detached { () -> Result<WebVTTDocument, WebVTTParseError> in
            do throws(WebVTTParseError) { return .success(try WebVTT.parse(bytes, options: options)) } catch { return .failure(error) }
        }.value
        switch parsed {
        case .success(let document): return WebVTTTimedText(document)
        case .failure(let error): throw PlaybackError(.unsupportedFormat, "The text track is not usable WebVTT: \(error)", url: Redaction.redact(url: url))
        }
    }
}
