import CoveCore
import CoveDASH
import CoveHLS
import CoveNetworking
import CoveStreaming
import Foundation

/// Reads a manifest the way Cove's streaming engine does — through its loader (`HTTPTransport` for
/// http(s), the disk for a presentation on disk), HLS's and DASH's bounded readers and the format-independent
/// presentation model — and describes it without playing anything.
///
/// A master playlist's media playlists are read too: over http(s) for a manifest fetched by URL, from disk
/// for one on disk (a local manifest's remote playlists are not fetched, and a remote manifest's local
/// files are refused, as in playback). At most `maxPlaylists` of them, four at a time.
struct ManifestInspector: Sendable {
    /// The most bytes read for the manifest itself: the larger of the two readers' limits (each reader then
    /// checks its own).
    static let maxInputBytes = max(HLSParseLimits().maxBytes, DASHParseLimits().maxBytes)
    static let maxPlaylists = 64
    /// A `sidx` is fetched with at most this many bytes (as the streaming session does).
    static let maxIndexBytes = 16 << 20

    /// Each exchange (redirects and the whole body included) must finish within this.
    let timeout: Duration

    enum Format { case hls, dash }

    func inspect(_ source: String) async -> Result<ManifestReport, ErrorReport> {
        let url: URL
        switch Self.url(for: source) {
        case .success(let value): url = value
        case .failure(let error): return .failure(error)
        }
        // One retry for server trouble, as a manifest request in playback gets (less patient: the command has a deadline).
        let loader = StreamingLoader(
            transport: AsyncHTTPClientTransport.shared, retry: RetryPolicy(maximumAttempts: 1, initialDelay: .milliseconds(250)), timeout: timeout,
            origin: url)
        let loaded: StreamingLoader.Loaded
        do throws(StreamingError) {
            loaded = try await loader.load(.manifest, url: url, maxBytes: Self.maxInputBytes)
        } catch {
            return .failure(ErrorReport(error))
        }
        let context = ManifestContext(manifestURL: loaded.url, isLocal: url.isFileURL, loader: loader)
        switch Self.format(of: loaded.body) {
        case .hls: return await HLSManifestReader(context: context).describe(loaded.body)
        case .dash: return await DASHManifestReader(context: context).describe(loaded.body)
        case nil:
            return .failure(
                ErrorReport(
                    input: "unrecognizedFormat",
                    "The input is neither an HLS playlist (it does not start with #EXTM3U) nor a DASH manifest (no <MPD> root): it is \(Self.describe(loaded.body)).",
                    advice: "Give an .m3u8 playlist or an .mpd manifest; for a URL, check it answers with the manifest and not an error page.",
                    url: Redaction.redact(url: loaded.url)))
        }
    }

    /// An http(s) URL, a `file:` URL or a path.
    static func url(for source: String) -> Result<URL, ErrorReport> {
        let lower = source.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file://") {
            guard let url = URL(string: source), url.host != nil || url.isFileURL else {
                return .failure(ErrorReport(input: "invalidSource", "'\(Redaction.redact(urlString: source))' is not a valid URL.", advice: "Quote the URL."))
            }
            return .success(url)
        }
        if let scheme = source.range(of: "://"), !source[..<scheme.lowerBound].contains("/") {
            return .failure(
                ErrorReport(
                    input: "invalidSource", "'\(Redaction.redact(urlString: source))' uses a scheme cove manifest does not read.",
                    advice: "Give an http(s) URL or a file path."))
        }
        guard !source.isEmpty else { return .failure(ErrorReport(input: "invalidSource", "No manifest was given.", advice: "Give a file path or a URL.")) }
        return .success(URL(fileURLWithPath: source).standardizedFileURL)
    }

    /// From the content, never the name: `#EXTM3U` is HLS; an MPD (or any XML document, which the MPD reader
    /// then refuses with its typed error) is DASH; a `#` line is handed to the HLS reader to say what is wrong.
    static func format(of body: Data) -> Format? {
        let head = significantHead(body)
        if head.starts(with: Array("#EXTM3U".utf8)) { return .hls }
        if isHTML(head) { return nil }
        if MediaSniffer.isMPD(body) || head.first == UInt8(ascii: "<") { return .dash }
        if head.first == UInt8(ascii: "#") { return .hls }
        return nil
    }

    static func significantHead(_ body: Data) -> [UInt8] {
        var bytes = [UInt8](body.prefix(256))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return Array(bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
    }

    /// A web page (a captive portal, a CDN's error page) is no manifest, whatever the MPD reader would say of its DOCTYPE.
    static func isHTML(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(16), as: UTF8.self).lowercased()
        return text.hasPrefix("<!doctype html") || text.hasPrefix("<html")
    }

    static func describe(_ body: Data) -> String {
        if body.isEmpty { return "empty" }
        if isHTML(significantHead(body)) { return "an HTML page (a captive portal or an error page answers like this)" }
        let head = [UInt8](body.prefix(512))
        let printable = head.filter { (0x20...0x7E).contains($0) || [0x09, 0x0A, 0x0D].contains($0) || $0 >= 0x80 }.count
        if head.contains(0) || printable < head.count * 9 / 10 { return "binary data (\(body.count) bytes)" }
        if significantHead(body).isEmpty { return "only white space" }
        let text = String(decoding: significantHead(body).prefix(16), as: UTF8.self).lowercased()
        if text.hasPrefix("{") || text.hasPrefix("[") { return "a JSON document" }
        return "text (\(body.count) bytes)"
    }
}

/// What one inspection shares: where the manifest is, how to read what it names, and how to show URLs.
struct ManifestContext: Sendable {
    let manifestURL: URL
    /// The manifest was a file: its relative playlists are read from disk, its remote ones are not fetched.
    let isLocal: Bool
    let loader: StreamingLoader

    enum Fetched: Sendable {
        case loaded(StreamingLoader.Loaded)
        case notRead(String)
        case failed(ErrorReport)
    }

    /// Reads a resource the manifest names, through the same loader (and so the same scheme rules) as playback.
    func fetch(_ url: URL, byteRange: ByteSpan? = nil, maxBytes: Int) async -> Fetched {
        if isLocal {
            if url.scheme?.lowercased() == "http" || url.scheme?.lowercased() == "https" {
                return .notRead("a remote playlist of a manifest on disk; not fetched (give the manifest's URL to read it)")
            }
            if url.isFileURL && !FileManager.default.fileExists(atPath: url.path) {
                return .notRead("not on disk (\(display(url)))")
            }
        }
        do throws(StreamingError) {
            return .loaded(try await loader.load(.manifest, url: url, byteRange: byteRange, maxBytes: maxBytes))
        } catch {
            return .failed(ErrorReport(error))
        }
    }

    /// A URL as the report shows it: redacted, and relative to the manifest's folder when under it. An inline
    /// `data:` URI (a key, say) is never shown.
    func display(_ url: URL) -> String {
        if url.scheme?.lowercased() == "data" { return "data: (inline, not shown)" }
        let text = Redaction.redact(url: url)
        let folder = Redaction.redact(url: manifestURL.deletingLastPathComponent())
        if text.hasPrefix(folder), text.count > folder.count { return String(text.dropFirst(folder.count)) }
        return text
    }

    /// A key as reported: method, format, where it comes from; never the key or the IV.
    func key(_ key: EncryptionKey, base: URL) -> KeyReport? {
        guard key.method.rawValue != "NONE" else { return nil }
        return KeyReport(
            method: key.method.rawValue, keyFormat: key.effectiveKeyFormat, keyFormatVersions: key.keyFormatVersions,
            uri: HLSURI.resolve(key.uri, against: base).map(display), iv: key.iv == nil ? "mediaSequence" : "explicit")
    }

    static func keySystem(_ key: KeyReport) -> String {
        key.keyFormat == "identity" ? key.method : "\(key.method) (\(key.keyFormat))"
    }

    /// What `cove manifest` says about one timeline of the presentation model.
    func media(_ timeline: MediaTimeline) -> MediaReport {
        var initSections: [InitSectionReport] = []
        var seen = Set<InitSectionReport>()
        var discontinuities = 0
        for (index, segment) in timeline.segments.enumerated() {
            if index > 0, segment.discontinuity != timeline.segments[index - 1].discontinuity { discontinuities += 1 }
            if let section = segment.initSection {
                let report = InitSectionReport(uri: display(section.url), byteRange: section.byteRange?.description)
                if seen.insert(report).inserted { initSections.append(report) }
            }
        }
        return MediaReport(
            read: true, segments: timeline.segments.count, duration: ManifestReport.seconds(timeline.duration),
            targetDuration: ManifestReport.seconds(timeline.targetDuration), live: timeline.isLive, discontinuities: discontinuities,
            gaps: timeline.segments.count(where: \.isGap), byteRangeSegments: timeline.segments.count(where: { $0.byteRange != nil }),
            encryptedSegments: timeline.segments.count(where: { $0.key != nil }), initSections: initSections, keys: [])
    }

    /// The live window of a timeline, as Cove plays it.
    static func live(_ timeline: MediaTimeline) -> LiveReport {
        let seekable = timeline.segments.isEmpty ? nil : max(0, timeline.liveEdge - timeline.start)
        return LiveReport(
            targetDuration: ManifestReport.seconds(timeline.targetDuration), windowLength: ManifestReport.seconds(timeline.duration),
            windowSegments: timeline.segments.count, seekableWindow: seekable.map(ManifestReport.seconds), dvr: seekable.map { $0 >= dvrMinimumWindow },
            dvrMinimumWindow: dvrMinimumWindow)
    }

    /// The seekable window from which Cove reports a live stream as live DVR (the controller's default).
    static var dvrMinimumWindow: Double {
        let minimum = PlaybackControllerConfiguration().liveDVRMinimumWindow.components
        return Double(minimum.seconds) + Double(minimum.attoseconds) / 1e18
    }
}

extension ErrorReport {
    init(_ error: HLSParseError) {
        self.init(
            reader: "hls", kind: error.kind.rawValue, message: error.description, line: error.line,
            subject: error.tag ?? error.attribute,
            advice: error.advice)
    }

    init(_ error: DASHParseError) {
        self.init(
            reader: "dash", kind: error.xml.map { "\(error.kind.rawValue).\($0.kind.rawValue)" } ?? error.kind.rawValue, message: error.description,
            line: error.line, subject: error.element, advice: error.advice)
    }
}

/// HLS: a master playlist (its variants' and renditions' media playlists read too) or a lone media playlist.
struct HLSManifestReader: Sendable {
    let context: ManifestContext

    /// One media playlist as read: its report and, when live, its window.
    struct Read: Sendable {
        var report: MediaReport
        var live: LiveReport?
    }

    func describe(_ body: Data) async -> Result<ManifestReport, ErrorReport> {
        let url = context.manifestURL
        let playlist: HLSPlaylist
        let entry: HLSPresentationReader.Entry
        do throws(HLSParseError) {
            playlist = try HLSPlaylist.parse(body)
        } catch {
            return .failure(ErrorReport(error))
        }
        do throws(StreamingError) {
            entry = try HLSPresentationReader.readEntry(body, url: url)
        } catch {
            return .failure(ErrorReport(error))
        }
        var report = ManifestReport(format: "hls", type: "hlsMaster", url: Redaction.redact(url: url))
        var reads: [Read?] = []
        switch (playlist, entry) {
        case (.media(let media), .singleVariant(let presentation, _)):
            report.type = "hlsMedia"
            report.version = media.version
            report.startOffset = presentation.startOffset
            let read = self.media(media, url: url)
            reads = [read]
            report.variants = presentation.variants.map { variant(for: $0, media: read.report) }
        case (.master(let master), .presentation(let presentation)):
            report.version = master.version
            report.startOffset = presentation.startOffset
            report.iFrameVariants = master.iFrameVariants.count
            report.sessionKeys = master.sessionKeys.compactMap { context.key($0, base: url) }
            let renditions = presentation.audioRenditions + presentation.textRenditions
            let read = await readAll(presentation.variants.map(\.playlistURL) + renditions.compactMap(\.playlistURL))
            reads = presentation.variants.map { read[$0.playlistURL] }
            report.variants = presentation.variants.map { variant(for: $0, media: read[$0.playlistURL]?.report) }
            report.renditions = renditions.map { rendition in
                RenditionReport(
                    kind: rendition.kind == .audio ? "audio" : "subtitles", group: rendition.groupID, name: rendition.name, language: rendition.language,
                    isDefault: rendition.isDefault, autoselect: rendition.isAutoselect, forced: rendition.isForced,
                    uri: rendition.playlistURL.map(context.display),
                    media: rendition.playlistURL.flatMap { read[$0]?.report } ?? MediaReport(read: false, notRead: "carried in the variant's own segments"))
            }
            // Listed for completeness; Cove streams neither (608/708 captions travel inside the video).
            for rendition in master.renditions where rendition.type == .closedCaptions || rendition.type == .video {
                report.renditions.append(
                    RenditionReport(
                        kind: rendition.type == .video ? "video" : "closedCaptions", group: rendition.groupID, name: rendition.name,
                        language: rendition.language, isDefault: rendition.isDefault, autoselect: rendition.isAutoselect, forced: rendition.isForced,
                        uri: rendition.uri.flatMap { HLSURI.resolve($0, against: url) }.map(context.display), instreamID: rendition.instreamID))
            }
        default:
            return .failure(ErrorReport(input: "internal", "The HLS reader and the presentation model disagree about the playlist's kind."))
        }
        // The presentation's length and live window: the first variant (in listed order) that was read.
        if let first = reads.lazy.compactMap({ $0 }).first(where: { $0.report.read }) {
            if first.report.live == false { report.duration = first.report.duration }
            report.live = first.live
        }
        let keys = report.sessionKeys + (report.variants.compactMap(\.media) + report.renditions.compactMap(\.media)).flatMap { $0.keys ?? [] }
        report.keySystems = Array(Set(keys.map(ManifestContext.keySystem))).sorted()
        return .success(report)
    }

    private func variant(for track: VariantTrack, media: MediaReport?) -> VariantReport {
        VariantReport(
            index: track.index, bandwidth: track.bandwidth, averageBandwidth: track.averageBandwidth, width: track.width, height: track.height,
            codecs: track.codecs, frameRate: track.frameRate, uri: context.display(track.playlistURL), audioGroup: track.audioGroup,
            subtitlesGroup: track.subtitlesGroup, media: media)
    }

    /// Reads each distinct playlist once, four at a time, up to `maxPlaylists`.
    private func readAll(_ urls: [URL]) async -> [URL: Read] {
        var unique: [URL] = []
        var seen = Set<URL>()
        for url in urls where seen.insert(url).inserted { unique.append(url) }
        var result: [URL: Read] = [:]
        for url in unique.dropFirst(ManifestInspector.maxPlaylists) {
            result[url] = Read(report: MediaReport(read: false, notRead: "more than \(ManifestInspector.maxPlaylists) playlists; not read"))
        }
        await withTaskGroup(of: (URL, Read).self) { group in
            var pending = unique.prefix(ManifestInspector.maxPlaylists).makeIterator()
            for _ in 0..<4 {
                guard let url = pending.next() else { break }
                group.addTask { (url, await readMedia(url)) }
            }
            while let (url, read) = await group.next() {
                result[url] = read
                if let next = pending.next() { group.addTask { (next, await readMedia(next)) } }
            }
        }
        return result
    }

    private func readMedia(_ url: URL) async -> Read {
        switch await context.fetch(url, maxBytes: HLSParseLimits().maxBytes) {
        case .notRead(let reason): return Read(report: MediaReport(read: false, notRead: reason))
        case .failed(let error): return Read(report: MediaReport(read: false, error: error))
        case .loaded(let loaded):
            let playlist: HLSPlaylist
            do throws(HLSParseError) {
                playlist = try HLSPlaylist.parse(loaded.body)
            } catch {
                return Read(report: MediaReport(read: false, error: ErrorReport(error)))
            }
            guard case .media(let media) = playlist else {
                let error = StreamingError(
                    .invalidManifest, "A variant's playlist is itself a master playlist; the stream's variants must point at media playlists", url: loaded.url)
                return Read(report: MediaReport(read: false, error: ErrorReport(error)))
            }
            return self.media(media, url: loaded.url)
        }
    }

    /// A media playlist through the presentation model (its segments placed on the timeline), with the
    /// playlist's own facts beside it.
    private func media(_ media: MediaPlaylist, url: URL) -> Read {
        if media.segments.contains(where: { HLSURI.resolve($0.uri, against: url) == url }) {
            let error = StreamingError(.invalidManifest, "The media playlist lists itself as a segment; point its segments at media files", url: url)
            return Read(report: MediaReport(read: false, error: ErrorReport(error)))
        }
        var clock = SequenceClock()
        let timeline = HLSPresentationReader.timeline(from: media, url: url, clock: &clock)
        var report = context.media(timeline)
        report.targetDuration = Double(media.targetDuration)
        report.playlistType = media.playlistType?.rawValue
        report.mediaSequence = media.mediaSequence
        var keys: [KeyReport] = []
        for segment in media.segments {
            for key in segment.keys {
                if let described = context.key(key, base: url), !keys.contains(described) { keys.append(described) }
            }
        }
        report.keys = keys
        guard timeline.isLive else { return Read(report: report) }
        var window = ManifestContext.live(timeline)
        window.targetDuration = Double(media.targetDuration)
        window.playlistType = media.playlistType?.rawValue
        window.mediaSequence = media.mediaSequence
        window.discontinuitySequence = media.discontinuitySequence
        return Read(report: report, live: window)
    }
}
