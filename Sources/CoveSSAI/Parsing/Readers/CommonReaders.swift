import CoveXML

/// Readers for the small structures InLine, Wrapper and creatives share: URL lists, tracking,
/// clicks, extensions and verifications. Empty URL elements (`<Error></Error>`,
/// `<ClickThrough/>`) are skipped silently: servers emit them as placeholders.
enum CommonReaders {
    static func urls(_ parent: XMLTreeElement, _ name: String) -> [String] {
        parent.children(name).compactMap(\.nonEmptyText)
    }

    static func impressions(_ parent: XMLTreeElement) -> [VASTImpression] {
        parent.children("Impression").compactMap { element in
            element.nonEmptyText.map { VASTImpression(id: element.attribute("id"), url: $0) }
        }
    }

    static func clicks(_ parent: XMLTreeElement, _ name: String) -> [VASTClick] {
        parent.children(name).compactMap { element in
            element.nonEmptyText.map { VASTClick(id: element.attribute("id"), url: $0) }
        }
    }

    static func viewableImpressions(_ parent: XMLTreeElement) -> [VASTViewableImpression] {
        parent.children("ViewableImpression").map { element in
            VASTViewableImpression(
                id: element.attribute("id"),
                viewable: urls(element, "Viewable"),
                notViewable: urls(element, "NotViewable"),
                viewUndetermined: urls(element, "ViewUndetermined")
            )
        }
    }

    static func adSystem(_ parent: XMLTreeElement) -> VASTAdSystem? {
        guard let element = parent.child("AdSystem"), let name = element.nonEmptyText else { return nil }
        return VASTAdSystem(name: name, version: element.attribute("version"))
    }

    /// `<TrackingEvents>/<Tracking event="…" offset="…">url</Tracking>` under `parent`.
    static func trackingEvents(_ parent: XMLTreeElement, context: inout ReadContext, at location: String) -> [VASTTrackingEvent] {
        var events: [VASTTrackingEvent] = []
        for list in parent.children("TrackingEvents") {
            for (index, tracking) in list.children("Tracking").enumerated() {
                guard let url = tracking.nonEmptyText else { continue }
                guard let name = tracking.attribute("event") else {
                    context.warn(.badAttribute, at: location.step("Tracking", index + 1), "A <Tracking> has no event name; it was dropped.")
                    continue
                }
                var offset: VASTOffset?
                if let text = tracking.attribute("offset") {
                    do {
                        offset = try VASTOffset.parseTrackingOffset(text)
                    } catch {
                        context.warn(
                            .badTrackingOffset, at: location.step("Tracking", index + 1, id: name),
                            "\(error.description) The event is kept without an offset."
                        )
                    }
                }
                events.append(VASTTrackingEvent(event: VASTTrackingEventName(rawValue: name), url: url, offset: offset))
            }
        }
        return events
    }

    /// `<Extensions>/<Extension>` (or whatever children a vendor put there), kept as XML.
    static func extensions(_ parent: XMLTreeElement, container: String = "Extensions") -> [RawXMLElement] {
        parent.children(container).flatMap { $0.elements.map(RawXMLElement.init) }
    }

    /// `<AdVerifications>` (VAST 4.1) plus `<Extension type="AdVerifications">` (VAST 3/4.0).
    static func verifications(_ parent: XMLTreeElement, context: inout ReadContext, at location: String) -> [VASTVerification] {
        var lists = parent.children("AdVerifications")
        for extensions in parent.children("Extensions") {
            for extensionElement in extensions.children("Extension") where extensionElement.attribute("type") == "AdVerifications" {
                lists += extensionElement.children("AdVerifications")
            }
        }
        var result: [VASTVerification] = []
        for list in lists {
            for (index, element) in list.children("Verification").enumerated() {
                let here = location.step("Verification", index + 1, id: element.attribute("vendor"))
                result.append(
                    VASTVerification(
                        vendor: element.attribute("vendor"),
                        javaScriptResources: element.children("JavaScriptResource").compactMap { resource in
                            resource.nonEmptyText.map {
                                VASTVerificationResource(
                                    apiFramework: resource.attribute("apiFramework"),
                                    browserOptional: context.bool(resource, "browserOptional", at: here), url: $0
                                )
                            }
                        },
                        executableResources: element.children("ExecutableResource").compactMap { resource in
                            resource.nonEmptyText.map {
                                VASTVerificationResource(apiFramework: resource.attribute("apiFramework"), type: resource.attribute("type"), url: $0)
                            }
                        },
                        verificationParameters: element.child("VerificationParameters")?.nonEmptyText,
                        trackingEvents: trackingEvents(element, context: &context, at: here)
                    ))
            }
        }
        return result
    }
}
