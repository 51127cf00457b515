import CoveCore
import CoveDASH
import Foundation

/// Reads a DASH MPD into the presentation model: the video ladder as variants (a `ManifestSelection`
/// picks an audio set's representations instead), the other audio sets as alternate renditions, and
/// each variant's segments across periods as one timeline — period boundaries are discontinuities.
/// Pure: the MPD in, values or a typed error out. Indexed `SegmentBase` representations need their
/// `sidx` first (`SegmentIndexBox`); `timeline` says so by returning the index range to fetch.
public struct DASHLayout: Sendable {
    public let mpd: MPD
    public let presentation: Presentation
    /// For each variant, its representation in each period (nil where a period has no matching set).
    let tracks: [[TrackRef?]]

    struct TrackRef: Sendable, Hashable {
        let set: Int
        let representation: Int
    }

    /// The group ID of the DASH audio renditions (variants name it as their audio group).
    static let audioGroup = "dash-audio"
    /// The group ID of the DASH text renditions.
    static let textGroup = "dash-text"

    /// - Parameters:
    ///   - mpd: the parsed manifest.
    ///   - selection: what this session plays of it (the video and muxed sets, or one audio set).
    ///   - keySystems: the key systems a registered decryption module serves: a set protected only
    ///     for others is `drmUnsupported`, naming them.
    public init(mpd: MPD, selection: ManifestSelection, keySystems: Set<KeySystem> = []) throws(StreamingError) {
        self.mpd = mpd
        guard let first = mpd.periods.first else { throw StreamingError(.invalidManifest, "The DASH manifest has no period", url: mpd.url) }
        let audioSets = Self.playable(first.adaptationSets, of: .audio)
        let videoSets = Self.playable(first.adaptationSets, of: .video)
        try Self.checkProtection(first.adaptationSets, url: mpd.url, served: keySystems)
        let chosenSet: Int
        var renditions: [AlternateRendition] = []
        switch selection {
        case .main:
            if let video = videoSets.first(where: { first.adaptationSets[$0].isMain }) ?? videoSets.first {
                chosenSet = video
                for (position, index) in audioSets.enumerated() {
                    let set = first.adaptationSets[index]
                    let isDefault = set.isMain || (position == 0 && !audioSets.contains { first.adaptationSets[$0].isMain })
                    renditions.append(
                        AlternateRendition(
                            kind: .audio, groupID: Self.audioGroup, name: set.label ?? set.language ?? "Audio \(position + 1)", language: set.language,
                            isDefault: isDefault, isAutoselect: true, playlistURL: mpd.url, selection: .dashAudio(position)
                        ))
                }
            } else if let audio = audioSets.first {
                chosenSet = audio
            } else {
                throw StreamingError(.unsupportedFeature, "The DASH manifest has no video or audio adaptation set Cove can play", url: mpd.url)
            }
        case .dashAudio(let position):
            guard audioSets.indices.contains(position) else {
                throw StreamingError(.invalidManifest, "The DASH manifest no longer has audio set \(position + 1)", url: mpd.url)
            }
            chosenSet = audioSets[position]
        case .wholeFile:
            throw StreamingError(.invalidManifest, "A whole-file text rendition is not a DASH stream a session can play", url: mpd.url)
        }
        let texts = selection == .main ? Self.textRenditions(first, mpd: mpd) : []
        let set = first.adaptationSets[chosenSet]
        guard !set.representations.isEmpty else {
            throw StreamingError(.invalidManifest, "The DASH manifest's chosen adaptation set has no representation", url: mpd.url)
        }
        let variants = set.representations.enumerated().map { index, representation in
            VariantTrack(
                index: index, bandwidth: representation.bandwidth, width: representation.width, height: representation.height,
                codecs: representation.codecs, frameRate: representation.frameRate,
                playlistURL: Self.identity(of: representation, in: mpd),
                audioGroup: renditions.isEmpty ? nil : Self.audioGroup, subtitlesGroup: texts.isEmpty ? nil : Self.textGroup
            )
        }
        presentation = Presentation(
            manifestURL: mpd.url, variants: variants, audioRenditions: renditions, textRenditions: texts,
            contentProtection: set.contentProtections.map { protection in
                DeclaredProtection(
                    keySystem: KeySystem(systemID: protection.schemeIdUri), name: protection.schemeIdUri,
                    defaultKeyID: protection.defaultKID.flatMap { KeyID(hex: $0) }, systemHeader: protection.pssh.flatMap(ProtectionSystemHeader.init(box:)))
            })
        // Later periods: the set of the same kind and language (else the same position), and in it the
        // representation of the same ID (else the same rank by bandwidth).
        let kind = set.contentType
        let kindPosition = (kind == .video ? videoSets : audioSets).firstIndex(of: chosenSet) ?? 0
        var tracks = Array(repeating: [TrackRef?](), count: variants.count)
        let firstRanks = Self.ranks(set.representations)
        for period in mpd.periods {
            let candidates = Self.playable(period.adaptationSets, of: kind)
            let match =
                candidates.first { period.adaptationSets[$0].language == set.language && period.adaptationSets[$0].id == set.id }
                ?? candidates.first { period.adaptationSets[$0].language == set.language && set.language != nil }
                ?? (candidates.indices.contains(kindPosition) ? candidates[kindPosition] : candidates.first)
            for variant in variants.indices {
                guard let match else { tracks[variant].append(nil); continue }
                let representations = period.adaptationSets[match].representations
                let wanted = set.representations[variant]
                let byID = representations.firstIndex { $0.id == wanted.id }
                let ranked = Self.ranks(representations)
                let byRank = ranked.isEmpty ? nil : ranked[min(firstRanks.firstIndex(of: variant) ?? 0, ranked.count - 1)]
                tracks[variant].append((byID ?? byRank).map { TrackRef(set: match, representation: $0) })
            }
        }
        self.tracks = tracks
    }

    /// What a variant's timeline needs: the segments (known now), or a segment index to fetch first.
    public enum TimelineStep: Sendable {
        case ready(MediaTimeline)
        /// Fetch `range` of `url` (the sidx) for `period`, parse it, and call `timeline` again with it.
        case needsIndex(period: Int, url: URL, range: ByteSpan)
    }

    /// The variant's segments over all periods. `indexes` holds the `sidx` boxes already read, by period.
    /// `now` is the wall clock (seconds since 1970) for a live MPD.
    public func timeline(for variant: Int, now: Double, indexes: [Int: SegmentIndexBox.Index] = [:]) throws(StreamingError) -> TimelineStep {
        var segments: [SegmentReference] = []
        var sequence: Int?
        var longest = 0.0
        for (periodIndex, period) in mpd.periods.enumerated() {
            guard let ref = tracks[variant][periodIndex] else { continue }
            let representation = period.adaptationSets[ref.set].representations[ref.representation]
            var list: DASHSegmentList?
            do {
                list = try representation.segments(in: period, of: mpd, now: now)
            } catch {
                throw StreamingError(.invalidManifest, "The DASH manifest could not be expanded: \(error)", url: mpd.url)
            }
            if list == nil, case .base(let base) = representation.addressing, let indexRange = base.indexRange {
                guard let index = indexes[periodIndex] else {
                    return .needsIndex(period: periodIndex, url: representation.baseURL, range: ByteSpan(offset: indexRange.first, length: indexRange.length))
                }
                list = Self.segments(from: index, base: base, period: period, url: representation.baseURL)
            }
            guard let list else { continue }
            let initSection = list.initialization.map { InitSection(url: $0.url, byteRange: $0.range.map { ByteSpan(offset: $0.first, length: $0.length) }) }
            for segment in list.segments {
                // Numbers align variants within a period; across periods the count carries on.
                let number = sequence.map { $0 + 1 } ?? segment.number
                sequence = number
                longest = max(longest, segment.duration)
                segments.append(
                    SegmentReference(
                        sequence: number, start: segment.start, duration: segment.duration, url: segment.url,
                        byteRange: segment.range.map { ByteSpan(offset: $0.first, length: $0.length) },
                        initSection: initSection, discontinuity: periodIndex
                    ))
            }
        }
        return .ready(
            MediaTimeline(
                segments: segments, targetDuration: max(longest, mpd.maxSegmentDuration ?? 0, 0.5), isLive: mpd.kind == .dynamic,
                liveDelay: mpd.suggestedPresentationDelay
            ))
    }

    /// Text sets whose representation is one WebVTT or TTML file (`text/vtt`, `application/ttml+xml`; no
    /// segment template or list): the common DASH sidecar form. Segmented text (WebVTT or TTML in fMP4,
    /// `wvtt`/`stpp`) is left out.
    private static func textRenditions(_ period: Period, mpd: MPD) -> [AlternateRendition] {
        let duration = mpd.mediaPresentationDuration ?? period.duration ?? 0
        var result: [AlternateRendition] = []
        for set in period.adaptationSets where set.contentType == .text {
            let mime = (set.representations.first?.mimeType ?? set.mimeType)?.lowercased()
            guard let representation = set.representations.first, mime == "text/vtt" || mime == "application/ttml+xml",
                case .base(let base) = representation.addressing, base.indexRange == nil
            else { continue }
            result.append(
                AlternateRendition(
                    kind: .text, groupID: textGroup, name: set.label ?? set.language ?? "Subtitles \(result.count + 1)", language: set.language,
                    isDefault: set.isMain, isAutoselect: true, isForced: set.roles.contains("forced-subtitle"),
                    playlistURL: representation.baseURL, selection: .wholeFile(duration: duration)
                ))
        }
        return result
    }

    /// The MPD's URL with the representation's ID as fragment: how the variant is named in reports (a
    /// DASH representation has no playlist of its own).
    static func identity(of representation: Representation, in mpd: MPD) -> URL {
        var components = URLComponents(url: mpd.url, resolvingAgainstBaseURL: true)
        components?.fragment = "representation=\(representation.id)"
        return components?.url ?? mpd.url
    }

    private static func segments(from index: SegmentIndexBox.Index, base: SegmentBase, period: Period, url: URL) -> DASHSegmentList {
        let scale = Double(index.timescale)
        let offset = Double(base.presentationTimeOffset) / Double(base.timescale)
        let segments = index.references.enumerated().map { number, reference in
            DASHSegment(
                number: number + 1, start: period.start + Double(reference.time) / scale - offset, duration: Double(reference.duration) / scale,
                url: url, range: ByteRange(first: reference.range.offset, last: reference.range.offset + reference.range.length - 1)
            )
        }
        return DASHSegmentList(initialization: base.initialization, segments: segments)
    }

    /// Sets of `kind` Cove can play: unprotected ones (a protected set is skipped when another exists).
    private static func playable(_ sets: [AdaptationSet], of kind: ContentType) -> [Int] {
        let all = sets.indices.filter { sets[$0].contentType == kind && !sets[$0].representations.isEmpty }
        let clear = all.filter { sets[$0].contentProtections.isEmpty }
        return clear.isEmpty ? all : clear
    }

    /// A manifest whose only video (or, audio-only, audio) needs a key system no registered module serves
    /// is `drmUnsupported`, naming it.
    private static func checkProtection(_ sets: [AdaptationSet], url: URL, served: Set<KeySystem>) throws(StreamingError) {
        for kind in [ContentType.video, .audio] {
            let chosen = playable(sets, of: kind)
            guard let protected = chosen.first(where: { !sets[$0].contentProtections.isEmpty }) else {
                if !chosen.isEmpty { return }
                continue
            }
            let protections = sets[protected].contentProtections
            if protections.contains(where: { KeySystem(systemID: $0.schemeIdUri).map(served.contains) ?? false }) { return }
            // Only the Common Encryption signal: the key system is for the init segment's `pssh` to say.
            if !served.isEmpty, protections.allSatisfy(\.isCommonEncryptionSignal) { return }
            let systems = protections.filter { !$0.isCommonEncryptionSignal }.map(\.keySystemName)
            let named = Array(Set(systems.isEmpty ? protections.map(\.keySystemName) : systems)).sorted().joined(separator: ", ")
            throw StreamingError(
                .drmUnsupported,
                "The DASH manifest's \(kind.rawValue) is protected with \(named), a key system no registered decryption module serves; register a module for it (StreamingConfiguration.decryptionModules) or play a clear source of the video",
                url: url
            )
        }
    }

    /// Representation indexes from the lowest bandwidth to the highest.
    private static func ranks(_ representations: [Representation]) -> [Int] {
        representations.indices.sorted { (representations[$0].bandwidth, $0) < (representations[$1].bandwidth, $1) }
    }
}
