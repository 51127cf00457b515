import CoveXML

/// Reads `<CompanionAds>` and, minimally, `<NonLinearAds>`.
enum CompanionReader {
    static func companionAds(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTCompanionAds {
        let companions = element.children("Companion").enumerated().map { index, companion in
            self.companion(companion, context: &context, at: location.step("Companion", index + 1, id: companion.attribute("id")))
        }
        return VASTCompanionAds(required: element.attribute("required"), companions: companions)
    }

    private static func companion(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTCompanion {
        VASTCompanion(
            id: element.attribute("id"),
            width: context.integer(element, "width", at: location),
            height: context.integer(element, "height", at: location),
            assetWidth: context.integer(element, "assetWidth", at: location),
            assetHeight: context.integer(element, "assetHeight", at: location),
            expandedWidth: context.integer(element, "expandedWidth", at: location),
            expandedHeight: context.integer(element, "expandedHeight", at: location),
            apiFramework: element.attribute("apiFramework"),
            adSlotId: element.attribute("adSlotID") ?? element.attribute("adSlotId"),
            staticResources: element.children("StaticResource").compactMap { resource in
                resource.nonEmptyText.map { VASTStaticResource(creativeType: resource.attribute("creativeType"), url: $0) }
            },
            iframeResources: CommonReaders.urls(element, "IFrameResource"),
            htmlResources: element.children("HTMLResource").compactMap(CreativeReader.markup),
            altText: element.child("AltText")?.nonEmptyText,
            clickThrough: element.child("CompanionClickThrough")?.nonEmptyText,
            clickTracking: CommonReaders.clicks(element, "CompanionClickTracking"),
            trackingEvents: CommonReaders.trackingEvents(element, context: &context, at: location)
        )
    }

    static func nonLinearAds(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTNonLinearAds {
        let nonLinears = element.children("NonLinear").enumerated().map { index, nonLinear in
            let here = location.step("NonLinear", index + 1, id: nonLinear.attribute("id"))
            var minimum: AdTime?
            if let text = nonLinear.attribute("minSuggestedDuration") {
                do throws(AdTimeError) {
                    minimum = try AdTime.parse(text)
                } catch {
                    context.warn(.badAttribute, at: here, "minSuggestedDuration: \(error.description) Ignored.")
                }
            }
            return VASTNonLinear(
                id: nonLinear.attribute("id"),
                width: context.integer(nonLinear, "width", at: here),
                height: context.integer(nonLinear, "height", at: here),
                minSuggestedDuration: minimum,
                clickThrough: nonLinear.child("NonLinearClickThrough")?.nonEmptyText,
                clickTracking: CommonReaders.clicks(nonLinear, "NonLinearClickTracking"),
                raw: RawXMLElement(nonLinear)
            )
        }
        return VASTNonLinearAds(
            nonLinears: nonLinears,
            trackingEvents: CommonReaders.trackingEvents(element, context: &context, at: location)
        )
    }
}
