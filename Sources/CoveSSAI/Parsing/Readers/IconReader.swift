import CoveXML

/// Reads a linear creative's `<Icons>`. Icons come from many ad servers and are often written
/// carelessly (no size, `xPosition="10px"`, no image), so nothing about one icon is fatal: a value
/// that cannot be read is nil with a warning, and an icon missing what VAST requires is kept with
/// a warning that says what the player will lack. How many icons are read is bounded
/// (`VMAPParseLimits.maxIconsPerCreative`): each one is a view beacon fired at ad start.
enum IconReader {
    /// The attributes VAST 3 and 4 require on `<Icon>`.
    private static let required = ["program", "width", "height", "xPosition", "yPosition"]

    static func icons(_ linear: XMLTreeElement, context: inout ReadContext, at location: String) -> [VASTIcon] {
        let elements = linear.children("Icons").flatMap { $0.children("Icon") }
        let limit = max(0, context.limits.maxIconsPerCreative)
        if elements.count > limit {
            context.warn(
                .tooManyEntries, at: location,
                "The creative has \(elements.count) <Icon>s; the first \(limit) were kept (VMAPParseLimits.maxIconsPerCreative).")
        }
        return elements.prefix(limit).enumerated().map { index, element in
            icon(element, context: &context, at: location.step("Icon", index + 1, id: element.attribute("program")))
        }
    }

    private static func icon(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> VASTIcon {
        let missing = required.filter { element.attribute($0).map(XMLTreeElement.trimmed)?.isEmpty ?? true }
        if !missing.isEmpty {
            context.warn(
                .incompleteElement, at: location,
                "The <Icon> has no \(missing.joined(separator: ", ")); it is kept, but players may size or place it as they see fit.")
        }
        let clicks = element.child("IconClicks")
        let icon = VASTIcon(
            program: element.attribute("program").map(XMLTreeElement.trimmed).flatMap { $0.isEmpty ? nil : $0 },
            width: context.integer(element, "width", at: location),
            height: context.integer(element, "height", at: location),
            xPosition: position(element, "xPosition", context: &context, at: location, parse: VASTIconXPosition.parse),
            yPosition: position(element, "yPosition", context: &context, at: location, parse: VASTIconYPosition.parse),
            duration: time(element, "duration", context: &context, at: location),
            offset: time(element, "offset", context: &context, at: location),
            apiFramework: element.attribute("apiFramework"),
            pxratio: pixelRatio(element, context: &context, at: location),
            staticResources: staticResources(element),
            iframeResources: CommonReaders.urls(element, "IFrameResource"),
            htmlResources: element.children("HTMLResource").compactMap(CreativeReader.markup),
            altText: element.child("AltText")?.nonEmptyText,
            hoverText: element.child("HoverText")?.nonEmptyText,
            clickThrough: clicks?.child("IconClickThrough")?.nonEmptyText,
            clickTracking: clicks.map { CommonReaders.clicks($0, "IconClickTracking") } ?? [],
            clickFallbackImages: clicks.map { fallbackImages($0, context: &context, at: location) } ?? [],
            viewTracking: CommonReaders.urls(element, "IconViewTracking")
        )
        if !icon.hasResource {
            context.warn(
                .incompleteElement, at: location,
                "The <Icon> has no StaticResource, IFrameResource or HTMLResource, so it cannot be shown; its view tracking will not be sent.")
        }
        return icon
    }

    private static func staticResources(_ element: XMLTreeElement) -> [VASTStaticResource] {
        element.children("StaticResource").compactMap { resource in
            resource.nonEmptyText.map { VASTStaticResource(creativeType: resource.attribute("creativeType"), url: $0) }
        }
    }

    /// VAST 4.1 `<IconClickFallbackImages>`: images with no picture and no text say nothing, so they are skipped.
    private static func fallbackImages(_ clicks: XMLTreeElement, context: inout ReadContext, at location: String) -> [VASTIconClickFallbackImage] {
        let elements = clicks.children("IconClickFallbackImages").flatMap { $0.children("IconClickFallbackImage") }
        return elements.enumerated().compactMap { index, element in
            let here = location.step("IconClickFallbackImage", index + 1)
            let image = VASTIconClickFallbackImage(
                width: context.integer(element, "width", at: here),
                height: context.integer(element, "height", at: here),
                altText: element.child("AltText")?.nonEmptyText,
                staticResource: staticResources(element).first
            )
            return image.staticResource == nil && image.altText == nil ? nil : image
        }
    }

    private static func position<Position>(
        _ element: XMLTreeElement, _ name: String, context: inout ReadContext, at location: String, parse: (String) -> Position?
    ) -> Position? {
        guard let text = element.attribute(name) else { return nil }
        let trimmed = XMLTreeElement.trimmed(text)
        if trimmed.isEmpty { return nil }
        if let position = parse(trimmed) { return position }
        context.warn(
            .badAttribute, at: location,
            "<Icon> \(name)=\"\(ReadContext.snippet(text))\" is neither a side nor a whole number of pixels; ignored.")
        return nil
    }

    private static func time(_ element: XMLTreeElement, _ name: String, context: inout ReadContext, at location: String) -> AdTime? {
        guard let text = element.attribute(name) else { return nil }
        do throws(AdTimeError) {
            return try AdTime.parse(text)
        } catch {
            context.warn(.badAttribute, at: location, "<Icon> \(name): \(error.description) Ignored.")
            return nil
        }
    }

    /// `pxratio`: a positive decimal such as `1`, `1.5` or `2`, digits only (no sign, no exponent).
    private static func pixelRatio(_ element: XMLTreeElement, context: inout ReadContext, at location: String) -> Double? {
        guard let text = element.attribute("pxratio") else { return nil }
        let trimmed = XMLTreeElement.trimmed(text)
        let parts = Array(trimmed.utf8).split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: ArraySlice<UInt8>) in
            !part.isEmpty && part.count <= 9 && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        if parts.allSatisfy(isDigits), let value = Double(trimmed), value > 0 { return value }
        context.warn(.badAttribute, at: location, "<Icon> pxratio=\"\(ReadContext.snippet(text))\" is not a positive number; ignored.")
        return nil
    }
}
