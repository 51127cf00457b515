import CoveCore
import Foundation
import Logging

/// Options of the SSAI provider.
public struct SSAISessionProviderOptions: Sendable {
    /// Which crossed breaks a forward seek plays (the seed's rule by default).
    public var skipPolicy: AdSkipPolicy
    /// Values for `{{url.name}}` variables in VMAP URLs (the seed's "SSAI URL Variables").
    public var urlVariables: [String: String]
    /// For the VMAP download (and each wrapper hop).
    public var vmapTimeout: Duration
    public var parseLimits: VMAPParseLimits
    /// How beacons are retried.
    public var beaconPolicy: BeaconSender.Policy
    /// Wrapper hops followed before an ad is given up.
    public var maxWrapperDepth: Int
    /// What to do with a video that has no VMAP at all.
    public var videosWithoutVMAP: VideosWithoutVMAP

    public enum VideosWithoutVMAP: Sendable, Hashable {
        /// Report `ssaiVMAPMissing` and play the video without ad events (the seed's plugin, which
        /// "does not support non-SSAI content", reports the missing VMAP).
        case reportMissingVMAP
        /// Hand the video to the upstream chain untouched, for queues that mix SSAI and plain videos.
        case passThrough
    }

    public init(
        skipPolicy: AdSkipPolicy = .playLast, urlVariables: [String: String] = [:], vmapTimeout: Duration = .seconds(10),
        parseLimits: VMAPParseLimits = .default, beaconPolicy: BeaconSender.Policy = BeaconSender.Policy(), maxWrapperDepth: Int = 5,
        videosWithoutVMAP: VideosWithoutVMAP = .reportMissingVMAP
    ) {
        self.videosWithoutVMAP = videosWithoutVMAP
        self.skipPolicy = skipPolicy
        self.urlVariables = urlVariables
        self.vmapTimeout = vmapTimeout
        self.parseLimits = parseLimits
        self.beaconPolicy = beaconPolicy
        self.maxWrapperDepth = maxWrapperDepth
    }
}

/// The seed's SSAI session provider: wraps an upstream provider ("Combining Plugins"), fetches the
/// video's VMAP, has the upstream chain play the stitched stream the VMAP names, and attaches an
/// `SSAISession` that presents ads and content the way the seed's plugin does.
///
/// The VMAP comes from, in order: a source's `vmap` URL (Playback API with `ad_config_id`), a source
/// made with `Source.ssai(vmapXML:)`, or a source whose URL is the VMAP (`Video(url: vmapURL)`).
/// When it is missing or unusable, an `Error` lifecycle event says why (`ssaiVMAP…` codes) and the
/// video plays without ad events from a source that needs no VMAP, if it has one; otherwise the
/// session fails with that error.
public struct SSAISessionProvider: PlaybackSessionProvider {
    public let upstream: any PlaybackSessionProvider
    public let options: SSAISessionProviderOptions
    private let transport: any HTTPTransport

    public init(
        upstream: any PlaybackSessionProvider = BasicSessionProvider(), transport: any HTTPTransport,
        options: SSAISessionProviderOptions = SSAISessionProviderOptions()
    ) {
        self.upstream = upstream
        self.transport = transport
        self.options = options
    }

    /// Never: a preloaded stitched stream would start its session's ads and beacons early.
    public var sessionPreloadingPolicy: SessionPreloadingPolicy { .never }

    public func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
        let logger = context.logger
        let input = Self.vmapInput(of: video, variables: options.urlVariables)
        if input == nil, options.videosWithoutVMAP == .passThrough {
            return try await upstream.prepareSession(for: video, context: context)
        }
        let loaded: LoadedVMAP
        do throws(PlaybackError) {
            guard let input else {
                throw PlaybackError(
                    .ssaiVMAPMissing,
                    "Video \(video.messageLabel) has no VMAP: no source has a vmap URL or VMAP data; request the video with an ad_config_id, or make it with Video(url: vmapURL)"
                )
            }
            loaded = try await load(input, logger: logger)
        } catch {
            return try await playWithoutAds(video, error: error, context: context, vmapURL: input?.url)
        }
        // The stitched stream goes through the upstream chain (source selection, captions, thumbnails…).
        var content = video.update {
            $0.sources = [Source(url: loaded.streamURL, deliveryMethod: loaded.document.stream.contentType.map(DeliveryType.init(rawValue:)) ?? .hls)]
        }
        if let thumbnails = loaded.thumbnailsURL { content = content.update { $0.thumbnailVTTURL = thumbnails } }
        var plan = try await upstream.prepareSession(for: content, context: context)
        plan.video = video
        let session = SSAISession(
            timeline: loaded.timeline, document: loaded.document, vmapResponseData: loaded.bytes, vmapURL: input?.url, thumbnailsURL: loaded.thumbnailsURL,
            problems: loaded.problems, skipPolicy: options.skipPolicy, beacons: makeBeacons(logger),
            captions: makeCaptions(logger), logger: logger
        )
        plan.providerExtension = session
        plan.hooks = session
        if let source = plan.thumbnailSource { plan.thumbnailSource = ContentTimeThumbnails(base: source, session: session) }
        logger.info(
            "SSAI session prepared",
            metadata: [
                "breaks": "\(loaded.timeline.breaks.count)", "ads": "\(loaded.timeline.ads.count)",
                "stream": "\(Redaction.redact(url: loaded.streamURL))",
            ])
        return plan
    }

    // MARK: Finding and loading the VMAP

    struct VMAPInput: Sendable {
        var url: URL?
        var xml: [UInt8]?
    }

    struct LoadedVMAP: Sendable {
        let bytes: [UInt8]
        let document: VMAPDocument
        let timeline: AdTimeline
        let streamURL: URL
        let thumbnailsURL: URL?
        let problems: [PlaybackError]
    }

    static func vmapInput(of video: Video, variables: [String: String]) -> VMAPInput? {
        let resolve = { (text: String) -> URL? in URL(string: SSAIURLVariables.replacing(in: text, with: variables)) }
        let withURL = video.sources.compactMap { source -> URL? in source.properties[Source.PropertyKey.vmap]?.stringValue.flatMap(resolve) }
        if let url = withURL.first(where: { $0.scheme?.lowercased() == "https" }) ?? withURL.first { return VMAPInput(url: url) }
        if let xml = video.sources.lazy.compactMap({ $0.properties[Source.vmapXMLKey]?.stringValue }).first { return VMAPInput(xml: Array(xml.utf8)) }
        if let source = video.sources.first(where: Self.isVMAPSource), let url = resolve(source.url.absoluteString) { return VMAPInput(url: url) }
        return nil
    }

    static func isVMAPSource(_ source: Source) -> Bool {
        let ext = source.url.pathExtension.lowercased()
        let delivery = source.deliveryMethod?.rawValue.lowercased() ?? ""
        return ext == "vmap" || delivery.contains("vmap") || (ext == "xml" && source.properties[Source.vmapXMLKey] == nil)
    }

    private func load(_ input: VMAPInput, logger: Logger) async throws(PlaybackError) -> LoadedVMAP {
        let bytes: [UInt8]
        if let xml = input.xml {
            bytes = xml
        } else if let url = input.url {
            bytes = try await fetch(url, what: "VMAP", code: .ssaiVMAPLoadFailed)
        } else {
            throw PlaybackError(.ssaiVMAPMissing, "The SSAI source has neither a VMAP URL nor VMAP data")
        }
        var document: VMAPDocument
        do {
            document = try VMAP.parse(bytes, limits: options.parseLimits)
        } catch {
            throw PlaybackError(.ssaiVMAPInvalid, "The VMAP could not be read: \(error.description)", url: input.url?.absoluteString)
        }
        var problems: [PlaybackError] = []
        document = await resolveWrappers(document, problems: &problems)
        guard let content = document.stream.contentURL, let streamURL = URL(string: content, relativeTo: input.url)?.absoluteURL else {
            throw PlaybackError(
                .ssaiVMAPInvalid, "The VMAP names no stream to play (no bc:Brightcove or uo:unicornOnce contenturi); check the ad configuration",
                url: input.url?.absoluteString)
        }
        let timeline: AdTimeline
        do {
            timeline = try AdTimeline.make(from: document)
        } catch {
            problems.append(
                PlaybackError(
                    .ssaiTimelineLoadFailed, "The ad timeline could not be built: \(error.description); the stream plays without ad events",
                    url: input.url?.absoluteString))
            timeline = .contentOnly(contentDuration: document.stream.contentLength)
        }
        for warning in timeline.warnings {
            logger.warning("SSAI timeline", metadata: ["warning": "\(warning)"])
            problems.append(PlaybackError(.ssaiTimelineAdjusted, "The ad timeline was adjusted: \(warning)", url: input.url?.absoluteString))
        }
        let thumbnails = document.stream.thumbnailsURL.flatMap { URL(string: $0, relativeTo: input.url)?.absoluteURL }
        return LoadedVMAP(bytes: bytes, document: document, timeline: timeline, streamURL: streamURL, thumbnailsURL: thumbnails, problems: problems)
    }

    private func fetch(_ url: URL, what: String, code: PlaybackError.Code) async throws(PlaybackError) -> [UInt8] {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: options.vmapTimeout, maxResponseBytes: options.parseLimits.maxBytes + 1))
        } catch {
            throw PlaybackError(
                code, "The \(what) could not be downloaded: \(error.detail); check the network and the URL", url: url.absoluteString,
                cause: .underlying(PlaybackError.UnderlyingError(domain: "http", message: error.description)))
        }
        guard response.isSuccess else {
            throw PlaybackError(
                code, "The \(what) request was answered with HTTP \(response.status); check the URL (a Brightcove vmap URL expires with its bc_token)",
                url: url.absoluteString, httpStatus: response.status)
        }
        return Array(response.body)
    }

    /// Follows wrapper ads to their inline ads; a wrapper that fails is left out with an error event.
    private func resolveWrappers(_ document: VMAPDocument, problems: inout [PlaybackError]) async -> VMAPDocument {
        let hasWrappers = document.adBreaks.contains { $0.ads.contains { if case .wrapper = $0.content { true } else { false } } }
        guard hasWrappers else { return document }
        let transport = self.transport
        let timeout = options.vmapTimeout
        let limit = options.parseLimits.maxBytes + 1
        let resolver = VASTWrapperResolver(maxDepth: options.maxWrapperDepth, limits: options.parseLimits) { uri in
            guard let url = URL(string: uri) else { throw PlaybackError(.ssaiWrapperFailed, "A wrapper's VASTAdTagURI is not a URL") }
            let response = try await transport.send(HTTPRequest(url: url, timeout: timeout, maxResponseBytes: limit))
            guard response.isSuccess else {
                throw PlaybackError(.ssaiWrapperFailed, "A wrapper's ad server answered HTTP \(response.status)", url: uri, httpStatus: response.status)
            }
            return Array(response.body)
        }
        var breaks: [VMAPAdBreak] = []
        for adBreak in document.adBreaks {
            guard let source = adBreak.adSource, case .vast(let vast) = source.content else {
                breaks.append(adBreak)
                continue
            }
            let resolution = await resolver.resolve(vast)
            for failure in resolution.failures {
                problems.append(
                    PlaybackError(.ssaiWrapperFailed, "An ad of break \(adBreak.breakId ?? "?") was left out: its wrapper chain failed (\(failure))"))
            }
            let resolved = VASTDocument(version: vast.version, ads: resolution.ads, errorURLs: vast.errorURLs, warnings: vast.warnings)
            breaks.append(
                VMAPAdBreak(
                    timeOffset: adBreak.timeOffset, breakType: adBreak.breakType, breakId: adBreak.breakId, repeatAfter: adBreak.repeatAfter,
                    adSource: VMAPAdSource(
                        id: source.id, allowMultipleAds: source.allowMultipleAds, followRedirects: source.followRedirects, content: .vast(resolved)),
                    trackingEvents: adBreak.trackingEvents, extensions: adBreak.extensions
                ))
        }
        return VMAPDocument(version: document.version, adBreaks: breaks, stream: document.stream, extensions: document.extensions, warnings: document.warnings)
    }

    // MARK: Without ads

    /// The VMAP failed: report why, and play a source that needs no VMAP if the video has one.
    private func playWithoutAds(
        _ video: Video, error: PlaybackError, context: SessionPreparationContext, vmapURL: URL?
    ) async throws(PlaybackError) -> SessionPlan {
        let playable = video.update { $0.sources = $0.sources.filter { !Self.isVMAPSource($0) && $0.properties[Source.vmapXMLKey] == nil } }
        guard !playable.sources.isEmpty else { throw error }
        context.logger.warning("SSAI: no usable VMAP; the video plays without ad events", metadata: ["error": "\(error)"])
        var plan = try await upstream.prepareSession(for: playable, context: context)
        plan.video = video
        let session = SSAISession(
            timeline: .contentOnly(contentDuration: nil), document: nil, vmapResponseData: nil, vmapURL: vmapURL, thumbnailsURL: nil,
            problems: [error], skipPolicy: options.skipPolicy, beacons: makeBeacons(context.logger),
            captions: makeCaptions(context.logger), logger: context.logger
        )
        plan.providerExtension = session
        plan.hooks = session
        return plan
    }

    /// The ads' caption files come through the same transport as the VMAP, within the VMAP's timeout.
    private func makeCaptions(_ logger: Logger) -> SSAIAdCaptions {
        SSAIAdCaptions(transport: transport, timeout: options.vmapTimeout, logger: logger)
    }

    private func makeBeacons(_ logger: Logger) -> BeaconSender {
        BeaconSender(transport: transport, policy: options.beaconPolicy, logger: logger)
    }
}

extension Source {
    /// Where `ssai(vmapXML:)` keeps the document.
    public static let vmapXMLKey = "cove_vmap_xml"

    /// A source made from VMAP XML (the seed's `BCOVSource(vmapxmlData:properties:)`), for an
    /// `SSAISessionProvider`. Other properties (`key_systems`…) are kept.
    public static func ssai(vmapXML: String, properties: JSONObject = [:]) -> Source {
        var all = properties
        all[vmapXMLKey] = .string(vmapXML)
        return Source(url: URL(string: "cove-ssai:vmap-data")!, deliveryMethod: "application/xml+vmap", properties: all)
    }
}

/// The upstream thumbnail track is in stream time (it comes from the session's VMAP); the app asks
/// in content time.
private struct ContentTimeThumbnails: ThumbnailSource {
    let base: any ThumbnailSource
    let session: SSAISession

    func loadTrack() async throws(ThumbnailError) { try await base.loadTrack() }
    func thumbnail(at time: MediaTime) async throws(ThumbnailError) -> Thumbnail? {
        try await base.thumbnail(at: time.isFinite ? session.streamTime(forContentTime: time) : time)
    }
    func image(for thumbnail: Thumbnail) async throws(ThumbnailError) -> Data { try await base.image(for: thumbnail) }
}
