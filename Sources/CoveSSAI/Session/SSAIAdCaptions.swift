import CoveCore
import CoveText
import Foundation
import Logging
import Synchronization

/// An ad's own closed captions (VAST 4 `<ClosedCaptionFiles>` of its stitched linear creative) as text
/// tracks for the time the ad plays. The stitched stream's own subtitles, if it has any, seldom cover
/// the ads (they are made for the content), so a viewer with captions on would see nothing during the
/// ad; IMA and Media3 show the ad's files then, and so does Cove.
///
/// One track per language: its WebVTT file, else its TTML file (the formats `CoveText` reads); other
/// formats (SCC, SRT…) are left out. Files are fetched through the app's `HTTPTransport` once per ad
/// and session, shortly before the ad (`lookahead`), so the first cue is there when the ad starts. The
/// files are timed from the ad's start (VAST); the cues are placed on the stream's timeline at the
/// ad's start and cut at its end. A file that cannot be fetched or read is a typed warning
/// (`ssaiAdCaptionsFailed`), never a playback failure.
final class SSAIAdCaptions: Sendable {
    /// Where on the timeline an ad is.
    struct AdKey: Sendable, Hashable {
        let breakIndex: Int
        let adIndex: Int
    }

    enum Format: Sendable, Hashable {
        case webVTT
        case ttml
    }

    /// How far ahead of an ad (stream time) its captions are fetched.
    static let lookahead = AdTime(uncheckedNanoseconds: 30_000_000_000)
    /// What the tracks are called in a captions menu.
    static let label = "Ad captions"

    private let transport: any HTTPTransport
    private let timeout: Duration
    private let logger: Logger
    private let tracks = Mutex<[AdKey: [SidecarTextTrack]]>([:])

    init(transport: any HTTPTransport, timeout: Duration, logger: Logger) {
        self.transport = transport
        self.timeout = timeout
        self.logger = logger
    }

    /// Whether the ad has a caption file Cove can show.
    static func hasCaptions(_ ad: AdTimeline.Ad) -> Bool { !usableFiles(ad.linear.closedCaptionFiles).isEmpty }

    /// Per language (in document order), the WebVTT file, else the TTML file.
    static func usableFiles(_ files: [VASTClosedCaptionFile]) -> [(file: VASTClosedCaptionFile, format: Format)] {
        var chosen: [(file: VASTClosedCaptionFile, format: Format)] = []
        for file in files {
            guard let format = format(of: file), URL(string: file.url.trimmingCharacters(in: .whitespacesAndNewlines)) != nil else { continue }
            let language = file.language?.lowercased()
            if let index = chosen.firstIndex(where: { $0.file.language?.lowercased() == language }) {
                if chosen[index].format == .ttml && format == .webVTT { chosen[index] = (file, format) }
            } else {
                chosen.append((file, format))
            }
        }
        return chosen
    }

    /// The format by the MIME type, else (no type given) by the file's extension.
    static func format(of file: VASTClosedCaptionFile) -> Format? {
        if let type = file.type?.lowercased().trimmingCharacters(in: .whitespaces), !type.isEmpty {
            if type.contains("vtt") { return .webVTT }
            if type.contains("ttml") || type.contains("ttaf") || type.contains("dfxp") { return .ttml }
            return nil
        }
        let path = URL(string: file.url.trimmingCharacters(in: .whitespacesAndNewlines))?.pathExtension.lowercased()
        switch path {
        case "vtt", "webvtt": return .webVTT
        case "ttml", "dfxp": return .ttml
        default: return nil
        }
    }

    /// The ad's tracks, made (and their files' fetches started) on the first call; the same tracks after.
    /// `failed` hears of each file that cannot be used, after its track is marked failed.
    func tracks(for ad: AdTimeline.Ad, failed: @escaping @Sendable (PlaybackError) -> Void) -> [SidecarTextTrack] {
        let key = AdKey(breakIndex: ad.breakIndex, adIndex: ad.index)
        let made: (tracks: [SidecarTextTrack], new: [(SidecarTextTrack, Format)]) = tracks.withLock { tracks in
            if let existing = tracks[key] { return (existing, []) }
            let files = Self.usableFiles(ad.linear.closedCaptionFiles)
            let new = files.enumerated().compactMap { number, entry -> (SidecarTextTrack, Format)? in
                guard let url = URL(string: entry.file.url.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
                let textTrack = TextTrack(
                    source: url, language: entry.file.language, label: Self.label, kind: .captions, mimeType: entry.file.type ?? Self.mimeType(entry.format))
                return (SidecarTextTrack(key: "ad-\(ad.breakIndex)-\(ad.index)-\(number)", textTrack: textTrack), entry.format)
            }
            tracks[key] = new.map(\.0)
            return (new.map(\.0), new)
        }
        for (track, format) in made.new {
            let load = AdCaptionLoad(
                track: track, format: format, adID: ad.id, range: ad.streamRange, transport: transport, timeout: timeout, logger: logger)
            Task {
                if let error = await load.run() { failed(error) }
            }
        }
        return made.tracks
    }

    private static func mimeType(_ format: Format) -> String {
        switch format {
        case .webVTT: "text/vtt"
        case .ttml: "application/ttml+xml"
        }
    }
}

/// One caption file's download and parse, its cues placed on the stream's timeline.
private struct AdCaptionLoad: Sendable {
    let track: SidecarTextTrack
    let format: SSAIAdCaptions.Format
    let adID: String?
    let range: Range<AdTime>
    let transport: any HTTPTransport
    let timeout: Duration
    let logger: Logger

    /// Loads the track; the error it was marked failed with, if any.
    func run() async -> PlaybackError? {
        do throws(PlaybackError) {
            let cues = try await load()
            track.finishLoading(cues)
            logger.debug("SSAI ad captions loaded", metadata: ["ad": "\(adID ?? "?")", "track": "\(track.mediaTrack.id)", "cues": "\(cues.cues.count)"])
            return nil
        } catch {
            logger.warning("SSAI ad captions failed; the ad plays without them", metadata: ["ad": "\(adID ?? "?")", "error": "\(error)"])
            track.failLoading(error)
            return error
        }
    }

    private var what: String {
        "The closed captions of ad \(adID ?? "?") (\(track.textTrack.language ?? "no language"))"
    }

    private func load() async throws(PlaybackError) -> TextCueIndex {
        let url = track.textTrack.source
        let limit = WebVTTParseOptions().limits.maxBytes
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: timeout, maxResponseBytes: limit + 1))
        } catch {
            throw PlaybackError(
                .ssaiAdCaptionsFailed, "\(what) could not be downloaded: \(error.detail); the ad plays without them", url: url.absoluteString,
                cause: .underlying(PlaybackError.UnderlyingError(domain: "http", message: error.description)))
        }
        guard response.isSuccess else {
            throw PlaybackError(
                .ssaiAdCaptionsFailed, "\(what) were answered with HTTP \(response.status); the ad plays without them (check the ad's ClosedCaptionFile URL)",
                url: url.absoluteString, httpStatus: response.status)
        }
        let bytes = Array(response.body)
        let format = self.format
        // Parsing is CPU work: off the caller's executor.
        let parsed: Result<[TextCue], PlaybackError> = await Task.detached { () -> Result<[TextCue], PlaybackError> in
            switch format {
            case .webVTT:
                do throws(WebVTTParseError) {
                    let document = try WebVTT.parse(bytes)
                    return .success(
                        document.cues.map { cue in
                            TextCue(
                                identifier: cue.identifier, start: nanoseconds(cue.start), end: nanoseconds(cue.end), text: cue.text,
                                settings: cue.settings.raw)
                        })
                } catch {
                    return .failure(PlaybackError(.ssaiAdCaptionsFailed, "\(what) are not usable WebVTT: \(error); the ad plays without them"))
                }
            case .ttml:
                do throws(TTML.ParseError) {
                    return .success(
                        try TTML.parse(bytes).map { cue in
                            TextCue(identifier: cue.identifier, start: .seconds(cue.start), end: .seconds(cue.end), text: cue.text)
                        })
                } catch {
                    return .failure(PlaybackError(.ssaiAdCaptionsFailed, "\(what) are not usable TTML: \(error); the ad plays without them"))
                }
            }
        }.value
        switch parsed {
        case .success(let cues): return place(cues)
        case .failure(let error): throw error.withURL(url)
        }
    }

    /// The file's cues, timed from the ad's start, on the stream's timeline; cut at the ad's end (a
    /// file longer than the stitched ad shows nothing over the content).
    private func place(_ cues: [TextCue]) -> TextCueIndex {
        let start = SSAIAdValues.media(range.lowerBound)
        let end = SSAIAdValues.media(range.upperBound)
        var index = TextCueIndex(capacity: max(1, cues.count))
        for cue in cues {
            guard let from = cue.start.duration, let to = cue.end.duration else { continue }
            let placedStart = start.advanced(by: from)
            let placedEnd = min(start.advanced(by: to), end)
            guard placedStart < placedEnd else { continue }
            index.insert(TextCue(identifier: cue.identifier, start: placedStart, end: placedEnd, text: cue.text, settings: cue.settings))
        }
        return index
    }
}

/// WebVTT allows hours beyond any real media; those saturate instead of overflowing.
private func nanoseconds(_ timestamp: WebVTTTimestamp) -> MediaTime {
    let (value, overflow) = timestamp.milliseconds.multipliedReportingOverflow(by: 1_000_000)
    return MediaTime(nanoseconds: overflow ? Int64.max : value)
}

extension PlaybackError {
    /// This error naming `url` (redacted), when it names none yet.
    fileprivate func withURL(_ url: URL) -> PlaybackError {
        self.url != nil ? self : PlaybackError(code, message, severity: severity, url: url.absoluteString, httpStatus: httpStatus, cause: cause)
    }
}
