import CoveInput
import CoveXML
import Foundation

extension MPD {
    /// Reads an MPD. Pure: bytes and the URL they came from in, values or a typed error out. The bytes go
    /// through the same guard as every XML document Cove reads (UTF-8 only, no DTD or entities, bounded
    /// depth, size and counts), then Cove's own `XMLScanner` (a live MPD is tens of thousands of `<S/>`
    /// elements, which Foundation's `XMLParser` reads at about a microsecond each).
    public static func parse(_ bytes: [UInt8], url: URL, limits: DASHParseLimits = DASHParseLimits()) throws(DASHParseError) -> MPD {
        let tree: XMLTreeBuilder.Result
        do {
            // A live MPD's SegmentTimelines are most of its elements: their <S/> entries stay packed.
            tree = try GuardedXML.load(bytes, limits: limits.xml, reader: .scanner, packingLeavesOf: ["SegmentTimeline"])
        } catch {
            throw DASHParseError(error)
        }
        return try MPDReader(manifestURL: url, limits: limits).read(tree.root)
    }
}

/// Walks the guarded XML tree into `MPD` values, carrying inherited segment information and base URLs
/// down from the MPD to each representation.
struct MPDReader {
    let manifestURL: URL
    let limits: DASHParseLimits

    func read(_ root: XMLTreeElement) throws(DASHParseError) -> MPD {
        guard root.localName == "MPD" else {
            throw DASHParseError(
                .notMPD, element: root.name, line: root.line,
                detail: "The document's root element is <\(root.localName)>, not <MPD>; it is not a DASH manifest.",
                advice: "Check the URL: it should return an MPD (application/dash+xml)."
            )
        }
        let kind: MPD.Kind
        switch root.attribute("type") ?? "static" {
        case "static": kind = .static
        case "dynamic": kind = .dynamic
        default: throw invalid(root, "type", "is neither static nor dynamic")
        }
        let presentationDuration = try duration(root, "mediaPresentationDuration")
        let base = try baseURL(of: root, against: manifestURL)
        let periodElements = root.children("Period")
        guard !periodElements.isEmpty else {
            throw DASHParseError(
                .unsupported, element: root.name, line: root.line, detail: "The MPD has no <Period>.",
                advice: "A manifest needs at least one period with adaptation sets.")
        }
        try limits.check(
            .maxPeriods, periodElements.count, line: root.line, subject: root.name,
            detail: "The MPD has \(periodElements.count) periods; the limit is \(limits.maxPeriods).")
        // Starts first: a period without @start begins where the one before it ends.
        var starts: [Double] = []
        var explicitDurations: [Double?] = []
        for (index, element) in periodElements.enumerated() {
            let explicitStart = try duration(element, "start")
            let explicitDuration = try duration(element, "duration")
            let start: Double
            if let explicitStart {
                start = explicitStart
            } else if index == 0 {
                start = 0
            } else if let previous = explicitDurations[index - 1] {
                start = starts[index - 1] + previous
            } else {
                throw DASHParseError(
                    .invalidValue, element: element.name, line: element.line,
                    detail: "Period \(index + 1) has no @start and the period before it has no @duration, so where it starts is unknown.",
                    advice: "Give every period after the first a @start, or its predecessor a @duration."
                )
            }
            if let last = starts.last, start < last {
                throw DASHParseError(
                    .invalidValue, element: element.name, line: element.line, detail: "Period \(index + 1) starts before the period ahead of it.",
                    advice: "Periods must be listed in presentation order.")
            }
            starts.append(start)
            explicitDurations.append(explicitDuration)
        }
        var periods: [Period] = []
        for (index, element) in periodElements.enumerated() {
            let next = index + 1 < starts.count ? starts[index + 1] : nil
            let duration = explicitDurations[index] ?? next.map { $0 - starts[index] } ?? presentationDuration.map { $0 - starts[index] }
            periods.append(try period(element, start: starts[index], duration: duration.map { max($0, 0) }, base: base))
        }
        let location = root.child("Location")?.nonEmptyText.flatMap { URL(string: $0, relativeTo: manifestURL)?.absoluteURL }
        return MPD(
            kind: kind, url: manifestURL, mediaPresentationDuration: presentationDuration, minBufferTime: try duration(root, "minBufferTime"),
            availabilityStartTime: try date(root, "availabilityStartTime"), publishTime: try date(root, "publishTime"),
            timeShiftBufferDepth: try duration(root, "timeShiftBufferDepth"), minimumUpdatePeriod: try duration(root, "minimumUpdatePeriod"),
            suggestedPresentationDelay: try duration(root, "suggestedPresentationDelay"), maxSegmentDuration: try duration(root, "maxSegmentDuration"),
            location: location.flatMap { isAllowed($0) ? $0 : nil }, periods: periods
        )
    }

    private func period(_ element: XMLTreeElement, start: Double, duration: Double?, base: URL) throws(DASHParseError) -> Period {
        let periodBase = try baseURL(of: element, against: base)
        let info = try SegmentInfo.read(element, reader: self)
        var sets: [AdaptationSet] = []
        for setElement in element.children("AdaptationSet") {
            sets.append(try adaptationSet(setElement, base: periodBase, inherited: info))
        }
        return Period(id: element.attribute("id"), start: start, duration: duration, adaptationSets: sets)
    }

    private func adaptationSet(_ element: XMLTreeElement, base: URL, inherited: SegmentInfo) throws(DASHParseError) -> AdaptationSet {
        let setBase = try baseURL(of: element, against: base)
        let info = try SegmentInfo.read(element, reader: self).merged(over: inherited)
        var protections = element.children("ContentProtection").map(Self.protection)
        var representations: [Representation] = []
        for child in element.children("Representation") {
            protections += child.children("ContentProtection").map(Self.protection)
            representations.append(try representation(child, set: element, base: setBase, inherited: info))
        }
        let mimeType = element.attribute("mimeType") ?? representations.first?.mimeType
        let codecs = element.attribute("codecs").map(Self.codecList) ?? representations.first?.codecs ?? []
        return AdaptationSet(
            id: element.attribute("id"),
            contentType: Self.contentType(declared: element.attribute("contentType"), mimeType: mimeType, codecs: codecs),
            mimeType: mimeType, language: element.attribute("lang"), label: element.child("Label")?.nonEmptyText ?? element.attribute("label"),
            roles: element.children("Role").compactMap { $0.attribute("value") },
            contentProtections: protections, representations: representations
        )
    }

    private func representation(_ element: XMLTreeElement, set: XMLTreeElement, base: URL, inherited: SegmentInfo) throws(DASHParseError) -> Representation {
        guard let id = element.attribute("id") else { throw missing(element, "id") }
        guard let bandwidthText = element.attribute("bandwidth"), let bandwidth = DASHValues.unsigned(bandwidthText), bandwidth <= UInt64(Int32.max) else {
            throw element.attribute("bandwidth") == nil
                ? missing(element, "bandwidth") : invalid(element, "bandwidth", "is not a whole number of bits per second")
        }
        let representationBase = try baseURL(of: element, against: base)
        let info = try SegmentInfo.read(element, reader: self).merged(over: inherited)
        let codecs = (element.attribute("codecs") ?? set.attribute("codecs")).map(Self.codecList) ?? []
        let ownWidth = try positiveInt(element, "width"), setWidth = try positiveInt(set, "width")
        let ownHeight = try positiveInt(element, "height"), setHeight = try positiveInt(set, "height")
        return Representation(
            id: id, bandwidth: Int(bandwidth),
            width: ownWidth ?? setWidth,
            height: ownHeight ?? setHeight,
            frameRate: (element.attribute("frameRate") ?? set.attribute("frameRate")).flatMap(DASHValues.frameRate),
            codecs: codecs, mimeType: element.attribute("mimeType") ?? set.attribute("mimeType"),
            audioSamplingRate: (element.attribute("audioSamplingRate") ?? set.attribute("audioSamplingRate")).flatMap { Int($0) },
            baseURL: representationBase,
            addressing: try info.addressing(for: element, base: representationBase, reader: self)
        )
    }

    // MARK: Values

    static func protection(_ element: XMLTreeElement) -> ContentProtection {
        let kid = element.attributeList.first { $0.name.hasSuffix("default_KID") }?.value
        // `cenc:pssh`: the box in base64 (the XML guard already bounds an element's text to 64 KiB).
        let pssh = element.child("pssh")?.nonEmptyText.flatMap { text in
            Data(base64Encoded: text.filter { !$0.isWhitespace }).map { [UInt8]($0) }
        }
        return ContentProtection(schemeIdUri: element.attribute("schemeIdUri") ?? "", value: element.attribute("value"), defaultKID: kid, pssh: pssh)
    }

    static func codecList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func contentType(declared: String?, mimeType: String?, codecs: [String]) -> ContentType {
        if let declared, let type = ContentType(rawValue: declared) { return type }
        let mime = mimeType?.lowercased() ?? ""
        if mime.hasPrefix("video/") { return .video }
        if mime.hasPrefix("audio/") { return .audio }
        if mime.hasPrefix("text/") || mime == "application/ttml+xml" { return .text }
        if mime.hasPrefix("image/") { return .image }
        if codecs.contains(where: { $0.hasPrefix("stpp") || $0.hasPrefix("wvtt") }) { return .text }
        return .other
    }

    /// The element's first `BaseURL`, resolved against `base` (none: `base` itself). Only http(s) and the
    /// manifest's own scheme are followed: a `BaseURL` must not turn a web manifest into a file reader.
    func baseURL(of element: XMLTreeElement, against base: URL) throws(DASHParseError) -> URL {
        guard let child = element.child("BaseURL"), let text = child.nonEmptyText else { return base }
        guard let resolved = URL(string: text, relativeTo: base)?.absoluteURL else {
            throw DASHParseError(
                .invalidValue, element: child.name, line: child.line, detail: "A <BaseURL> is not a valid URL.",
                advice: "Percent-encode spaces and other reserved characters in BaseURL.")
        }
        guard isAllowed(resolved) else {
            throw DASHParseError(
                .invalidValue, element: child.name, line: child.line,
                detail:
                    "A <BaseURL> points at the scheme \"\(resolved.scheme ?? "")\", which a manifest served over \(manifestURL.scheme ?? "its scheme") may not use.",
                advice: "Segment URLs must be http or https (or the manifest's own scheme)."
            )
        }
        return resolved
    }

    func isAllowed(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased()
        return scheme == "http" || scheme == "https" || scheme == manifestURL.scheme?.lowercased()
    }

    func duration(_ element: XMLTreeElement, _ name: String) throws(DASHParseError) -> Double? {
        guard let text = element.attribute(name) else { return nil }
        guard let value = DASHValues.duration(text) else { throw invalid(element, name, "is not an xs:duration such as PT2S") }
        return value
    }

    func date(_ element: XMLTreeElement, _ name: String) throws(DASHParseError) -> Double? {
        guard let text = element.attribute(name) else { return nil }
        guard let value = DASHValues.dateTime(text) else { throw invalid(element, name, "is not an xs:dateTime such as 2024-05-01T12:00:00Z") }
        return value
    }

    func unsigned(_ element: XMLTreeElement, _ name: String) throws(DASHParseError) -> UInt64? {
        guard let text = element.attribute(name) else { return nil }
        guard let value = DASHValues.unsigned(text) else { throw invalid(element, name, "is not a whole number") }
        return value
    }

    private func positiveInt(_ element: XMLTreeElement, _ name: String) throws(DASHParseError) -> Int? {
        guard let value = try unsigned(element, name) else { return nil }
        guard value > 0, value <= 65_536 else { throw invalid(element, name, "is outside 1…65536") }
        return Int(value)
    }

    func invalid(_ element: XMLTreeElement, _ attribute: String, _ problem: String) -> DASHParseError {
        DASHParseError(
            .invalidValue, element: element.name, line: element.line, detail: "@\(attribute) of <\(element.localName)> \(problem).",
            advice: "Fix the manifest's generator; Cove does not guess at values it cannot read.")
    }

    func missing(_ element: XMLTreeElement, _ attribute: String) -> DASHParseError {
        DASHParseError(
            .invalidValue, element: element.name, line: element.line, detail: "<\(element.localName)> has no @\(attribute), which it must have.",
            advice: "Fix the manifest's generator.")
    }
}
