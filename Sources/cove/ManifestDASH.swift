import CoveCore
import CoveDASH
import CoveStreaming
import Foundation

/// DASH: the MPD as `CoveDASH` reads it (periods, adaptation sets, `ContentProtection`) and as Cove plays it
/// (`DASHLayout`: the video ladder as variants, audio sets as audio renditions, WebVTT/TTML sets as subtitles,
/// each variant's segments across periods on one timeline). An indexed `SegmentBase` representation's
/// `sidx` is read (a byte range of the media file, from disk or over http(s)) to count its segments.
struct DASHManifestReader: Sendable {
    let context: ManifestContext

    func describe(_ body: Data) async -> Result<ManifestReport, ErrorReport> {
        let mpd: MPD
        do throws(DASHParseError) {
            mpd = try MPD.parse([UInt8](body), url: context.manifestURL)
        } catch {
            return .failure(ErrorReport(error))
        }
        var report = ManifestReport(
            format: "dash", type: mpd.kind == .static ? "dashStatic" : "dashDynamic", url: Redaction.redact(url: context.manifestURL))
        report.duration = mpd.mediaPresentationDuration.map(ManifestReport.seconds)
        report.periods = mpd.periods.enumerated().map { index, period in
            PeriodReport(
                index: index, id: period.id, start: ManifestReport.seconds(period.start), duration: period.duration.map(ManifestReport.seconds),
                adaptationSets: period.adaptationSets.map { set in
                    AdaptationSetReport(
                        id: set.id, contentType: set.contentType.rawValue, mimeType: set.mimeType, language: set.language, label: set.label,
                        roles: set.roles, representations: set.representations.count,
                        contentProtection: set.contentProtections.map {
                            ProtectionReport(schemeIdUri: $0.schemeIdUri, keySystem: $0.keySystemName, value: $0.value, defaultKID: $0.defaultKID)
                        })
                })
        }
        report.keySystems = Array(Set(mpd.periods.flatMap { $0.adaptationSets.flatMap { $0.contentProtections.map(\.keySystemName) } })).sorted()
        let now = Date().timeIntervalSince1970
        if mpd.kind == .dynamic {
            report.live = LiveReport(
                dvrMinimumWindow: ManifestContext.dvrMinimumWindow,
                timeShiftBufferDepth: mpd.timeShiftBufferDepth.map(ManifestReport.seconds),
                availabilityStartTime: ManifestReport.iso8601(mpd.availabilityStartTime), publishTime: ManifestReport.iso8601(mpd.publishTime),
                minimumUpdatePeriod: mpd.minimumUpdatePeriod.map(ManifestReport.seconds),
                suggestedPresentationDelay: mpd.suggestedPresentationDelay.map(ManifestReport.seconds))
        }
        let layout: DASHLayout
        do throws(StreamingError) {
            layout = try DASHLayout(mpd: mpd, selection: .main)
        } catch {
            // Described as far as it goes (periods, sets, key systems), with why Cove cannot play it.
            report.error = ErrorReport(error)
            return .success(report)
        }
        var firstTimeline: MediaTimeline?
        for track in layout.presentation.variants {
            let (media, timeline) = await self.media(layout, variant: track.index, now: now)
            if firstTimeline == nil { firstTimeline = timeline }
            let fragment = track.playlistURL.fragment ?? ""
            report.variants.append(
                VariantReport(
                    index: track.index, bandwidth: track.bandwidth, averageBandwidth: track.averageBandwidth, width: track.width, height: track.height,
                    codecs: track.codecs, frameRate: track.frameRate, uri: context.display(track.playlistURL),
                    representationID: fragment.hasPrefix("representation=") ? String(fragment.dropFirst("representation=".count)) : nil,
                    audioGroup: track.audioGroup, subtitlesGroup: track.subtitlesGroup, media: media))
        }
        for (position, audioRendition) in layout.presentation.audioRenditions.enumerated() {
            var representations: Int?
            var media: MediaReport
            do throws(StreamingError) {
                let audio = try DASHLayout(mpd: mpd, selection: .dashAudio(position))
                representations = audio.presentation.variants.count
                media = await self.media(audio, variant: 0, now: now).report
            } catch {
                media = MediaReport(read: false, error: ErrorReport(error))
            }
            report.renditions.append(rendition(audioRendition, representations: representations, media: media))
        }
        for text in layout.presentation.textRenditions {
            var media = MediaReport(read: true, segments: 1)
            if case .wholeFile(let duration) = text.selection { media.duration = ManifestReport.seconds(duration) }
            report.renditions.append(rendition(text, representations: 1, media: media))
        }
        if mpd.kind == .static, report.duration == nil { report.duration = firstTimeline.map { ManifestReport.seconds($0.end) } }
        if var live = report.live, let firstTimeline {
            let window = ManifestContext.live(firstTimeline)
            live.targetDuration = window.targetDuration
            live.windowLength = window.windowLength
            live.windowSegments = window.windowSegments
            live.seekableWindow = window.seekableWindow
            live.dvr = window.dvr
            report.live = live
        }
        return .success(report)
    }

    private func rendition(_ rendition: AlternateRendition, representations: Int?, media: MediaReport) -> RenditionReport {
        RenditionReport(
            kind: rendition.kind == .audio ? "audio" : "subtitles", group: rendition.groupID, name: rendition.name, language: rendition.language,
            isDefault: rendition.isDefault, autoselect: rendition.isAutoselect, forced: rendition.isForced,
            uri: rendition.kind == .text ? rendition.playlistURL.map(context.display) : nil, representations: representations, media: media)
    }

    /// One variant's segments over every period, reading each indexed `SegmentBase`'s `sidx` it needs.
    private func media(_ layout: DASHLayout, variant: Int, now: Double) async -> (report: MediaReport, timeline: MediaTimeline?) {
        var indexes: [Int: SegmentIndexBox.Index] = [:]
        // Each step either finishes or adds one period's index: at most one step more than there are periods.
        for _ in 0...layout.mpd.periods.count {
            let step: DASHLayout.TimelineStep
            do throws(StreamingError) {
                step = try layout.timeline(for: variant, now: now, indexes: indexes)
            } catch {
                return (MediaReport(read: false, error: ErrorReport(error)), nil)
            }
            switch step {
            case .ready(let timeline):
                return (context.media(timeline), timeline)
            case .needsIndex(let period, let url, let range):
                switch await context.fetch(url, byteRange: range, maxBytes: ManifestInspector.maxIndexBytes) {
                case .notRead(let reason): return (MediaReport(read: false, notRead: "its segment index (sidx): \(reason)"), nil)
                case .failed(let error): return (MediaReport(read: false, error: error), nil)
                case .loaded(let loaded):
                    do throws(StreamingError) {
                        indexes[period] = try SegmentIndexBox.parse(loaded.body, offset: range.offset)
                    } catch {
                        return (MediaReport(read: false, error: ErrorReport(error)), nil)
                    }
                }
            }
        }
        return (MediaReport(read: false, notRead: "its segment indexes did not settle"), nil)
    }
}
