import CoveXML

/// Reads a `<vmap:VMAP>` element. Elements are matched by local name, so `vmap:`, another
/// prefix or none all work. A break with a missing or bad `timeOffset` is dropped with a warning;
/// everything else about a break is best effort.
enum VMAPReader {
    static func document(_ root: XMLTreeElement, context: inout ReadContext) -> VMAPDocument {
        let extensions = root.child("Extensions")
        let stream = extensions.map { StreamExtensionReader.stream($0, context: &context) } ?? .none
        var breaks: [VMAPAdBreak] = []
        for (index, element) in root.children("AdBreak").enumerated() {
            let here = "".step("AdBreak", index + 1, id: element.attribute("breakId"))
            if let adBreak = adBreak(element, context: &context, at: here) { breaks.append(adBreak) }
        }
        return VMAPDocument(
            version: root.attribute("version"),
            adBreaks: breaks,
            stream: stream,
            extensions: extensions.map { $0.elements.map(RawXMLElement.init) } ?? [],
            warnings: context.finishedWarnings
        )
    }

    private static func adBreak(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VMAPAdBreak? {
        guard let offsetText = element.attribute("timeOffset") else {
            context.warn(.badTimeOffset, at: location, "The <AdBreak> has no timeOffset; the break was dropped.")
            return nil
        }
        let offset: VMAPTimeOffset
        do {
            offset = try VMAPTimeOffset.parse(offsetText)
        } catch {
            context.warn(.badTimeOffset, at: location, "timeOffset: \(error.description) The break was dropped.")
            return nil
        }
        var repeatAfter: AdTime?
        if let text = element.attribute("repeatAfter") {
            do {
                repeatAfter = try AdTime.parse(text)
            } catch {
                context.warn(.badAttribute, at: location, "repeatAfter: \(error.description) Ignored.")
            }
        }
        return VMAPAdBreak(
            timeOffset: offset,
            breakType: element.attribute("breakType"),
            breakId: element.attribute("breakId"),
            repeatAfter: repeatAfter,
            adSource: element.child("AdSource").flatMap { adSource($0, context: &context, at: location) },
            trackingEvents: trackingEvents(element, context: &context, at: location),
            extensions: CommonReaders.extensions(element)
        )
    }

    private static func adSource(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VMAPAdSource? {
        let here = location.step("AdSource", id: element.attribute("id"))
        let content: VMAPAdSourceContent
        if let data = element.child("VASTAdData") ?? element.child("VASTData") {
            guard let document = inlineVAST(data, context: &context, at: here) else { return nil }
            content = .vast(document)
        } else if let tag = element.child("AdTagURI") {
            guard let uri = tag.nonEmptyText else {
                context.warn(.emptyAdSource, at: here, "The <AdTagURI> is empty; the break is kept without an ad source.")
                return nil
            }
            content = .adTagURI(VMAPAdTagURI(uri: uri, templateType: tag.attribute("templateType")))
        } else if let custom = element.child("CustomAdData") {
            content = .customData(RawXMLElement(custom))
        } else {
            context.warn(.emptyAdSource, at: here, "The <AdSource> holds no VAST, ad tag or custom data; the break is kept without an ad source.")
            return nil
        }
        return VMAPAdSource(
            id: element.attribute("id"),
            allowMultipleAds: context.bool(element, "allowMultipleAds", at: here),
            followRedirects: context.bool(element, "followRedirects", at: here),
            content: content
        )
    }

    /// The `<VAST>` inside `VASTAdData`/`VASTData`; some servers send it escaped or in CDATA
    /// instead of as child elements, so text that looks like XML is parsed too (same guard, same limits).
    private static func inlineVAST(_ data: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTDocument? {
        if let vast = data.child("VAST") {
            return VASTReader.document(vast, context: &context, at: location)
        }
        let text = data.text
        guard text.hasPrefix("<") else {
            context.warn(.badInlineVAST, at: location, "The <\(data.name)> holds no <VAST> element; the break is kept without an ad source.")
            return nil
        }
        do {
            let tree = try DocumentLoader.load(Array(text.utf8), limits: context.limits)
            guard tree.root.localName == "VAST" else {
                context.warn(.badInlineVAST, at: location, "The text inside <\(data.name)> is XML but not VAST; the break is kept without an ad source.")
                return nil
            }
            return VASTReader.document(tree.root, context: &context, at: location)
        } catch {
            context.warn(
                .badInlineVAST, at: location,
                "The VAST text inside <\(data.name)> could not be read (\(error.kind.rawValue)); the break is kept without an ad source.")
            return nil
        }
    }

    private static func trackingEvents(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> [VMAPTrackingEvent] {
        var events: [VMAPTrackingEvent] = []
        for list in element.children("TrackingEvents") {
            for (index, tracking) in list.children("Tracking").enumerated() {
                guard let url = tracking.nonEmptyText else { continue }
                guard let name = tracking.attribute("event") else {
                    context.warn(.badAttribute, at: location.step("Tracking", index + 1), "A <Tracking> has no event name; it was dropped.")
                    continue
                }
                events.append(VMAPTrackingEvent(event: VMAPTrackingEventName(rawValue: name), url: url))
            }
        }
        return events
    }
}
