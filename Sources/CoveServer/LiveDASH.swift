import Foundation

/// Publishes a DASH fixture's SegmentTimeline MPD as a live stream whose MPD the server rewrites on every
/// request: `type="dynamic"`, and each `SegmentTimeline` lists only the segments that have ended by now
/// (counted from `availabilityStart`), as explicit `S@t`/`S@d` entries — the way a live packager's MPD
/// grows. Media requests are the fixture's own files.
public struct LiveDASH: Sendable {
    public let availabilityStart: Date
    private let template: String

    /// `vod` is a static MPD whose timelines are `<S t= d= r=/>` entries (ffmpeg's `-use_timeline 1`).
    public init(vod: String, availabilityStart: Date) {
        self.template = vod
        self.availabilityStart = availabilityStart
    }

    /// Serves the live MPD at `path` (say `/timeline/live.mpd`, beside the fixture's segments).
    public func serve(on server: MediaServer, at path: String, timeShiftBufferDepth: Int = 30, suggestedPresentationDelay: Int = 4) {
        server.addRoute(prefix: path) { _ in
            let body = manifest(now: Date(), timeShiftBufferDepth: timeShiftBufferDepth, suggestedPresentationDelay: suggestedPresentationDelay)
            return MediaServerResponse(status: 200, contentType: "application/dash+xml", body: Data(body.utf8), headers: [:])
        }
    }

    /// The MPD as published at `now`.
    public func manifest(now: Date, timeShiftBufferDepth: Int = 30, suggestedPresentationDelay: Int = 4) -> String {
        let elapsed = now.timeIntervalSince(availabilityStart)
        let formatter = ISO8601DateFormatter()
        var text = template.replacingOccurrences(
            of: "type=\"static\"",
            with: "type=\"dynamic\" availabilityStartTime=\"\(formatter.string(from: availabilityStart))\" publishTime=\"\(formatter.string(from: now))\" "
                + "minimumUpdatePeriod=\"PT2S\" timeShiftBufferDepth=\"PT\(timeShiftBufferDepth)S\" suggestedPresentationDelay=\"PT\(suggestedPresentationDelay)S\""
        )
        if let range = text.range(of: #"mediaPresentationDuration="[^"]*""#, options: .regularExpression) { text.removeSubrange(range) }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "<SegmentTimeline>"), let close = rest[open.upperBound...].range(of: "</SegmentTimeline>") {
            let before = rest[..<open.lowerBound]
            result += before
            let timescale = Self.lastNumber(of: "timescale", in: before) ?? 1
            let kept = Self.entries(in: rest[open.upperBound..<close.lowerBound]).filter { Double($0.time + $0.duration) / Double(timescale) <= elapsed }
            result += "<SegmentTimeline>" + kept.map { "<S t=\"\($0.time)\" d=\"\($0.duration)\"/>" }.joined() + "</SegmentTimeline>"
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// The timeline's entries, repeats expanded.
    static func entries(in timeline: Substring) -> [(time: UInt64, duration: UInt64)] {
        var result: [(time: UInt64, duration: UInt64)] = []
        var time: UInt64 = 0
        var rest = timeline
        while let start = rest.range(of: "<S "), let end = rest[start.upperBound...].range(of: "/>") {
            let element = rest[start.upperBound..<end.lowerBound]
            if let t = number("t", in: element) { time = t }
            let duration = number("d", in: element) ?? 0
            let repeats = number("r", in: element) ?? 0
            for _ in 0...repeats {
                result.append((time, duration))
                time += duration
            }
            rest = rest[end.upperBound...]
        }
        return result
    }

    private static func number(_ name: String, in element: Substring) -> UInt64? {
        guard let range = element.range(of: " \(name)=\"") ?? (element.hasPrefix("\(name)=\"") ? element.range(of: "\(name)=\"") : nil) else { return nil }
        return UInt64(element[range.upperBound...].prefix { $0.isNumber })
    }

    private static func lastNumber(of attribute: String, in text: Substring) -> UInt64? {
        guard let range = text.range(of: "\(attribute)=\"", options: .backwards) else { return nil }
        return UInt64(text[range.upperBound...].prefix { $0.isNumber })
    }
}
