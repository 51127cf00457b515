import CovePlayerControls
import Foundation

/// `cove manifest`'s human output: a few lines per part of the presentation, the same facts as `--json`.
struct ManifestText {
    let report: ManifestReport

    func print() {
        for line in lines() { Terminal.line(line) }
        if let error = report.error { Terminal.error("cove manifest: \(error.message)") }
        for warning in report.warnings { Terminal.error("warning: \(warning)") }
    }

    func lines() -> [String] {
        var out: [String] = []
        var head = Self.typeNames[report.type] ?? report.type
        if let version = report.version { head += " (version \(version))" }
        if report.live != nil {
            head += ", live"
        } else if let duration = report.duration {
            head += ", \(Self.time(duration))"
        }
        out.append("\(head) — \(report.url)")
        if let offset = report.startOffset { out.append("start offset: \(Self.time(offset))") }
        if let live = report.live { out.append("live: " + Self.live(live)) }
        if !report.periods.isEmpty {
            out.append("\(Self.count(report.periods.count, "period")):")
            for period in report.periods { out.append("  " + Self.period(period)) }
        }
        if !report.variants.isEmpty {
            out.append("\(Self.count(report.variants.count, "variant")):")
            for variant in report.variants { out.append("  " + Self.variant(variant)) }
        }
        if !report.renditions.isEmpty {
            out.append("\(Self.count(report.renditions.count, "rendition")):")
            for rendition in report.renditions { out.append("  " + Self.rendition(rendition)) }
        }
        if let iFrames = report.iFrameVariants, iFrames > 0 { out.append("I-frame variants: \(iFrames) (not played)") }
        var keys = report.sessionKeys.map { "session key: " + Self.key($0) }
        var seen = Set(report.sessionKeys)
        for media in report.variants.compactMap(\.media) + report.renditions.compactMap(\.media) {
            for key in media.keys ?? [] where seen.insert(key).inserted { keys.append("key: " + Self.key(key)) }
        }
        out += keys
        out.append("key systems: " + (report.keySystems.isEmpty ? "none (clear)" : report.keySystems.joined(separator: ", ")))
        return out
    }

    static let typeNames = [
        "hlsMaster": "HLS master playlist", "hlsMedia": "HLS media playlist", "dashStatic": "DASH static MPD", "dashDynamic": "DASH dynamic MPD",
    ]

    static func time(_ seconds: Double) -> String { String(format: "%.3f s", seconds) }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func live(_ live: LiveReport) -> String {
        var parts: [String] = []
        if let target = live.targetDuration { parts.append("target duration \(time(target))") }
        if let window = live.windowLength { parts.append("window \(time(window))\(live.windowSegments.map { " in \(count($0, "segment"))" } ?? "")") }
        if let seekable = live.seekableWindow { parts.append("seekable \(time(seekable))") }
        if let dvr = live.dvr { parts.append("DVR \(dvr ? "yes" : "no") (from \(time(live.dvrMinimumWindow)))") }
        if let type = live.playlistType { parts.append("playlist type \(type)") }
        if let sequence = live.mediaSequence { parts.append("media sequence \(sequence)") }
        if let sequence = live.discontinuitySequence, sequence > 0 { parts.append("discontinuity sequence \(sequence)") }
        if let depth = live.timeShiftBufferDepth { parts.append("timeShiftBufferDepth \(time(depth))") }
        if let start = live.availabilityStartTime { parts.append("availabilityStartTime \(start)") }
        if let delay = live.suggestedPresentationDelay { parts.append("suggestedPresentationDelay \(time(delay))") }
        if let period = live.minimumUpdatePeriod { parts.append("minimumUpdatePeriod \(time(period))") }
        return parts.joined(separator: ", ")
    }

    static func period(_ period: PeriodReport) -> String {
        let span = period.duration.map { "\(time(period.start)) + \(time($0))" } ?? "from \(time(period.start))"
        let sets = period.adaptationSets.map { set -> String in
            var text = set.contentType
            if let language = set.language { text += " (\(language))" }
            text += " ×\(set.representations)"
            for protection in set.contentProtection {
                text += " [\(protection.keySystem)\(protection.defaultKID.map { " default_KID \($0)" } ?? "")]"
            }
            return text
        }
        return "\(period.index)\(period.id.map { " id \($0)" } ?? ""): \(span); " + sets.joined(separator: ", ")
    }

    static func variant(_ variant: VariantReport) -> String {
        var parts = ["\(variant.index)", String(format: "%.1f kbit/s", Double(variant.bandwidth) / 1000)]
        if let width = variant.width, let height = variant.height { parts.append("\(width)x\(height)") }
        if let rate = variant.frameRate { parts.append(String(format: "%.3g fps", rate)) }
        if !variant.codecs.isEmpty { parts.append(variant.codecs.joined(separator: ",")) }
        parts.append(variant.representationID.map { "representation \($0)" } ?? variant.uri)
        return parts.joined(separator: "  ") + media(variant.media)
    }

    static func rendition(_ rendition: RenditionReport) -> String {
        var parts = [rendition.kind, rendition.group, rendition.language ?? "-", "“\(rendition.name)”"]
        if rendition.isDefault { parts.append("default") }
        if rendition.forced { parts.append("forced") }
        if let id = rendition.instreamID { parts.append(id) }
        if let representations = rendition.representations, rendition.kind == "audio" { parts.append(count(representations, "representation")) }
        if let uri = rendition.uri { parts.append(uri) }
        return parts.joined(separator: "  ") + media(rendition.media)
    }

    /// ": 10 segments, 20.000 s, …" or why it was not read.
    static func media(_ media: MediaReport?) -> String {
        guard let media else { return "" }
        if let error = media.error { return ": ERROR \(error.message)" }
        if let reason = media.notRead { return ": not read (\(reason))" }
        var parts: [String] = []
        if let segments = media.segments { parts.append(count(segments, "segment")) }
        if let duration = media.duration { parts.append(time(duration)) }
        if media.live == true { parts.append("live") }
        if let type = media.playlistType, media.live != true { parts.append(type) }
        if let n = media.discontinuities, n > 0 { parts.append(count(n, "discontinuity").replacingOccurrences(of: "discontinuitys", with: "discontinuities")) }
        if let n = media.gaps, n > 0 { parts.append(count(n, "gap")) }
        if let n = media.byteRangeSegments, n > 0 { parts.append("\(n) byte ranges") }
        if let n = media.encryptedSegments, n > 0 { parts.append("\(n) encrypted") }
        if let sections = media.initSections, !sections.isEmpty {
            parts.append("init " + sections.map { $0.uri + ($0.byteRange.map { " [\($0)]" } ?? "") }.joined(separator: ", "))
        }
        return ": " + parts.joined(separator: ", ")
    }

    static func key(_ key: KeyReport) -> String {
        var text = "METHOD=\(key.method) KEYFORMAT=\(key.keyFormat)"
        if let versions = key.keyFormatVersions { text += " KEYFORMATVERSIONS=\(versions)" }
        if let uri = key.uri { text += " URI=\(uri)" }
        if let iv = key.iv { text += " IV=\(iv)" }
        return text
    }
}
