import CoveCore
import CoveDASH
import CoveHLS
import CoveStreaming
import CoveText
import Foundation

/// Turns a video and the app's download parameters into a `DownloadPlan`: picks the source (HLS or DASH,
/// no SSAI, no DRM), the variant, the audio renditions and the caption tracks, loads their segment lists
/// with the streaming engine's own loader (request filters, retries), and lays the copy out as HLS.
struct DownloadPlanner: Sendable {
    let loader: StreamingLoader
    /// Seconds since 1970 (which segments a DASH manifest lists).
    let wallClock: @Sendable () -> Double
    /// The modules protected content is licensed with (a persistent licence is kept with the download).
    var decryptionModules = DecryptionModules([ClearKeyModule()])

    /// Kbit/s assumed for an audio rendition that declares no bandwidth (HLS renditions never do).
    static let assumedAudioBitrate = 128_000

    func plan(_ video: Video, parameters: OfflineDownloadParameters) async throws(OfflineError) -> DownloadPlan {
        try parameters.validate()
        let source = try Self.downloadableSource(of: video, parameters: parameters, keySystems: decryptionModules.keySystems)
        if source.isMP4 {
            var plan = try Self.planMP4(source, parameters: parameters, video: video)
            try await addSidecars(of: video, to: &plan, parameters: parameters)
            if parameters.includesImages { try await addImages(of: video, to: &plan) }
            return plan
        }
        let loaded: StreamingLoader.Loaded
        do {
            loaded = try await loader.load(.manifest, url: source.url, maxBytes: 16 << 20)
        } catch {
            throw OfflineError.download(error, what: "the manifest")
        }
        var plan: DownloadPlan
        if MediaSniffer.isMPD(loaded.body) {
            plan = try await planDASH(loaded, parameters: parameters, video: video, source: source)
        } else {
            do {
                try MediaSniffer.checkPlaylist(loaded.body, contentType: loaded.contentType, url: loaded.url)
            } catch {
                throw OfflineError(.unsupported, "The video's source is neither an HLS playlist nor a DASH manifest: \(error.message)")
            }
            plan = try await planHLS(loaded, parameters: parameters, video: video, source: source)
        }
        try await addSidecars(of: video, to: &plan, parameters: parameters)
        if parameters.includesImages { try await addImages(of: video, to: &plan) }
        return plan
    }

    /// The source to download: the default selection over the video's HLS and DASH sources that need no
    /// key system and carry no server-side ads; a video with none of those downloads an MP4 rendition
    /// (`chooseMP4`), as the seed's offline manager does for progressive-only videos.
    /// A source protected for a key system a registered module serves (`keySystems`) is downloaded too, its
    /// persistent licence kept with it.
    static func downloadableSource(
        of video: Video, parameters: OfflineDownloadParameters = OfflineDownloadParameters(), keySystems: Set<KeySystem> = []
    ) throws(OfflineError) -> Source {
        if let error = video.error {
            throw OfflineError(.invalidParameter, "The video could not be loaded from the catalog (\(error.code)); there is nothing to download")
        }
        let served = Set(keySystems.map(\.rawValue))
        let candidates = video.sources.filter { source in
            (source.isHLS || source.isDASH) && source.vmapURL == nil && (source.keySystems.isEmpty || source.keySystems.keys.contains(where: served.contains))
        }
        if candidates.isEmpty, let mp4 = chooseMP4(video.sources, parameters: parameters) { return mp4 }
        let capabilities = PlaybackCapabilities(formats: [.hls, .dash], keySystemPreference: keySystems.map(\.rawValue).sorted())
        guard let source = SourceSelectionPolicy.capabilities(capabilities)(video.update { $0.sources = candidates }),
            candidates.contains(source)
        else {
            let kinds = Set(video.sources.map { $0.resolvedDeliveryType?.rawValue ?? $0.url.pathExtension }).sorted().joined(separator: ", ")
            throw OfflineError(
                .unsupported,
                "The video has no source Cove can download (it downloads clear or AES-128 HLS, clear DASH, Common Encryption under a registered module's key system, and MP4 renditions, without server-side ads); its sources are: \(kinds.isEmpty ? "none" : kinds)"
            )
        }
        return source
    }

    // MARK: MP4

    /// The MP4 rendition to keep: clear, fetched over HTTP(S), within the app's height limit, the highest
    /// average bitrate at or under the requested one (else the lowest), like a ladder's variant.
    static func chooseMP4(_ sources: [Source], parameters: OfflineDownloadParameters) -> Source? {
        let mp4 = sources.filter { source in
            source.isMP4 && source.keySystems.isEmpty && source.vmapURL == nil && ["http", "https"].contains(source.scheme ?? "")
        }
        let byBitrate = mp4.enumerated().sorted { ($0.element.averageBitrate ?? 0, $0.offset) < ($1.element.averageBitrate ?? 0, $1.offset) }.map(\.element)
        guard let lowest = byBitrate.first else { return nil }
        let fitting = byBitrate.filter { source in parameters.maximumHeight.map { Int64($0) >= (source.height ?? 0) } ?? true }
        let pool = fitting.isEmpty ? [lowest] : fitting
        guard let bitrate = parameters.requestedBitrate else { return pool.last }
        return pool.last { ($0.averageBitrate ?? 0) <= Int64(bitrate) } ?? pool[0]
    }

    /// One file, kept whole: the copy plays it through the same byte-range reader as the original.
    static func planMP4(_ source: Source, parameters: OfflineDownloadParameters, video: Video) throws(OfflineError) -> DownloadPlan {
        if let language = parameters.audioLanguages.first {
            throw OfflineError(
                .invalidParameter, "The video's MP4 rendition has one audio track, so audio in \"\(language)\" cannot be chosen; download it without --audio")
        }
        let duration = video.duration.map { MediaTime($0).seconds }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        let bitrate = source.averageBitrate ?? 0
        let estimate = source.size ?? Int64(Double(bitrate) / 8 * duration)
        let path = "media/video.mp4"
        let layout = OfflineLayout(
            masterPath: path, duration: duration,
            variant: .init(bandwidth: Int(bitrate), width: source.width.map(Int.init), height: source.height.map(Int.init)),
            audioLanguages: [], manifestTextLanguages: [], sidecars: [], posterPath: nil, thumbnailImagePath: nil, thumbnailTrackPath: nil, originFormat: "mp4")
        let file = PlannedFile(path: path, url: source.url, byteRange: nil, kind: .segment, estimatedBytes: max(estimate, 0))
        return DownloadPlan(files: [file], keys: [], documents: [:], layout: layout)
    }

    // MARK: HLS

    private func planHLS(
        _ loaded: StreamingLoader.Loaded, parameters: OfflineDownloadParameters, video: Video, source: Source
    ) async throws(OfflineError) -> DownloadPlan {
        let entry: HLSPresentationReader.Entry
        do {
            entry = try HLSPresentationReader.readEntry(loaded.body, url: loaded.url)
        } catch {
            throw OfflineError(.unsupported, "The HLS playlist could not be read: \(error.message)")
        }
        var clock = SequenceClock()
        let presentation: Presentation
        let variant: VariantTrack
        let videoTimeline: MediaTimeline
        switch entry {
        case .singleVariant(let single, let playlist):
            presentation = single
            variant = single.variants[0]
            videoTimeline = HLSPresentationReader.timeline(from: playlist, url: loaded.url, clock: &clock)
        case .presentation(let master):
            presentation = master
            variant = try Self.chooseVariant(master.variants, parameters: parameters)
            videoTimeline = try await hlsTimeline(variant.playlistURL, clock: &clock, what: "the variant's playlist")
        }
        try Self.checkVOD(videoTimeline)
        let groupAudio = presentation.audioRenditions.filter { $0.groupID == variant.audioGroup && $0.playlistURL != nil }
        let audio = try Self.chooseAudio(groupAudio, languages: parameters.audioLanguages)
        let groupText = presentation.textRenditions.filter { $0.groupID == variant.subtitlesGroup && $0.playlistURL != nil }
        let text = Self.chooseText(groupText, languages: parameters.captionLanguages)
        var audioTracks: [(AlternateRendition, MediaTimeline, Int)] = []
        for rendition in audio {
            var renditionClock = SequenceClock()
            let timeline = try await hlsTimeline(rendition.playlistURL!, clock: &renditionClock, what: "the \(rendition.name) audio playlist")
            audioTracks.append((rendition, timeline, Self.assumedAudioBitrate))
        }
        var textTracks: [(AlternateRendition, MediaTimeline)] = []
        for rendition in text {
            var renditionClock = SequenceClock()
            textTracks.append(
                (rendition, try await hlsTimeline(rendition.playlistURL!, clock: &renditionClock, what: "the \(rendition.name) subtitle playlist")))
        }
        var plan = try Self.assemble(
            variant: variant, videoTimeline: videoTimeline, audio: audioTracks, text: textTracks, sidecarTexts: [], extraCodecs: [], originFormat: "hls"
        )
        plan.licenses = try await licenses(for: [videoTimeline] + audioTracks.map(\.1), declared: [], source: source)
        return plan
    }

    private func hlsTimeline(_ url: URL, clock: inout SequenceClock, what: String) async throws(OfflineError) -> MediaTimeline {
        let loaded: StreamingLoader.Loaded
        do {
            loaded = try await loader.load(.manifest, url: url, maxBytes: 16 << 20)
            try MediaSniffer.checkPlaylist(loaded.body, contentType: loaded.contentType, url: loaded.url)
        } catch {
            throw OfflineError.download(error, what: what)
        }
        do {
            let playlist = try HLSPresentationReader.readMediaPlaylist(loaded.body, url: loaded.url)
            return HLSPresentationReader.timeline(from: playlist, url: loaded.url, clock: &clock)
        } catch {
            throw OfflineError(.unsupported, "\(what.prefix(1).uppercased() + what.dropFirst()) could not be read: \(error.message)")
        }
    }

    // MARK: DASH

    private func planDASH(
        _ loaded: StreamingLoader.Loaded, parameters: OfflineDownloadParameters, video: Video, source: Source
    ) async throws(OfflineError) -> DownloadPlan {
        let mpd: MPD
        do {
            mpd = try MPD.parse([UInt8](loaded.body), url: loaded.url)
        } catch {
            throw OfflineError(.unsupported, "The DASH manifest could not be read: \(error)")
        }
        guard mpd.kind == .static else {
            throw OfflineError(.unsupported, "The DASH manifest is live (type=\"dynamic\"); only video on demand can be downloaded")
        }
        let main = try layout(mpd, .main)
        let variant = try Self.chooseVariant(main.presentation.variants, parameters: parameters)
        let videoTimeline = try await dashTimeline(main, variant: variant.index)
        let audio = try Self.chooseAudio(main.presentation.audioRenditions, languages: parameters.audioLanguages)
        var audioTracks: [(AlternateRendition, MediaTimeline, Int)] = []
        var extraCodecs: [String] = []
        for rendition in audio {
            let audioLayout = try layout(mpd, rendition.selection)
            guard let best = audioLayout.presentation.variants.max(by: { $0.bandwidth < $1.bandwidth }) else { continue }
            audioTracks.append((rendition, try await dashTimeline(audioLayout, variant: best.index), best.bandwidth))
            extraCodecs += best.codecs
        }
        let texts = Self.chooseText(main.presentation.textRenditions, languages: parameters.captionLanguages)
        var plan = try Self.assemble(
            variant: variant, videoTimeline: videoTimeline, audio: audioTracks, text: [], sidecarTexts: texts, extraCodecs: extraCodecs, originFormat: "dash"
        )
        plan.licenses = try await licenses(for: [videoTimeline] + audioTracks.map(\.1), declared: main.presentation.contentProtection, source: source)
        return plan
    }

    private func layout(_ mpd: MPD, _ selection: ManifestSelection) throws(OfflineError) -> DASHLayout {
        do {
            return try DASHLayout(mpd: mpd, selection: selection, keySystems: decryptionModules.keySystems)
        } catch {
            throw OfflineError(error.code == .drmUnsupported ? .unsupported : .unsupported, error.message)
        }
    }

    private func dashTimeline(_ layout: DASHLayout, variant: Int) async throws(OfflineError) -> MediaTimeline {
        var indexes: [Int: SegmentIndexBox.Index] = [:]
        while true {
            let step: DASHLayout.TimelineStep
            do {
                step = try layout.timeline(for: variant, now: wallClock(), indexes: indexes)
            } catch {
                throw OfflineError(.unsupported, error.message)
            }
            switch step {
            case .ready(let timeline):
                try Self.checkVOD(timeline)
                return timeline
            case .needsIndex(let period, let url, let range):
                do {
                    let loaded = try await loader.load(.manifest, url: url, byteRange: range, maxBytes: 16 << 20)
                    indexes[period] = try SegmentIndexBox.parse(loaded.body, offset: range.offset)
                } catch {
                    throw OfflineError.download(error, what: "the segment index")
                }
            }
        }
    }

    // MARK: Licences

    /// Persistent licences for the tracks whose init segments are protected (Common Encryption), by the
    /// name the offline copy answers them under (`license/<key system>`): obtained now, through the
    /// request filters, so the copy plays with no network. Clear tracks need none.
    func licenses(for timelines: [MediaTimeline], declared: [DeclaredProtection], source: Source) async throws(OfflineError) -> [String: Data] {
        let broker = ProtectionBroker(
            modules: decryptionModules, sourceKeySystems: KeySystemConfiguration.entries(of: source), kind: .persistentLicense)
        defer { broker.close() }
        var any = false
        for timeline in timelines {
            // Clear, AES-128 or an HLS identity key (stored as a key, not a licence): nothing to license.
            let key = timeline.segments.first?.key
            guard let section = timeline.segments.first(where: { $0.initSection != nil })?.initSection,
                key.map({ ($0.method == .sampleAES || $0.method == .sampleAESCTR) && $0.keyFormat != "identity" }) ?? true
            else { continue }
            let content: ProtectedInitSegment?
            do {
                let loaded = try await loader.load(.initSegment, url: section.url, byteRange: section.byteRange)
                content = try ProtectedInitSegment.read(loaded.body)
            } catch let error as StreamingError {
                throw OfflineError.download(error, what: "an init segment")
            } catch {
                throw OfflineError(.unsupported, "An init segment's encryption boxes are malformed: \(error)")
            }
            guard let content else { continue }
            any = true
            do {
                _ = try await broker.session(
                    for: content, offered: broker.offered(for: content, segmentKey: key, declared: declared), loader: loader, url: section.url)
            } catch {
                throw OfflineError.download(error, what: "the licence")
            }
        }
        guard any else { return [:] }
        let licences = broker.persistentLicenses()
        guard !licences.isEmpty else {
            throw OfflineError(.unsupported, "The decryption module gave no persistent licence for the protected content; it cannot be played offline")
        }
        return Dictionary(uniqueKeysWithValues: licences.map { ("license/\($0.key.rawValue)", $0.value) })
    }

    // MARK: Choices

    /// The highest variant within the height limit whose bandwidth is at most the requested bitrate (the
    /// lowest when none is); the highest when no bitrate is requested.
    static func chooseVariant(_ variants: [VariantTrack], parameters: OfflineDownloadParameters) throws(OfflineError) -> VariantTrack {
        guard !variants.isEmpty else { throw OfflineError(.unsupported, "The manifest lists no variant to download") }
        let byBandwidth = variants.sorted { ($0.bandwidth, $0.index) < ($1.bandwidth, $1.index) }
        let fitting = byBandwidth.filter { variant in parameters.maximumHeight.map { limit in (variant.height ?? 0) <= limit } ?? true }
        let pool = fitting.isEmpty ? [byBandwidth[0]] : fitting
        guard let bitrate = parameters.requestedBitrate else { return pool.last! }
        return pool.last { $0.bandwidth <= bitrate } ?? pool[0]
    }

    /// The renditions for the requested languages (each must exist), or the default one.
    static func chooseAudio(_ renditions: [AlternateRendition], languages: [String]) throws(OfflineError) -> [AlternateRendition] {
        guard !renditions.isEmpty else {
            if let first = languages.first {
                throw OfflineError(
                    .invalidParameter, "The video has no alternate audio renditions, so audio in \"\(first)\" cannot be chosen; download it without --audio")
            }
            return []
        }
        guard !languages.isEmpty else {
            return [renditions.first(where: \.isDefault) ?? renditions[0]]
        }
        var chosen: [AlternateRendition] = []
        for language in languages {
            guard let match = renditions.first(where: { matches($0.language ?? $0.name, language) }) else {
                let available = renditions.map { $0.language ?? $0.name }.joined(separator: ", ")
                throw OfflineError(.invalidParameter, "The video has no audio in \"\(language)\"; it has: \(available)")
            }
            if !chosen.contains(match) { chosen.append(match) }
        }
        // The rendition marked default plays first when present.
        return chosen.sorted { $0.isDefault && !$1.isDefault }
    }

    /// Text renditions for `languages`: nil takes every one, empty none. Languages no rendition has are
    /// checked later against the sidecar tracks too.
    static func chooseText(_ renditions: [AlternateRendition], languages: [String]?) -> [AlternateRendition] {
        guard let languages else { return renditions }
        return renditions.filter { rendition in languages.contains { matches(rendition.language ?? rendition.name, $0) } }
    }

    /// `en` matches `en`, `en-US` and `EN_us`; `en-US` matches `en-US` and `en`.
    static func matches(_ available: String, _ wanted: String) -> Bool {
        let a = available.lowercased().replacingOccurrences(of: "_", with: "-")
        let w = wanted.lowercased().replacingOccurrences(of: "_", with: "-")
        return a == w || a.split(separator: "-").first == w.split(separator: "-").first && (!w.contains("-") || !a.contains("-"))
    }

    static func checkVOD(_ timeline: MediaTimeline) throws(OfflineError) {
        if timeline.isLive {
            throw OfflineError(.unsupported, "The stream is live (its playlist has no end); only video on demand can be downloaded")
        }
        if timeline.segments.isEmpty {
            throw OfflineError(.unsupported, "The stream's playlist lists no segment")
        }
    }

    // MARK: Layout

    private static func assemble(
        variant: VariantTrack, videoTimeline: MediaTimeline, audio: [(AlternateRendition, MediaTimeline, Int)], text: [(AlternateRendition, MediaTimeline)],
        sidecarTexts: [AlternateRendition], extraCodecs: [String], originFormat: String
    ) throws(OfflineError) -> DownloadPlan {
        var files: [PlannedFile] = []
        var keys: [PlannedKey] = []
        var keyNames: [URL: String] = [:]
        var documents: [String: String] = [:]
        let videoBitrate = variant.averageBandwidth ?? (variant.bandwidth > 0 ? variant.bandwidth : 2_000_000)
        let videoPart = try OfflinePlaylistWriter.mediaPlaylist(
            for: .init(playlistPath: "video.m3u8", folder: "video", timeline: videoTimeline), bitrate: videoBitrate, keyNames: &keyNames
        )
        documents["video.m3u8"] = videoPart.playlist
        var audioEntries: [OfflinePlaylistWriter.AudioEntry] = []
        var audioParts: [[PlannedFile]] = []
        for (index, (rendition, timeline, bitrate)) in audio.enumerated() {
            let path = "audio-\(index).m3u8"
            let part = try OfflinePlaylistWriter.mediaPlaylist(
                for: .init(playlistPath: path, folder: "audio-\(index)", timeline: timeline), bitrate: bitrate, keyNames: &keyNames)
            documents[path] = part.playlist
            audioParts.append(part.files)
            keys += part.keys
            audioEntries.append(.init(name: rendition.name, language: rendition.language, isDefault: index == 0, playlistPath: path))
        }
        var textEntries: [OfflinePlaylistWriter.TextEntry] = []
        var textFiles: [PlannedFile] = []
        for (index, (rendition, timeline)) in text.enumerated() {
            let path = "text-\(index).m3u8"
            let part = try OfflinePlaylistWriter.mediaPlaylist(
                for: .init(playlistPath: path, folder: "text-\(index)", timeline: timeline), bitrate: 8_000, keyNames: &keyNames)
            documents[path] = part.playlist
            keys += part.keys
            textFiles += part.files.map { PlannedFile(path: $0.path, url: $0.url, byteRange: $0.byteRange, kind: .text, estimatedBytes: $0.estimatedBytes) }
            textEntries.append(
                .init(name: rendition.name, language: rendition.language, isDefault: rendition.isDefault, isForced: rendition.isForced, playlistPath: path))
        }
        // Video and audio interleaved by position: a download that stops half way holds the first half of each.
        let longest = max(videoPart.files.count, audioParts.map(\.count).max() ?? 0)
        for position in 0..<longest {
            if position < videoPart.files.count { files.append(videoPart.files[position]) }
            for part in audioParts where position < part.count { files.append(part[position]) }
        }
        files += textFiles
        keys = videoPart.keys + keys
        var sidecars: [OfflineLayout.SidecarFile] = []
        for (index, rendition) in sidecarTexts.enumerated() {
            guard let url = rendition.playlistURL else { continue }
            let path = "captions/manifest-\(index).\(OfflinePlaylistWriter.fileExtension(url, fallback: "vtt"))"
            files.append(PlannedFile(path: path, url: url, byteRange: nil, kind: .text, estimatedBytes: 16_384))
            sidecars.append(
                .init(
                    path: path, language: rendition.language, label: rendition.name, kind: TextTrack.Kind.subtitles.rawValue, isDefault: rendition.isDefault,
                    properties: nil))
        }
        documents["master.m3u8"] = OfflinePlaylistWriter.masterPlaylist(
            variant: variant, videoPath: "video.m3u8", audio: audioEntries, text: textEntries, extraCodecs: extraCodecs
        )
        let layout = OfflineLayout(
            masterPath: "master.m3u8", duration: videoTimeline.duration,
            variant: .init(bandwidth: variant.bandwidth, width: variant.width, height: variant.height),
            audioLanguages: audio.map { $0.0.language ?? $0.0.name }, manifestTextLanguages: text.map { $0.0.language ?? $0.0.name },
            sidecars: sidecars, posterPath: nil, thumbnailImagePath: nil, thumbnailTrackPath: nil, originFormat: originFormat
        )
        return DownloadPlan(files: files, keys: keys, documents: documents, layout: layout)
    }

    // MARK: Sidecars and images

    /// The catalog's caption and subtitle tracks (`text_tracks`), as whole WebVTT files. A requested
    /// language that neither the manifest nor the catalog has is an `invalidParameter` error.
    private func addSidecars(of video: Video, to plan: inout DownloadPlan, parameters: OfflineDownloadParameters) async throws(OfflineError) {
        let textKinds: Set<TextTrack.Kind> = [.captions, .subtitles, .descriptions]
        let tracks = video.textTracks.filter { textKinds.contains($0.kind) }
        let chosen =
            parameters.captionLanguages.map { languages in
                tracks.filter { track in languages.contains { Self.matches(track.language ?? track.label ?? "", $0) } }
            } ?? tracks
        if let languages = parameters.captionLanguages {
            let have = plan.layout.manifestTextLanguages + plan.layout.sidecars.compactMap(\.language) + chosen.compactMap { $0.language ?? $0.label }
            for language in languages where !have.contains(where: { Self.matches($0, language) }) {
                let available =
                    (plan.layout.manifestTextLanguages + plan.layout.sidecars.compactMap(\.language) + tracks.compactMap { $0.language ?? $0.label })
                throw OfflineError(
                    .invalidParameter, "The video has no captions in \"\(language)\"; it has: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
                )
            }
        }
        for (index, track) in chosen.enumerated() {
            let path = "captions/\(index).vtt"
            plan.files.append(PlannedFile(path: path, url: track.source, byteRange: nil, kind: .text, estimatedBytes: 16_384))
            var extra = track.properties
            for key in [TextTrack.PropertyKey.source, TextTrack.PropertyKey.sources] { extra.removeValue(forKey: key) }
            plan.layout.sidecars.append(
                .init(
                    path: path, language: track.language, label: track.label, kind: track.kind.rawValue, isDefault: track.isDefault,
                    properties: JSONValue.object(extra).serialized()
                ))
        }
    }

    /// The poster, the thumbnail image and the thumbnail track with its (sprite) images.
    private func addImages(of video: Video, to plan: inout DownloadPlan) async throws(OfflineError) {
        if let poster = video.poster ?? video.posterSources.first {
            let path = "images/poster.\(OfflinePlaylistWriter.fileExtension(poster, fallback: "jpg"))"
            plan.files.append(PlannedFile(path: path, url: poster, byteRange: nil, kind: .text, estimatedBytes: 65_536))
            plan.layout.posterPath = path
        }
        if let thumbnail = video.thumbnail ?? video.thumbnailSources.first {
            let path = "images/thumbnail.\(OfflinePlaylistWriter.fileExtension(thumbnail, fallback: "jpg"))"
            plan.files.append(PlannedFile(path: path, url: thumbnail, byteRange: nil, kind: .text, estimatedBytes: 16_384))
            plan.layout.thumbnailImagePath = path
        }
        guard let trackURL = video.thumbnailVTTURL else { return }
        let loaded: StreamingLoader.Loaded
        do {
            loaded = try await loader.load(.text, url: trackURL, maxBytes: 8 << 20)
        } catch {
            throw OfflineError.download(error, what: "the thumbnail track")
        }
        let track: ThumbnailTrack
        do {
            track = try ThumbnailTrack.parse([UInt8](loaded.body), baseURL: loaded.url.absoluteString)
        } catch {
            throw OfflineError(.unsupported, "The thumbnail track is not WebVTT Cove can read: \(error)")
        }
        var names: [String: String] = [:]
        var vtt = "WEBVTT\n\n"
        for entry in track.entries {
            guard let url = URL(string: entry.imageURL) else { continue }
            let name: String
            if let known = names[entry.imageURL] {
                name = known
            } else {
                name = "thumbnails/\(names.count).\(OfflinePlaylistWriter.fileExtension(url, fallback: "jpg"))"
                names[entry.imageURL] = name
                plan.files.append(PlannedFile(path: name, url: url, byteRange: nil, kind: .text, estimatedBytes: 32_768))
            }
            let fragment = entry.rect.map { "#xywh=\($0.unit == .percent ? "percent:" : "")\($0.x),\($0.y),\($0.width),\($0.height)" } ?? ""
            vtt += "\(entry.start) --> \(entry.end)\n\(name.dropFirst("thumbnails/".count))\(fragment)\n\n"
        }
        plan.documents["thumbnails/thumbnails.vtt"] = vtt
        plan.layout.thumbnailTrackPath = "thumbnails/thumbnails.vtt"
    }
}
