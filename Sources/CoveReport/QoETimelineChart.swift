import CoveCore
import Foundation

/// The timeline of one session as an SVG drawing: three lanes over the same wall-time axis — buffer
/// ahead, the selected bitrate against the throughput estimate (log scale: a loopback estimate can be a
/// hundred times the top variant), and the playhead — with stalls, seeks and ad breaks shaded across all
/// three and variant switches marked. Every mark carries a class and its data (`data-start`, `data-to`, …),
/// so the drawing can be checked from its DOM as well as looked at.
///
/// There is no charting package in the dependency mirror; the drawing is this one type over `SVGElement`,
/// and the PNG is this SVG rasterized (`PNGRasterizer`), so the report and the picture never disagree.
public struct QoETimelineChart: Sendable {
    public let timeline: QoETimeline
    public let width: Double

    /// The colours, also the legend's; solid (no opacity) so a screenshot's pixels say which mark they are.
    public enum Palette {
        public static let stall = "#f2a3a3"
        public static let seek = "#d4bff0"
        public static let seekStart = "#6a3d9a"
        public static let adBreak = "#fbe3a0"
        public static let buffer = "#9ecae1"
        public static let bufferLine = "#3182bd"
        public static let selectedBitrate = "#1f4e9c"
        public static let estimate = "#2ca02c"
        public static let segmentThroughput = "#98df8a"
        public static let switchUp = "#238b45"
        public static let switchDown = "#e6550d"
        public static let playhead = "#555555"
        public static let error = "#c00000"
    }

    public init(timeline: QoETimeline, width: Double = 960) {
        self.timeline = timeline
        self.width = max(width, 480)
    }

    private struct Lane {
        let title: String
        let top: Double
        let height: Double
        var bottom: Double { top + height }
    }

    private let left = 72.0
    private let right = 24.0
    private let buffer = Lane(title: "Buffer ahead (s)", top: 44, height: 120)
    private let bitrate = Lane(title: "Bitrate (bit/s, log)", top: 192, height: 170)
    private let playhead = Lane(title: "Playhead (s)", top: 390, height: 110)
    private var axisY: Double { playhead.bottom }
    public var height: Double { axisY + 44 }

    private var time: ChartScale {
        ChartScale(domain: 0...max(timeline.lastTime * 1.02, 1), range: left...(width - right))
    }

    public var svg: String {
        var children: [SVGElement] = [SVGElement("rect", [("x", "0"), ("y", "0"), ("width", px(width)), ("height", px(height)), ("fill", "#ffffff")])]
        children += legend()
        children += shadedSpans()
        children += timeGrid()
        children += [buffer, bitrate, playhead].map(laneFrame)
        children += bufferMarks()
        children += bitrateMarks()
        children += playheadMarks()
        children += moments()
        children += seekRules()
        return SVGElement(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", px(width)), ("height", px(height)), ("viewBox", "0 0 \(px(width)) \(px(height))"),
                ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif"), ("font-size", "11"), ("class", "qoe-timeline"),
            ], children: children
        ).markup
    }

    // MARK: Frame

    private func laneFrame(_ lane: Lane) -> SVGElement {
        SVGElement(
            "g", [("class", "lane")],
            children: [
                SVGElement(
                    "rect",
                    [
                        ("x", px(left)), ("y", px(lane.top)), ("width", px(width - left - right)), ("height", px(lane.height)), ("fill", "none"),
                        ("stroke", "#bbbbbb"),
                    ]),
                SVGElement("text", [("x", px(left + 4)), ("y", px(lane.top - 5)), ("font-weight", "bold"), ("fill", "#333333")], text: lane.title),
            ])
    }

    private func timeGrid() -> [SVGElement] {
        var marks: [SVGElement] = []
        for tick in time.ticks(count: Int(width / 90)) {
            let x = time(tick)
            marks.append(SVGElement("line", [("x1", px(x)), ("y1", px(buffer.top)), ("x2", px(x)), ("y2", px(axisY)), ("stroke", "#eeeeee")]))
            marks.append(
                SVGElement("text", [("x", px(x)), ("y", px(axisY + 15)), ("text-anchor", "middle"), ("fill", "#333333")], text: ReportFormatting.trimmed(tick)))
        }
        marks.append(
            SVGElement(
                "text", [("x", px((left + width - right) / 2)), ("y", px(axisY + 34)), ("text-anchor", "middle"), ("fill", "#333333")],
                text: "Seconds since the play request"))
        return [SVGElement("g", [("class", "time-axis")], children: marks)]
    }

    private func legend() -> [SVGElement] {
        let entries: [(String, String)] = [
            ("Buffer ahead", Palette.buffer), ("Selected bitrate", Palette.selectedBitrate), ("Throughput estimate", Palette.estimate),
            ("Segment throughput", Palette.segmentThroughput), ("Stall", Palette.stall), ("Seek", Palette.seek), ("Ad break", Palette.adBreak),
        ]
        var x = left
        var items: [SVGElement] = []
        for (label, colour) in entries {
            items.append(SVGElement("rect", [("x", px(x)), ("y", "8"), ("width", "12"), ("height", "12"), ("fill", colour)]))
            items.append(SVGElement("text", [("x", px(x + 16)), ("y", "18"), ("fill", "#333333")], text: label))
            x += 16 + Double(label.count) * 6.2 + 14
        }
        return [SVGElement("g", [("class", "legend")], children: items)]
    }

    // MARK: Spans across the lanes

    private func band(_ start: Double, _ end: Double?, fill: String, attributes: [(String, String)]) -> SVGElement {
        let x0 = time(start)
        let x1 = time(end ?? timeline.lastTime)
        return SVGElement(
            "rect",
            attributes + [
                ("x", px(x0)), ("y", px(buffer.top)), ("width", px(max(x1 - x0, 2))), ("height", px(axisY - buffer.top)), ("fill", fill),
                ("shape-rendering", "crispEdges"),
            ])
    }

    private func shadedSpans() -> [SVGElement] {
        var marks: [SVGElement] = []
        for span in timeline.adBreaks {
            marks.append(band(span.start, span.end, fill: Palette.adBreak, attributes: [("class", "ad-break")] + Self.data(start: span.start, end: span.end)))
        }
        for span in timeline.stalls {
            marks.append(band(span.start, span.end, fill: Palette.stall, attributes: [("class", "stall")] + Self.data(start: span.start, end: span.end)))
        }
        for seek in timeline.seeks {
            var data = Self.data(start: seek.start, end: seek.end)
            if let from = seek.from { data.append(("data-from", Self.number(from))) }
            if let to = seek.to { data.append(("data-to", Self.number(to))) }
            marks.append(band(seek.start, seek.end, fill: Palette.seek, attributes: [("class", "seek")] + data))
        }
        return [SVGElement("g", [("class", "spans")], children: marks)]
    }

    /// Each seek's start as a rule over everything else: drawn under the lanes, the time grid, the buffer's
    /// fill or the bitrate step that a seek itself causes would hide it exactly where it matters.
    private func seekRules() -> [SVGElement] {
        var marks: [SVGElement] = []
        for seek in timeline.seeks {
            let x = time(seek.start)
            marks.append(
                SVGElement(
                    "line",
                    [
                        ("class", "seek-start"), ("x1", px(x)), ("y1", px(buffer.top)), ("x2", px(x)), ("y2", px(axisY)),
                        ("stroke", Palette.seekStart), ("stroke-width", "2"), ("shape-rendering", "crispEdges"),
                    ]))
            let label = [seek.from, seek.to].contains(nil) ? "seek" : "seek \(ReportFormatting.trimmed(seek.from!)) → \(ReportFormatting.trimmed(seek.to!)) s"
            marks.append(SVGElement("text", [("x", px(x + 4)), ("y", px(playhead.top + 14)), ("fill", Palette.seekStart)], text: label))
        }
        return [SVGElement("g", [("class", "seek-rules")], children: marks)]
    }

    // MARK: Lanes

    private func bufferMarks() -> [SVGElement] {
        let points = timeline.samples.compactMap { sample in sample.bufferAhead.map { (sample.time, $0) } }
        let top = max(points.map(\.1).max() ?? 0, 1) * 1.1
        let y = ChartScale(domain: 0...top, range: buffer.top...buffer.bottom, inverted: true)
        var marks = axisTicks(y, lane: buffer, label: ReportFormatting.trimmed)
        if let first = points.first, let last = points.last {
            var path = "M\(px(time(first.0))),\(px(y(0)))"
            for (t, value) in points { path += " L\(px(time(t))),\(px(y(value)))" }
            path += " L\(px(time(last.0))),\(px(y(0))) Z"
            marks.append(
                SVGElement("path", [("class", "buffer-ahead"), ("d", path), ("fill", Palette.buffer), ("stroke", Palette.bufferLine), ("stroke-width", "1")]))
        }
        return [SVGElement("g", [("class", "buffer-lane")], children: marks)]
    }

    private func bitrateMarks() -> [SVGElement] {
        let selected = timeline.segments.compactMap { segment in segment.variantBandwidth.map { (segment.time, Double($0)) } }
        let estimates = timeline.samples.compactMap { sample in sample.throughputEstimate.map { (sample.time, Double($0)) } }
        let measured = timeline.segments.compactMap { segment in segment.throughput.map { (segment.time, Double($0)) } }
        let values = timeline.ladder.map(Double.init) + selected.map(\.1) + estimates.map(\.1) + measured.map(\.1)
        let positive = values.filter { $0 > 0 }
        let low = (positive.min() ?? 100_000) / 1.5
        let high = (positive.max() ?? 10_000_000) * 1.5
        let y = ChartScale(kind: .logarithmic, domain: low...high, range: bitrate.top...bitrate.bottom, inverted: true)
        var marks = axisTicks(y, lane: bitrate, label: ReportFormatting.bitrateTick)
        for rung in timeline.ladder where rung > 0 {
            marks.append(
                SVGElement(
                    "line",
                    [
                        ("class", "ladder"), ("data-bandwidth", String(rung)), ("x1", px(left)), ("y1", px(y(Double(rung)))),
                        ("x2", px(width - right)), ("y2", px(y(Double(rung)))), ("stroke", "#9ecae1"), ("stroke-dasharray", "2,3"),
                    ]))
            marks.append(
                SVGElement(
                    "text",
                    [
                        ("x", px(width - right - 4)), ("y", px(y(Double(rung)) - 3)), ("text-anchor", "end"), ("fill", "#6b8fb5"),
                        ("font-size", "9"),
                    ], text: ReportFormatting.bitrateTick(Double(rung))))
        }
        for (t, value) in measured where value > 0 {
            marks.append(
                SVGElement(
                    "circle", [("class", "segment-throughput"), ("cx", px(time(t))), ("cy", px(y(value))), ("r", "2.5"), ("fill", Palette.segmentThroughput)]))
        }
        if estimates.count > 1 {
            let points = estimates.filter { $0.1 > 0 }.map { "\(px(time($0.0))),\(px(y($0.1)))" }.joined(separator: " ")
            marks.append(
                SVGElement(
                    "polyline", [("class", "throughput-estimate"), ("points", points), ("fill", "none"), ("stroke", Palette.estimate), ("stroke-width", "1.5")])
            )
        }
        if let first = selected.first {
            // A step line: each segment's variant holds until the next segment arrives.
            var path = "M\(px(time(first.0))),\(px(y(first.1)))"
            var current = first.1
            for (t, value) in selected.dropFirst() where value > 0 {
                path += " H\(px(time(t)))"
                if value != current { path += " V\(px(y(value)))" }
                current = value
            }
            path += " H\(px(time(timeline.end ?? timeline.lastTime)))"
            marks.append(
                SVGElement(
                    "path", [("class", "selected-bitrate"), ("d", path), ("fill", "none"), ("stroke", Palette.selectedBitrate), ("stroke-width", "2.5")]))
        }
        for change in timeline.switches where change.isUp || change.isDown {
            let x = time(change.time)
            let tip = bitrate.top + (change.isUp ? 4 : 16)
            let base = bitrate.top + (change.isUp ? 16 : 4)
            marks.append(
                SVGElement(
                    "path",
                    [
                        ("class", change.isUp ? "switch up" : "switch down"), ("data-t", Self.number(change.time)), ("data-from", String(change.from ?? 0)),
                        ("data-to", String(change.to)), ("d", "M\(px(x - 6)),\(px(base)) L\(px(x + 6)),\(px(base)) L\(px(x)),\(px(tip)) Z"),
                        ("fill", change.isUp ? Palette.switchUp : Palette.switchDown),
                    ]))
        }
        return [SVGElement("g", [("class", "bitrate-lane")], children: marks)]
    }

    private func playheadMarks() -> [SVGElement] {
        let points = timeline.samples.compactMap { sample in sample.playhead.map { (sample.time, $0) } }
        let top = max(points.map(\.1).max() ?? 0, 1) * 1.05
        let y = ChartScale(domain: 0...top, range: playhead.top...playhead.bottom, inverted: true)
        var marks = axisTicks(y, lane: playhead, label: ReportFormatting.trimmed)
        // One line per stretch of playback: a jump no playback rate explains (a seek) starts a new one.
        var runs: [[(Double, Double)]] = []
        for point in points {
            if let last = runs.last?.last, point.1 >= last.1 - 0.5, point.1 <= last.1 + (point.0 - last.0) * 4 + 1 {
                runs[runs.count - 1].append(point)
            } else {
                runs.append([point])
            }
        }
        for run in runs where run.count > 1 {
            let line = run.map { "\(px(time($0.0))),\(px(y($0.1)))" }.joined(separator: " ")
            marks.append(
                SVGElement("polyline", [("class", "playhead"), ("points", line), ("fill", "none"), ("stroke", Palette.playhead), ("stroke-width", "1.5")]))
        }
        return [SVGElement("g", [("class", "playhead-lane")], children: marks)]
    }

    /// The first frame, the end and errors: vertical marks across the lanes.
    private func moments() -> [SVGElement] {
        var marks: [SVGElement] = []
        func rule(_ t: Double, _ cls: String, _ label: String, colour: String) {
            let x = time(t)
            marks.append(
                SVGElement(
                    "line",
                    [
                        ("class", cls), ("data-t", Self.number(t)), ("x1", px(x)), ("y1", px(buffer.top)), ("x2", px(x)), ("y2", px(axisY)),
                        ("stroke", colour), ("stroke-dasharray", "4,3"),
                    ]))
            marks.append(SVGElement("text", [("x", px(x + 3)), ("y", px(buffer.top + 12)), ("fill", colour)], text: label))
        }
        if let first = timeline.firstFrame { rule(first, "first-frame", "first frame", colour: "#000000") }
        if let end = timeline.end { rule(end, "end", "end", colour: "#000000") }
        for error in timeline.errors {
            rule(error.time, error.isFatal ? "error fatal" : "error", error.code, colour: Palette.error)
        }
        return [SVGElement("g", [("class", "moments")], children: marks)]
    }

    private func axisTicks(_ scale: ChartScale, lane: Lane, label: (Double) -> String) -> [SVGElement] {
        scale.ticks(count: Int(lane.height / 28)).flatMap { tick -> [SVGElement] in
            let y = scale(tick)
            return [
                SVGElement("line", [("x1", px(left - 4)), ("y1", px(y)), ("x2", px(left)), ("y2", px(y)), ("stroke", "#888888")]),
                SVGElement("text", [("x", px(left - 7)), ("y", px(y + 4)), ("text-anchor", "end"), ("fill", "#333333")], text: label(tick)),
            ]
        }
    }

    private static func data(start: Double, end: Double?) -> [(String, String)] {
        [("data-start", number(start))] + (end.map { [("data-end", number($0))] } ?? [])
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
