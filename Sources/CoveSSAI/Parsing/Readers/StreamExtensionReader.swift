import CoveXML

/// Reads the Brightcove stream extension out of the top-level `<vmap:Extensions>`, in either
/// flavour (see `VMAPStream`). Vendor elements are matched by local name in any prefix, directly
/// under `Extensions` or one level down inside an `<Extension>` wrapper, and their attributes in
/// any letter case, because neither flavour is a published schema.
enum StreamExtensionReader {
    static func stream(_ extensions: XMLTreeElement, context: inout ReadContext) -> VMAPStream {
        let candidates = extensions.elements.flatMap { element in
            element.localName == "Extension" ? element.elements : [element]
        }
        let brightcove = candidates.first { $0.localName.lowercased() == "brightcove" }
        let once = candidates.first { $0.localName.lowercased() == "unicornonce" }
        let flavour: VMAPStreamFlavour = brightcove != nil ? .brightcove : once != nil ? .unicornOnce : .none
        let main = brightcove ?? once
        let location = "Extensions".step(main?.name ?? "stream")
        // Thumbnails and impressions sit beside the main element; also look inside it.
        let scope = candidates + (main.map(\.elements) ?? [])

        return VMAPStream(
            flavour: flavour,
            contentURL: main?.attribute(anyCase: "contenturi"),
            contentLength: main.flatMap { seconds($0, "contentlength", context: &context, at: location) },
            payloadLength: main.flatMap { seconds($0, "payloadlength", context: &context, at: location) },
            contentType: main?.attribute(anyCase: "contenttype"),
            ttl: main.flatMap { element in element.attributeKey(anyCase: "ttl").flatMap { context.integer(element, $0, at: location) } },
            contextID: main?.attribute(anyCase: "contextid"),
            thumbnails: scope.filter { $0.localName.lowercased() == "thumbnailurl" }.compactMap { thumbnails($0, context: &context) },
            contentImpressions: scope.filter { $0.localName == "contentImpressions" }.flatMap {
                contentImpressions($0, context: &context)
            },
            rawExtensions: RawXMLElement(extensions)
        )
    }

    private static func seconds(_ element: XMLTreeElement, _ name: String, context: inout ReadContext, at location: String) -> AdTime? {
        guard let text = element.attribute(anyCase: name) else { return nil }
        do {
            return try AdTime.parseSeconds(text)
        } catch {
            context.warn(.badAttribute, at: location, "\(name): \(error.description) Ignored.")
            return nil
        }
    }

    private static func thumbnails(_ element: XMLTreeElement, context: inout ReadContext) -> VMAPThumbnails? {
        guard let url = element.nonEmptyText ?? element.attribute(anyCase: "url") else { return nil }
        let location = "Extensions".step(element.name)
        return VMAPThumbnails(
            url: url,
            type: element.attribute("type"),
            width: context.integer(element, "width", at: location),
            height: context.integer(element, "height", at: location),
            bandwidth: context.integer(element, "bandwidth", at: location)
        )
    }

    /// `<uo:Impression url="…" time="…"/>` children (also `contentImpression`, and the URL as text).
    private static func contentImpressions(_ list: XMLTreeElement, context: inout ReadContext) -> [VMAPContentImpression] {
        let location = "Extensions".step(list.name)
        return list.elements.filter { $0.localName == "Impression" || $0.localName == "contentImpression" }.compactMap { element -> VMAPContentImpression? in
            guard let url = element.attribute(anyCase: "url") ?? element.nonEmptyText else { return nil }
            var time: AdTime?
            if let text = element.attribute(anyCase: "time") {
                do throws(AdTimeError) {
                    time = text.contains(":") ? try AdTime.parse(text) : try AdTime.parseSeconds(text)
                } catch {
                    context.warn(.badAttribute, at: location, "time: \(error.description) The impression fires at content start.")
                }
            }
            return VMAPContentImpression(url: url, time: time)
        }
    }
}
