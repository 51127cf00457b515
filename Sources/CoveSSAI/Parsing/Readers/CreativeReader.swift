import CoveXML

/// Reads `<Creatives>`. An inline ad whose linear creative has no readable `Duration` cannot be
/// placed on the timeline, so the whole ad is dropped (returns nil) with a warning; every other
/// bad value only loses itself.
enum CreativeReader {
    static func creatives(
        _ parent: XMLTreeElement, isWrapper: Bool, context: inout ReadContext, at location: String
    ) -> [VASTCreative]? {
        var result: [VASTCreative] = []
        let elements = parent.children("Creatives").flatMap { $0.children("Creative") }
        for (index, element) in elements.enumerated() {
            let here = location.step("Creative", index + 1, id: element.attribute("id"))
            var linear: VASTLinear?
            if let linearElement = element.child("Linear") {
                guard let read = self.linear(linearElement, isWrapper: isWrapper, context: &context, at: here) else { return nil }
                linear = read
            }
            // VAST 4.0 put the value in `idValue`; 4.1 moved it into the text.
            let universalAdIds = element.children("UniversalAdId").compactMap { id in
                (id.nonEmptyText ?? id.attribute("idValue").map(XMLTreeElement.trimmed).flatMap { $0.isEmpty ? nil : $0 }).map {
                    VASTUniversalAdId(idRegistry: id.attribute("idRegistry"), value: $0)
                }
            }
            let creativeExtensions =
                CommonReaders.extensions(element, container: "CreativeExtensions")
                + (element.child("Linear").map { CommonReaders.extensions($0, container: "CreativeExtensions") } ?? [])
            result.append(
                VASTCreative(
                    id: element.attribute("id"),
                    adId: element.attribute("adId") ?? element.attribute("AdID"),
                    sequence: context.integer(element, "sequence", at: here),
                    apiFramework: element.attribute("apiFramework"),
                    universalAdIds: universalAdIds,
                    linear: linear,
                    companionAds: element.child("CompanionAds").map { CompanionReader.companionAds($0, context: &context, at: here) },
                    nonLinearAds: element.child("NonLinearAds").map { CompanionReader.nonLinearAds($0, context: &context, at: here) },
                    creativeExtensions: creativeExtensions
                ))
        }
        return result
    }

    private static func linear(
        _ element: XMLTreeElement, isWrapper: Bool, context: inout ReadContext, at location: String
    ) -> VASTLinear? {
        var duration: AdTime?
        if let text = element.child("Duration")?.nonEmptyText {
            do {
                duration = try AdTime.parse(text)
            } catch {
                if !isWrapper {
                    context.warn(.badDuration, at: location, "\(error.description) The ad was dropped.")
                    return nil
                }
                context.warn(.badDuration, at: location, "\(error.description) The wrapper's duration is ignored.")
            }
        } else if !isWrapper {
            context.warn(.badDuration, at: location, "The linear creative has no <Duration>. The ad was dropped.")
            return nil
        }
        var skipOffset: VASTOffset?
        if let text = element.attribute("skipoffset") ?? element.attribute("skipOffset") {
            do {
                skipOffset = try VASTOffset.parse(text)
            } catch {
                context.warn(.badSkipOffset, at: location, "\(error.description) The ad is treated as not skippable.")
            }
        }
        let trackingEvents = CommonReaders.trackingEvents(element, context: &context, at: location)
        let files = MediaFilesReader.files(element, context: &context, at: location)
        return VASTLinear(
            duration: duration,
            skipOffset: skipOffset,
            trackingEvents: trackingEvents,
            videoClicks: videoClicks(element.child("VideoClicks")),
            mediaFiles: files.mediaFiles,
            adParameters: element.child("AdParameters").flatMap(markup),
            icons: IconReader.icons(element, context: &context, at: location),
            closedCaptionFiles: files.closedCaptionFiles,
            mezzanines: files.mezzanines,
            interactiveCreativeFiles: files.interactiveCreativeFiles
        )
    }

    private static func videoClicks(_ element: XMLTreeElement?) -> VASTVideoClicks {
        guard let element else { return VASTVideoClicks() }
        return VASTVideoClicks(
            clickThrough: CommonReaders.clicks(element, "ClickThrough").first,
            clickTracking: CommonReaders.clicks(element, "ClickTracking"),
            customClicks: CommonReaders.clicks(element, "CustomClick")
        )
    }

    /// Child markup as XML when there is any, else the text; nil when empty.
    static func markup(_ element: XMLTreeElement) -> String? {
        guard element.hasChildElements else { return element.nonEmptyText }
        let inner = XMLTreeElement.trimmed(RawXMLElement(element).innerXML)
        return inner.isEmpty ? nil : inner
    }
}
