import CoveInput
import Foundation

/// One media segment of a representation, placed on the presentation timeline.
public struct DASHSegment: Sendable, Hashable {
    /// `$Number$` (or its position counted from `startNumber`): the same in every representation of a
    /// set whose segments align.
    public let number: Int
    /// Seconds on the presentation timeline.
    public let start: Double
    public let duration: Double
    public let url: URL
    public let range: ByteRange?

    public init(number: Int, start: Double, duration: Double, url: URL, range: ByteRange?) {
        self.number = number
        self.start = start
        self.duration = duration
        self.url = url
        self.range = range
    }
}

/// A representation's segments for one period, as far as the MPD says they exist now.
public struct DASHSegmentList: Sendable, Hashable {
    public let initialization: URLWithRange?
    public let segments: [DASHSegment]

    public init(initialization: URLWithRange?, segments: [DASHSegment]) {
        self.initialization = initialization
        self.segments = segments
    }
}

extension Representation {
    /// The representation's initialization segment and media segments in `period`. `now` (seconds since
    /// 1970) bounds a live MPD's segments to those already available and within its time-shift buffer.
    /// Nil for `SegmentBase` with an index: its segments are in the `sidx` box, which must be fetched.
    public func segments(
        in period: Period, of mpd: MPD, now: Double? = nil, limits: DASHParseLimits = DASHParseLimits()
    ) throws(DASHParseError) -> DASHSegmentList? {
        switch addressing {
        case .template(let template):
            return try expand(template, period: period, mpd: mpd, now: now, limits: limits)
        case .list(let list):
            return try expand(list, period: period, limits: limits)
        case .base(let base):
            guard base.indexRange == nil else { return nil }
            // Not indexed: the whole file is one segment spanning the period.
            let duration = period.duration ?? mpd.mediaPresentationDuration.map { $0 - period.start } ?? 0
            let initialization = base.initialization
            return DASHSegmentList(
                initialization: initialization, segments: [DASHSegment(number: 1, start: period.start, duration: max(duration, 0), url: baseURL, range: nil)])
        }
    }

    private func expand(_ template: SegmentTemplate, period: Period, mpd: MPD, now: Double?, limits: DASHParseLimits) throws(DASHParseError) -> DASHSegmentList
    {
        let initialization = try template.initialization.map { text throws(DASHParseError) -> URLWithRange in
            URLWithRange(url: try url(for: text, number: nil, time: nil), range: nil)
        }
        let timescale = Double(template.timescale)
        var segments: [DASHSegment] = []
        if let timeline = template.timeline {
            let entries = try place(
                timeline, timescale: template.timescale, presentationTimeOffset: template.presentationTimeOffset, period: period, mpd: mpd, now: now,
                limits: limits)
            segments.reserveCapacity(entries.count)
            for (offset, entry) in entries.enumerated() {
                let number = template.startNumber + offset
                if let end = template.endNumber, number > end { break }
                segments.append(
                    DASHSegment(
                        number: number, start: entry.start, duration: entry.duration,
                        url: try url(for: template.media, number: number, time: entry.time), range: nil
                    ))
            }
        } else if let duration = template.duration {
            let segmentSeconds = Double(duration) / timescale
            var first = 0
            var count: Int
            if mpd.kind == .dynamic, let availabilityStart = mpd.availabilityStartTime, let now {
                // Live: segment k is available once it has ended; the time-shift buffer bounds how far back.
                let elapsed = now - availabilityStart - period.start
                let available = Int((elapsed / segmentSeconds).rounded(.down))
                let depth = mpd.timeShiftBufferDepth.map { Int(($0 / segmentSeconds).rounded(.down)) } ?? available
                count = max(0, min(available, depth))
                first = max(0, available - count)
                if let periodDuration = period.duration {
                    let inPeriod = Int((periodDuration / segmentSeconds).rounded(.up))
                    count = max(0, min(count, inPeriod - first))
                }
            } else {
                guard let periodDuration = period.duration else {
                    throw DASHParseError(
                        .invalidValue,
                        detail: "A static MPD's period has no duration, and its SegmentTemplate has no timeline, so its segment count is unknown.",
                        advice: "Give the MPD a @mediaPresentationDuration or the period a @duration.")
                }
                let exact = periodDuration / segmentSeconds
                guard exact.isFinite, exact < Double(limits.maxSegments) + 1 else {
                    throw limits.exceeded(.maxSegments, detail: expansion(exact, limits))
                }
                count = Int((exact - 1e-9).rounded(.up))
            }
            if let end = template.endNumber { count = min(count, end - template.startNumber + 1 - first) }
            try limits.check(.maxSegments, count, detail: expansion(Double(count), limits))
            segments.reserveCapacity(max(count, 0))
            for index in first..<(first + max(count, 0)) {
                let number = template.startNumber + index
                let time = UInt64(index) * duration + template.presentationTimeOffset
                var length = segmentSeconds
                if let periodDuration = period.duration { length = min(length, periodDuration - Double(index) * segmentSeconds) }
                segments.append(
                    DASHSegment(
                        number: number, start: period.start + Double(index) * segmentSeconds, duration: length,
                        url: try url(for: template.media, number: number, time: time), range: nil
                    ))
            }
        }
        return DASHSegmentList(initialization: initialization, segments: segments)
    }

    private func expand(_ list: SegmentList, period: Period, limits: DASHParseLimits) throws(DASHParseError) -> DASHSegmentList {
        try limits.check(.maxSegments, list.segments.count, detail: expansion(Double(list.segments.count), limits))
        var segments: [DASHSegment] = []
        segments.reserveCapacity(list.segments.count)
        if let timeline = list.timeline {
            let entries = try place(
                timeline, timescale: list.timescale, presentationTimeOffset: list.presentationTimeOffset, period: period, mpd: nil, now: nil, limits: limits)
            for (entry, segment) in zip(entries, list.segments) {
                segments.append(
                    DASHSegment(number: list.startNumber + segments.count, start: entry.start, duration: entry.duration, url: segment.url, range: segment.range)
                )
            }
        } else if let duration = list.duration {
            let seconds = Double(duration) / Double(list.timescale)
            for (index, segment) in list.segments.enumerated() {
                segments.append(
                    DASHSegment(
                        number: list.startNumber + index, start: period.start + Double(index) * seconds, duration: seconds, url: segment.url,
                        range: segment.range))
            }
        }
        return DASHSegmentList(initialization: list.initialization, segments: segments)
    }

    /// A timeline's entries as (media time, start, duration), repeats expanded; the count is checked
    /// against the limit before anything is made.
    private func place(
        _ timeline: [TimelineEntry], timescale: UInt64, presentationTimeOffset: UInt64, period: Period, mpd: MPD?, now: Double?, limits: DASHParseLimits
    ) throws(DASHParseError) -> [(time: UInt64, start: Double, duration: Double)] {
        let scale = Double(timescale)
        // Where an open-ended repeat (r = -1) of the last entry stops: the period's end, or (live) now.
        var horizon: Double?
        if let end = period.end { horizon = end }
        if let mpd, mpd.kind == .dynamic, let availabilityStart = mpd.availabilityStartTime, let now {
            horizon = min(horizon ?? .infinity, now - availabilityStart)
        }
        var result: [(time: UInt64, start: Double, duration: Double)] = []
        var time: UInt64 = timeline.first?.time ?? presentationTimeOffset
        for (index, entry) in timeline.enumerated() {
            if let explicit = entry.time { time = explicit }
            var repeats = entry.repeatCount
            if repeats < 0 {
                let stop: Double
                if index + 1 < timeline.count, let next = timeline[index + 1].time {
                    stop = Double(next)
                } else if let horizon {
                    stop = (horizon - period.start) * scale + Double(presentationTimeOffset)
                } else {
                    throw DASHParseError(
                        .invalidValue, detail: "A SegmentTimeline repeats its last entry without end (r=-1) in a period of unknown length.",
                        advice: "Give the period a duration, or the S element a repeat count.")
                }
                let count = ((stop - Double(time)) / Double(entry.duration)).rounded(.up)
                guard count.isFinite, count < Double(limits.maxSegments) + 1 else { throw limits.exceeded(.maxSegments, detail: expansion(count, limits)) }
                repeats = max(Int(count) - 1, 0)
            }
            try limits.check(.maxSegments, result.count + repeats + 1, detail: expansion(Double(result.count + repeats + 1), limits))
            for _ in 0...repeats {
                let (next, overflow) = time.addingReportingOverflow(entry.duration)
                guard !overflow else {
                    throw DASHParseError(.invalidValue, detail: "A SegmentTimeline's times overflow.", advice: "Fix the manifest's segment times.")
                }
                let start = period.start + (Double(time) - Double(presentationTimeOffset)) / scale
                result.append((time, start, Double(entry.duration) / scale))
                time = next
            }
        }
        return result
    }

    private func url(for template: String, number: Int?, time: UInt64?) throws(DASHParseError) -> URL {
        guard let text = SegmentTemplateFormat.fill(template, .init(representationID: id, number: number, bandwidth: bandwidth, time: time)) else {
            throw DASHParseError(
                .invalidValue,
                detail:
                    "A SegmentTemplate URL uses an identifier Cove cannot fill (only $RepresentationID$, $Number$, $Bandwidth$, $Time$ and $$, with %0Nd widths).",
                advice: "Fix the manifest's SegmentTemplate @media or @initialization.")
        }
        guard let url = URL(string: text, relativeTo: baseURL)?.absoluteURL else {
            throw DASHParseError(
                .invalidValue, detail: "A SegmentTemplate URL is not a valid URL once filled.", advice: "Percent-encode reserved characters in the template.")
        }
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" || scheme == baseURL.scheme?.lowercased() else {
            throw DASHParseError(
                .invalidValue, detail: "A SegmentTemplate URL points at another scheme (\(scheme ?? "none")).", advice: "Segment URLs must be http or https.")
        }
        return url
    }

    /// What `maxSegments` was exceeded by, for the error: a count that may be too large for an `Int`.
    private func expansion(_ count: Double, _ limits: DASHParseLimits) -> String {
        let shown = count.isFinite && count < 1e15 ? String(Int(count)) : "too many"
        return "Representation \"\(id.prefix(64))\" expands to \(shown) segments; the limit is \(limits.maxSegments)."
    }
}
