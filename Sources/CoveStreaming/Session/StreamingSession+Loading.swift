import CoveCore
import CoveDASH
import CoveHLS
import Foundation
import Logging
import Synchronization

/// Loading the presentation: the entry manifest (HLS master or media playlist, DASH MPD, sniffed when its
/// name does not say), each variant's timeline, and the DASH layout.
extension StreamingSession {
    // MARK: Loading

    func loadPresentation() async throws(StreamingError) -> Presentation {
        if let known = state.withLock({ $0.presentation }) { return known }
        let loaded = try await loadEntry()
        if MediaSniffer.isMPD(loaded.body) {
            let layout = try Self.layout(loaded, selection: selection, keySystems: protection.servedKeySystems)
            state.withLock { s in
                s.dash = (layout, ContinuousClock.now)
                s.presentation = layout.presentation
            }
            return layout.presentation
        }
        try MediaSniffer.checkPlaylist(loaded.body, contentType: loaded.contentType, url: loaded.url)
        let presentation: Presentation
        switch try HLSPresentationReader.readEntry(loaded.body, url: loaded.url) {
        case .presentation(let value):
            presentation = value
        case .singleVariant(let value, let playlist):
            presentation = value
            try Self.checkNotSelfListing(playlist, url: loaded.url)
            let timeline = state.withLock { s in
                let timeline = HLSPresentationReader.timeline(from: playlist, url: loaded.url, clock: &s.clock)
                s.timelines[0] = (timeline, ContinuousClock.now)
                return timeline
            }
            // loadTimeline finds this timeline cached and would never announce it.
            onEvent(.presentationReady(presentation, timeline))
        }
        state.withLock { $0.presentation = presentation }
        return presentation
    }

    /// The URL the app gave: a playlist by its name, or — any other name — first its head (64 kB), which
    /// says whether it is a playlist (then loaded whole), a media file (`notStreamable`: the engine reads
    /// it itself) or neither (an HTML page, junk: `notMedia` at once, not a decoder waiting forever).
    func loadEntry() async throws(StreamingError) -> StreamingLoader.Loaded {
        if Self.namesPlaylist(url) || Self.namesMPD(url) { return try await loader.load(.manifest, url: url, maxBytes: 8 << 20) }
        let head: StreamingLoader.Loaded
        do {
            head = try await loader.load(.manifest, url: url, byteRange: ByteSpan(offset: 0, length: 64 << 10), maxBytes: 1 << 20)
        } catch  where error.code == .tooLarge {
            throw StreamingError(.notStreamable, "The URL answers with more than a playlist holds: a media file", url: url)
        }
        if MediaSniffer.significantHead(head.body).starts(with: Array("#EXTM3U".utf8)) || MediaSniffer.isMPD(head.body) {
            // A server that honoured the range may have cut a long playlist: load it whole.
            return head.body.count < 64 << 10 ? head : try await loader.load(.manifest, url: url, maxBytes: 4 << 20)
        }
        if MediaSniffer.segmentFormat(head.body) != nil {
            throw StreamingError(.notStreamable, "The URL is a media file, not a playlist", url: url)
        }
        return head
    }

    /// A name that says DASH manifest (`.mpd`).
    static func namesMPD(_ url: URL) -> Bool {
        url.path.lowercased().hasSuffix(".mpd")
    }

    /// A name that says HLS playlist (`.m3u8`, `.m3u`).
    static func namesPlaylist(_ url: URL) -> Bool {
        let path = url.path.lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u")
    }

    /// The variant's timeline: loaded the first time, reloaded for live once it is a target duration old.
    func loadTimeline(for variant: Int, in presentation: Presentation) async throws(StreamingError) -> MediaTimeline {
        if state.withLock({ $0.dash != nil }) { return try await loadDASHTimeline(for: variant, in: presentation) }
        let cached = state.withLock { $0.timelines[variant] }
        if let cached, !cached.timeline.isLive || ContinuousClock.now - cached.loadedAt < .milliseconds(Int(cached.timeline.targetDuration * 1000)) {
            return cached.timeline
        }
        let playlistURL = presentation.variants[variant].playlistURL
        let loaded = try await loader.load(.manifest, url: playlistURL, maxBytes: 8 << 20, variantIndex: variant)
        try MediaSniffer.checkPlaylist(loaded.body, contentType: loaded.contentType, url: loaded.url)
        let playlist = try HLSPresentationReader.readMediaPlaylist(loaded.body, url: loaded.url)
        try Self.checkNotSelfListing(playlist, url: loaded.url)
        let (timeline, first) = state.withLock { s -> (MediaTimeline, Bool) in
            let timeline = HLSPresentationReader.timeline(from: playlist, url: loaded.url, clock: &s.clock)
            let first = s.timelines.isEmpty
            s.timelines[variant] = (timeline, ContinuousClock.now)
            return (timeline, first)
        }
        if first {
            onEvent(.presentationReady(presentation, timeline))
        } else if timeline.isLive || cached?.timeline.isLive == true {
            onEvent(.timelineUpdated(timeline))
        }
        return timeline
    }

    // MARK: DASH

    static func layout(_ loaded: StreamingLoader.Loaded, selection: ManifestSelection, keySystems: Set<KeySystem>) throws(StreamingError) -> DASHLayout {
        let mpd: MPD
        do {
            mpd = try MPD.parse([UInt8](loaded.body), url: loaded.url)
        } catch {
            throw StreamingError(.invalidManifest, "The DASH manifest could not be read: \(error)", url: loaded.url)
        }
        return try DASHLayout(mpd: mpd, selection: selection, keySystems: keySystems)
    }

    /// A DASH variant's timeline, from the MPD already loaded: a live MPD is reloaded once its
    /// `minimumUpdatePeriod` has passed (and its segment list recomputed for the wall clock each target
    /// duration); an indexed `SegmentBase` representation's `sidx` is fetched the first time.
    func loadDASHTimeline(for variant: Int, in presentation: Presentation) async throws(StreamingError) -> MediaTimeline {
        let (cached, dash) = state.withLock { ($0.timelines[variant], $0.dash!) }
        let isLive = dash.layout.mpd.kind == .dynamic
        if let cached, !isLive || ContinuousClock.now - cached.loadedAt < .milliseconds(Int(cached.timeline.targetDuration * 1000)) {
            return cached.timeline
        }
        var layout = dash.layout
        if isLive, let period = layout.mpd.minimumUpdatePeriod, ContinuousClock.now - dash.loadedAt >= .milliseconds(Int(max(period, 0.5) * 1000)) {
            let reloadURL = layout.mpd.location ?? url
            let loaded = try await loader.load(.manifest, url: reloadURL, maxBytes: 8 << 20)
            guard MediaSniffer.isMPD(loaded.body) else {
                throw StreamingError(.notMedia, "Reloading the live DASH manifest returned something else than an MPD", url: loaded.url)
            }
            let reloaded = try Self.layout(loaded, selection: selection, keySystems: protection.servedKeySystems)
            if reloaded.presentation.variants.count == presentation.variants.count { layout = reloaded }
            state.withLock { $0.dash = (layout, ContinuousClock.now) }
        }
        var indexes = state.withLock { $0.segmentIndexes[variant] ?? [:] }
        var timeline: MediaTimeline?
        while timeline == nil {
            switch try layout.timeline(for: variant, now: configuration.wallClock(), indexes: indexes) {
            case .ready(let value):
                timeline = value
            case .needsIndex(let period, let indexURL, let range):
                let loaded = try await loader.load(.manifest, url: indexURL, byteRange: range, maxBytes: 16 << 20, variantIndex: variant)
                indexes[period] = try SegmentIndexBox.parse(loaded.body, offset: range.offset)
                state.withLock { $0.segmentIndexes[variant, default: [:]][period] = indexes[period] }
            }
        }
        let first = state.withLock { s -> Bool in
            let first = s.timelines.isEmpty
            s.timelines[variant] = (timeline!, ContinuousClock.now)
            return first
        }
        if first {
            onEvent(.presentationReady(presentation, timeline!))
        } else if isLive {
            onEvent(.timelineUpdated(timeline!))
        }
        return timeline!
    }

    static func checkNotSelfListing(_ playlist: MediaPlaylist, url: URL) throws(StreamingError) {
        if playlist.segments.contains(where: { HLSURI.resolve($0.uri, against: url) == url }) {
            throw StreamingError(.invalidManifest, "The media playlist lists itself as a segment; point its segments at media files", url: url)
        }
    }

    /// What became of one segment.
}
