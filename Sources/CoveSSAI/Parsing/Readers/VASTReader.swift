import CoveXML

/// Reads a `<VAST>` element, standalone or inside a VMAP `AdSource`. One bad ad is dropped with
/// a warning; the rest of the response is kept.
enum VASTReader {
    static func document(_ root: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTDocument {
        let firstWarning = context.warnings.count
        var ads: [VASTAd] = []
        for (index, element) in root.children("Ad").enumerated() {
            let here = location.step("Ad", index + 1, id: element.attribute("id"))
            if let ad = ad(element, context: &context, at: here) { ads.append(ad) }
        }
        return VASTDocument(
            version: root.attribute("version"),
            ads: ads,
            errorURLs: CommonReaders.urls(root, "Error"),
            warnings: Array(context.warnings[firstWarning...])
        )
    }

    private static func ad(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTAd? {
        let content: VASTAdContent
        if let inLineElement = element.child("InLine") {
            guard let inLine = inLine(inLineElement, context: &context, at: location) else { return nil }
            content = .inLine(inLine)
        } else if let wrapperElement = element.child("Wrapper") {
            guard let wrapper = wrapper(wrapperElement, context: &context, at: location) else { return nil }
            content = .wrapper(wrapper)
        } else {
            context.warn(.emptyAd, at: location, "The <Ad> has neither <InLine> nor <Wrapper>; it was dropped.")
            return nil
        }
        return VASTAd(
            id: element.attribute("id"),
            sequence: context.integer(element, "sequence", at: location),
            adType: element.attribute("adType"),
            conditionalAd: context.bool(element, "conditionalAd", at: location),
            content: content
        )
    }

    private static func inLine(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTInLine? {
        guard let creatives = CreativeReader.creatives(element, isWrapper: false, context: &context, at: location) else {
            return nil
        }
        if creatives.count(where: { $0.linear != nil }) > 1 {
            context.warn(.multipleLinear, at: location, "The ad holds more than one <Linear>; all are kept, but players usually play only the first.")
        }
        return VASTInLine(
            adSystem: CommonReaders.adSystem(element),
            adTitle: element.child("AdTitle")?.nonEmptyText,
            adServingId: element.child("AdServingId")?.nonEmptyText,
            description: element.child("Description")?.nonEmptyText,
            advertiser: element.child("Advertiser")?.nonEmptyText,
            impressions: CommonReaders.impressions(element),
            viewableImpressions: CommonReaders.viewableImpressions(element),
            errorURLs: CommonReaders.urls(element, "Error"),
            creatives: creatives,
            extensions: CommonReaders.extensions(element),
            adVerifications: CommonReaders.verifications(element, context: &context, at: location)
        )
    }

    private static func wrapper(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTWrapper? {
        guard let adTagURI = element.child("VASTAdTagURI")?.nonEmptyText else {
            context.warn(.missingAdTagURI, at: location, "The <Wrapper> has no <VASTAdTagURI>; the ad was dropped.")
            return nil
        }
        let creatives = CreativeReader.creatives(element, isWrapper: true, context: &context, at: location) ?? []
        return VASTWrapper(
            adTagURI: adTagURI,
            followAdditionalWrappers: context.bool(element, "followAdditionalWrappers", at: location) ?? true,
            allowMultipleAds: context.bool(element, "allowMultipleAds", at: location) ?? false,
            fallbackOnNoAd: context.bool(element, "fallbackOnNoAd", at: location),
            adSystem: CommonReaders.adSystem(element),
            impressions: CommonReaders.impressions(element),
            viewableImpressions: CommonReaders.viewableImpressions(element),
            errorURLs: CommonReaders.urls(element, "Error"),
            creatives: creatives,
            extensions: CommonReaders.extensions(element),
            adVerifications: CommonReaders.verifications(element, context: &context, at: location)
        )
    }
}
