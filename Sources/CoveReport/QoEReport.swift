import CoveCore
import Foundation
import Mustache

/// One session's QoE report: the summary figures, the timeline chart and the events, as one
/// self-contained HTML page (`html`) or the chart alone (`chart`, SVG; `PNGRasterizer` for a PNG).
///
/// The page is a Mustache template (hummingbird-project/swift-mustache): the layout stays readable in one
/// place and every value is HTML-escaped by the template engine rather than by hand.
public struct QoEReport: Sendable {
    public let title: String
    /// What was played (already redacted by the caller: the report may be shared).
    public let source: String
    public let qoe: QualityOfExperience
    public let timeline: QoETimeline
    /// How it ended: "ended", "failed", "stopped", …
    public let outcome: String
    public let generatedAt: Date

    public init(title: String, source: String, qoe: QualityOfExperience, timeline: QoETimeline, outcome: String, generatedAt: Date = Date()) {
        self.title = title
        self.source = source
        self.qoe = qoe
        self.timeline = timeline
        self.outcome = outcome
        self.generatedAt = generatedAt
    }

    public var chart: QoETimelineChart { QoETimelineChart(timeline: timeline) }

    /// The page. Throws only if the built-in template does not parse (a bug, reported as `ReportError`).
    public func html() throws(ReportError) -> String {
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: ReportTemplate.page)
        } catch {
            throw .templateInvalid(String(describing: error))
        }
        return template.render(context)
    }

    /// The page's data (the summary and the timeline), also embedded in the page.
    public var json: JSONValue {
        .object(["title": .string(title), "source": .string(source), "outcome": .string(outcome), "qoe": qoe.json, "timeline": timeline.json])
    }

    private var context: [String: Any] {
        let moments = self.moments
        let variants = self.variants
        var generated = ISO8601DateFormatter().string(from: generatedAt)
        generated = "generated \(generated)"
        return [
            "title": title,
            "source": source,
            "outcome": outcome,
            "outcomeClass": outcome == "failed" ? "failed" : "ok",
            "generated": generated,
            "figures": figures,
            "chart": chart.svg,
            "hasVariants": !variants.isEmpty,
            "variants": variants,
            "hasMoments": !moments.isEmpty,
            "moments": moments,
            // Inside <script>: no "<" may close the element early (JSON allows \u003c in strings, the only place "<" can be).
            "data": json.serialized().replacingOccurrences(of: "<", with: "\\u003c"),
        ]
    }

    private var figures: [[String: Any]] {
        func figure(_ key: String, _ name: String, _ value: String, _ detail: String? = nil) -> [String: Any] {
            var entry: [String: Any] = ["key": key, "name": name, "value": value]
            if let detail { entry["detail"] = detail }
            return entry
        }
        var out: [[String: Any]] = []
        if let startup = qoe.startup {
            let parts = [("catalog", startup.catalog), ("manifest", startup.manifest), ("first segment", startup.firstSegment), ("decode", startup.decode)]
                .compactMap { name, value in value.map { "\(name) \(ReportFormatting.seconds($0))" } }
            out.append(
                figure(
                    "startup", "Startup (request → first frame)", ReportFormatting.seconds(startup.total), parts.isEmpty ? nil : parts.joined(separator: " · "))
            )
        } else {
            out.append(figure("startup", "Startup (request → first frame)", "no frame"))
        }
        out.append(
            figure(
                "rebuffers", "Rebuffering", "\(qoe.rebufferCount) stall\(qoe.rebufferCount == 1 ? "" : "s")",
                "\(ReportFormatting.seconds(qoe.rebufferDuration)) · ratio \(ReportFormatting.percent(qoe.rebufferRatio))"))
        out.append(
            figure(
                "bitrate", "Average bitrate played", qoe.averageBitrate.map { ReportFormatting.bitrate(Double($0)) } ?? "–", "time-weighted, declared bandwidth"
            ))
        out.append(figure("switches", "Variant switches", "\(qoe.upSwitches) up · \(qoe.downSwitches) down"))
        let seeks = qoe.seekLatencies.map { ReportFormatting.seconds($0) }
        out.append(figure("seeks", "Seeks", "\(qoe.seekLatencies.count)", seeks.isEmpty ? nil : "latency " + seeks.joined(separator: ", ")))
        out.append(figure("played", "Media played", ReportFormatting.seconds(qoe.mediaPlayed), "playing for \(ReportFormatting.seconds(qoe.playingDuration))"))
        out.append(figure("bytes", "Bytes fetched", ReportFormatting.bytes(qoe.bytesFetched)))
        let wastedShare = qoe.bytesFetched > 0 ? Double(qoe.bytesWasted) / Double(qoe.bytesFetched) : 0
        out.append(
            figure(
                "waste", "Bytes wasted (fetched, never played)", ReportFormatting.bytes(qoe.bytesWasted), ReportFormatting.percent(wastedShare) + " of fetched")
        )
        let frames = qoe.renderedFrames.map { rendered in "of \(rendered + (qoe.droppedFrames ?? 0)) shown or due" }
        out.append(figure("dropped", "Dropped frames", qoe.droppedFrames.map(String.init) ?? "not reported", frames))
        out.append(figure("errors", "Errors", "\(qoe.errors.count)", qoe.errors.isEmpty ? nil : qoe.errors.map(\.code.name).joined(separator: ", ")))
        return out
    }

    private var variants: [[String: Any]] {
        let total = qoe.timeAtVariant.reduce(0) { $0 + $1.played }
        return qoe.timeAtVariant.reversed().map { variant in
            [
                "bitrate": variant.bandwidth > 0 ? ReportFormatting.bitrate(Double(variant.bandwidth)) : "undeclared",
                "height": variant.height.map { "\($0)p" } ?? "–",
                "played": ReportFormatting.seconds(variant.played),
                "share": ReportFormatting.percent(total > 0 ? variant.played / total : 0),
            ]
        }
    }

    /// The notable moments, in time order.
    private var moments: [[String: Any]] {
        var rows: [(Double, [String: Any])] = []
        func add(_ at: Double, _ kind: String, _ name: String, _ detail: String) {
            rows.append((at, ["at": ReportFormatting.seconds(at), "kind": kind, "name": name, "detail": detail]))
        }
        if let first = timeline.firstFrame { add(first, "first-frame", "First frame", "") }
        for stall in timeline.stalls {
            add(stall.start, "stall", "Stall", stall.end.map { "recovered after \(ReportFormatting.seconds($0 - stall.start))" } ?? "not recovered")
        }
        for seek in timeline.seeks {
            let move = [seek.from, seek.to].contains(nil) ? "" : "\(ReportFormatting.trimmed(seek.from!)) s → \(ReportFormatting.trimmed(seek.to!)) s"
            let latency = seek.end.map { "frame after \(ReportFormatting.seconds($0 - seek.start))" } ?? "no frame"
            add(seek.start, "seek", "Seek", [move, latency].filter { !$0.isEmpty }.joined(separator: ", "))
        }
        for change in timeline.switches {
            let from = change.from.map { ReportFormatting.bitrate(Double($0)) + " → " } ?? ""
            add(
                change.time, change.isUp ? "switch-up" : change.isDown ? "switch-down" : "switch", "Variant",
                "\(from)\(ReportFormatting.bitrate(Double(change.to))) (\(change.reason))")
        }
        for span in timeline.adBreaks {
            add(span.start, "ad-break", "Ad break", span.end.map { "for \(ReportFormatting.seconds($0 - span.start))" } ?? "")
        }
        for error in timeline.errors { add(error.time, "error", error.isFatal ? "Error (fatal)" : "Error", error.code) }
        if let end = timeline.end { add(end, "end", "End", outcome) }
        return rows.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }
}
