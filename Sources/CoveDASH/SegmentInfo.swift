import CoveXML
import Foundation

/// Segment information as written at one level (Period, AdaptationSet, Representation): every value
/// optional, so a level's values override its parent's one by one (ISO/IEC 23009-1 §5.3.9.1).
struct SegmentInfo {
    struct Template {
        var media: String?
        var initialization: String?
        var startNumber: Int?
        var endNumber: Int?
        var timescale: UInt64?
        var duration: UInt64?
        var presentationTimeOffset: UInt64?
        var timeline: [TimelineEntry]?
    }

    struct List {
        var initialization: URLWithRangeText?
        var segments: [URLWithRangeText]?
        var startNumber: Int?
        var timescale: UInt64?
        var duration: UInt64?
        var presentationTimeOffset: UInt64?
        var timeline: [TimelineEntry]?
    }

    struct Base {
        var initialization: URLWithRangeText?
        var indexRange: ByteRange?
        var timescale: UInt64?
        var presentationTimeOffset: UInt64?
    }

    /// A URL as written (resolved against the representation's base once that is known) and its range.
    struct URLWithRangeText {
        let url: String?
        let range: ByteRange?
    }

    var template: Template?
    var list: List?
    var base: Base?

    static func read(_ element: XMLTreeElement, reader: MPDReader) throws(DASHParseError) -> SegmentInfo {
        var info = SegmentInfo()
        if let t = element.child("SegmentTemplate") {
            info.template = Template(
                media: t.attribute("media"), initialization: t.attribute("initialization"),
                startNumber: try number(t, "startNumber", reader), endNumber: try number(t, "endNumber", reader),
                timescale: try reader.unsigned(t, "timescale"), duration: try reader.unsigned(t, "duration"),
                presentationTimeOffset: try reader.unsigned(t, "presentationTimeOffset"), timeline: try timeline(t, reader)
            )
        }
        if let l = element.child("SegmentList") {
            var segments: [URLWithRangeText] = []
            for url in l.children("SegmentURL") {
                segments.append(URLWithRangeText(url: url.attribute("media"), range: try range(url, "mediaRange", reader)))
            }
            info.list = List(
                initialization: try initialization(l, reader), segments: segments.isEmpty ? nil : segments,
                startNumber: try number(l, "startNumber", reader), timescale: try reader.unsigned(l, "timescale"),
                duration: try reader.unsigned(l, "duration"), presentationTimeOffset: try reader.unsigned(l, "presentationTimeOffset"),
                timeline: try timeline(l, reader)
            )
        }
        if let b = element.child("SegmentBase") {
            info.base = Base(
                initialization: try initialization(b, reader), indexRange: try range(b, "indexRange", reader),
                timescale: try reader.unsigned(b, "timescale"), presentationTimeOffset: try reader.unsigned(b, "presentationTimeOffset")
            )
        }
        return info
    }

    /// This level's values over the parent's.
    func merged(over parent: SegmentInfo) -> SegmentInfo {
        var result = SegmentInfo()
        if template != nil || parent.template != nil {
            let c = template ?? Template(), p = parent.template ?? Template()
            result.template = Template(
                media: c.media ?? p.media, initialization: c.initialization ?? p.initialization,
                startNumber: c.startNumber ?? p.startNumber, endNumber: c.endNumber ?? p.endNumber,
                timescale: c.timescale ?? p.timescale, duration: c.duration ?? p.duration,
                presentationTimeOffset: c.presentationTimeOffset ?? p.presentationTimeOffset, timeline: c.timeline ?? p.timeline
            )
        }
        if list != nil || parent.list != nil {
            let c = list ?? List(), p = parent.list ?? List()
            result.list = List(
                initialization: c.initialization ?? p.initialization, segments: c.segments ?? p.segments,
                startNumber: c.startNumber ?? p.startNumber, timescale: c.timescale ?? p.timescale, duration: c.duration ?? p.duration,
                presentationTimeOffset: c.presentationTimeOffset ?? p.presentationTimeOffset, timeline: c.timeline ?? p.timeline
            )
        }
        if base != nil || parent.base != nil {
            let c = base ?? Base(), p = parent.base ?? Base()
            result.base = Base(
                initialization: c.initialization ?? p.initialization, indexRange: c.indexRange ?? p.indexRange,
                timescale: c.timescale ?? p.timescale, presentationTimeOffset: c.presentationTimeOffset ?? p.presentationTimeOffset
            )
        }
        return result
    }

    /// The representation's addressing: a template wins over a list, a list over a base (the most
    /// specific kind a manifest declares is the one its segments follow).
    func addressing(for element: XMLTreeElement, base url: URL, reader: MPDReader) throws(DASHParseError) -> SegmentAddressing {
        if let t = template {
            guard let media = t.media else { throw reader.missing(element, "media (of its SegmentTemplate)") }
            let timescale = t.timescale ?? 1
            guard timescale > 0 else { throw reader.invalid(element, "timescale", "is 0") }
            guard t.timeline != nil || (t.duration ?? 0) > 0 else {
                throw DASHParseError(
                    .invalidValue, element: element.name, line: element.line,
                    detail: "The SegmentTemplate has neither a SegmentTimeline nor a @duration, so its segments cannot be placed.",
                    advice: "Give the SegmentTemplate a @duration or a SegmentTimeline.")
            }
            let startNumber = t.startNumber ?? 1
            if let end = t.endNumber, end < startNumber { throw reader.invalid(element, "endNumber", "is below @startNumber") }
            return .template(
                SegmentTemplate(
                    media: media, initialization: t.initialization, startNumber: startNumber, endNumber: t.endNumber, timescale: timescale,
                    duration: t.duration, presentationTimeOffset: t.presentationTimeOffset ?? 0, timeline: t.timeline
                ))
        }
        if let l = list {
            guard let segments = l.segments else {
                throw DASHParseError(
                    .invalidValue, element: element.name, line: element.line, detail: "The SegmentList has no <SegmentURL>.",
                    advice: "List the representation's segments, or use a SegmentTemplate.")
            }
            let timescale = l.timescale ?? 1
            guard timescale > 0 else { throw reader.invalid(element, "timescale", "is 0") }
            guard l.timeline != nil || (l.duration ?? 0) > 0 else {
                throw DASHParseError(
                    .invalidValue, element: element.name, line: element.line,
                    detail: "The SegmentList has neither a SegmentTimeline nor a @duration, so its segments cannot be placed.",
                    advice: "Give the SegmentList a @duration or a SegmentTimeline.")
            }
            var resolved: [URLWithRange] = []
            for segment in segments {
                resolved.append(URLWithRange(url: try resolve(segment.url, against: url, element: element, reader: reader), range: segment.range))
            }
            return .list(
                SegmentList(
                    initialization: try l.initialization.map { text throws(DASHParseError) in
                        URLWithRange(url: try resolve(text.url, against: url, element: element, reader: reader), range: text.range)
                    },
                    segments: resolved, startNumber: l.startNumber ?? 1, timescale: timescale, duration: l.duration,
                    presentationTimeOffset: l.presentationTimeOffset ?? 0, timeline: l.timeline
                ))
        }
        let b = base ?? Base()
        let timescale = b.timescale ?? 1
        guard timescale > 0 else { throw reader.invalid(element, "timescale", "is 0") }
        return .base(
            SegmentBase(
                initialization: try b.initialization.map { text throws(DASHParseError) in
                    URLWithRange(url: try resolve(text.url, against: url, element: element, reader: reader), range: text.range)
                },
                indexRange: b.indexRange, timescale: timescale, presentationTimeOffset: b.presentationTimeOffset ?? 0
            ))
    }

    /// A URL attribute against the representation's base (absent: the base itself, as for a `SegmentBase`).
    private func resolve(_ text: String?, against base: URL, element: XMLTreeElement, reader: MPDReader) throws(DASHParseError) -> URL {
        guard let text else { return base }
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL, reader.isAllowed(url) else {
            throw reader.invalid(element, "media or sourceURL", "is not an http(s) URL Cove may follow")
        }
        return url
    }

    private static func number(_ element: XMLTreeElement, _ name: String, _ reader: MPDReader) throws(DASHParseError) -> Int? {
        guard let value = try reader.unsigned(element, name) else { return nil }
        guard value <= UInt64(Int32.max) else { throw reader.invalid(element, name, "is larger than 2147483647") }
        return Int(value)
    }

    private static func range(_ element: XMLTreeElement, _ name: String, _ reader: MPDReader) throws(DASHParseError) -> ByteRange? {
        guard let text = element.attribute(name) else { return nil }
        guard let range = DASHValues.byteRange(text) else { throw reader.invalid(element, name, "is not a byte range first-last") }
        return range
    }

    private static func initialization(_ element: XMLTreeElement, _ reader: MPDReader) throws(DASHParseError) -> URLWithRangeText? {
        guard let child = element.child("Initialization") else { return nil }
        return URLWithRangeText(url: child.attribute("sourceURL"), range: try range(child, "range", reader))
    }

    private static func timeline(_ element: XMLTreeElement, _ reader: MPDReader) throws(DASHParseError) -> [TimelineEntry]? {
        guard let timeline = element.child("SegmentTimeline") else { return nil }
        var entries: [TimelineEntry] = []
        if let leaves = timeline.packedLeaves {
            entries.reserveCapacity(leaves.count)
            // Straight from the bytes: no string per value.
            try leaves.withRawView { view throws(DASHParseError) in
                for index in 0..<view.count where view.localNameIs(index, "S") {
                    var t: UInt64?, d: UInt64?, r: Int?
                    var bad: String?
                    view.forEachAttribute(of: index) { name, value in
                        guard name.count == 1 else { return }
                        switch name[0] {
                        case UInt8(ascii: "t"): t = DASHValues.unsigned(bytes: value); if t == nil { bad = "t" }
                        case UInt8(ascii: "d"): d = DASHValues.unsigned(bytes: value); if d == nil { bad = "d" }
                        case UInt8(ascii: "r"):
                            if value.count == 2, value[0] == UInt8(ascii: "-"), value[1] == UInt8(ascii: "1") {
                                r = -1
                            } else if let count = DASHValues.unsigned(bytes: value), count <= UInt64(Int32.max) {
                                r = Int(count)
                            } else {
                                bad = "r"
                            }
                        default: break
                        }
                    }
                    if let bad { throw reader.invalid(timeline, bad, "of an S is not \(bad == "r" ? "-1 or a whole number" : "a whole number")") }
                    guard let d else { throw reader.missing(timeline, "d (of an S)") }
                    guard d > 0 else { throw reader.invalid(timeline, "d", "of an S is 0") }
                    entries.append(TimelineEntry(time: t, duration: d, repeatCount: r ?? 0))
                }
            }
        }
        for s in timeline.children("S") {
            entries.append(try entry(t: s.rawAttribute("t"), d: s.rawAttribute("d"), r: s.rawAttribute("r"), element: s, reader: reader))
        }
        guard !entries.isEmpty else {
            throw DASHParseError(
                .invalidValue, element: timeline.name, line: timeline.line, detail: "A SegmentTimeline has no <S>.",
                advice: "List at least one segment in the timeline.")
        }
        return entries
    }

    /// One `S`: its attributes as written (`element` names it in errors: the S, or its timeline when packed).
    private static func entry(t: String?, d: String?, r: String?, element: XMLTreeElement, reader: MPDReader) throws(DASHParseError) -> TimelineEntry {
        guard let d else { throw reader.missing(element, "d (of an S)") }
        guard let duration = DASHValues.unsigned(XMLTreeElement.trimmed(d)) else { throw reader.invalid(element, "d", "of an S is not a whole number") }
        guard duration > 0 else { throw reader.invalid(element, "d", "of an S is 0") }
        var repeatCount = 0
        if let r {
            guard let value = DASHValues.integer(XMLTreeElement.trimmed(r)), value >= -1 else {
                throw reader.invalid(element, "r", "of an S is not -1 or a whole number")
            }
            repeatCount = value
        }
        var time: UInt64?
        if let t {
            guard let value = DASHValues.unsigned(XMLTreeElement.trimmed(t)) else { throw reader.invalid(element, "t", "of an S is not a whole number") }
            time = value
        }
        return TimelineEntry(time: time, duration: duration, repeatCount: repeatCount)
    }

}
