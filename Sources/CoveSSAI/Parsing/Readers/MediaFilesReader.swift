import CoveXML

/// Reads what a linear creative's `<MediaFiles>` holds: the `<MediaFile>`s, and VAST 4's
/// `<Mezzanine>`, `<InteractiveCreativeFile>` and (4.1) `<ClosedCaptionFiles>`. In SSAI the ad is
/// already in the stream, so all of it is informational; entries without a URL say nothing and
/// are skipped, numbers that cannot be read are nil with a warning.
enum MediaFilesReader {
    /// The four lists of one `<Linear>`.
    struct Files {
        var mediaFiles: [VASTMediaFile] = []
        var mezzanines: [VASTMezzanine] = []
        var interactiveCreativeFiles: [VASTInteractiveCreativeFile] = []
        var closedCaptionFiles: [VASTClosedCaptionFile] = []
    }

    static func files(_ linear: XMLTreeElement, context: inout ReadContext, at location: String) -> Files {
        var files = Files()
        for list in linear.children("MediaFiles") {
            for (index, element) in list.children("MediaFile").enumerated() {
                guard let url = element.nonEmptyText else { continue }
                files.mediaFiles.append(mediaFile(element, url: url, context: &context, at: location.step("MediaFile", index + 1)))
            }
            for (index, element) in list.children("Mezzanine").enumerated() {
                guard let url = element.nonEmptyText else { continue }
                let here = location.step("Mezzanine", index + 1)
                files.mezzanines.append(
                    VASTMezzanine(
                        id: element.attribute("id"), delivery: element.attribute("delivery"), type: element.attribute("type"),
                        width: context.integer(element, "width", at: here), height: context.integer(element, "height", at: here),
                        codec: element.attribute("codec"), fileSize: context.integer(element, "fileSize", at: here),
                        mediaType: element.attribute("mediaType"), url: url
                    ))
            }
            for (index, element) in list.children("InteractiveCreativeFile").enumerated() {
                guard let url = element.nonEmptyText else { continue }
                files.interactiveCreativeFiles.append(
                    VASTInteractiveCreativeFile(
                        type: element.attribute("type"), apiFramework: element.attribute("apiFramework"),
                        variableDuration: context.bool(element, "variableDuration", at: location.step("InteractiveCreativeFile", index + 1)),
                        url: url
                    ))
            }
            for element in list.children("ClosedCaptionFiles").flatMap({ $0.children("ClosedCaptionFile") }) {
                guard let url = element.nonEmptyText else { continue }
                files.closedCaptionFiles.append(VASTClosedCaptionFile(type: element.attribute("type"), language: element.attribute("language"), url: url))
            }
        }
        return files
    }

    private static func mediaFile(_ element: XMLTreeElement, url: String, context: inout ReadContext, at location: String) -> VASTMediaFile {
        VASTMediaFile(
            id: element.attribute("id"),
            delivery: element.attribute("delivery"),
            type: element.attribute("type"),
            width: context.integer(element, "width", at: location),
            height: context.integer(element, "height", at: location),
            bitrate: context.integer(element, "bitrate", at: location),
            minBitrate: context.integer(element, "minBitrate", at: location),
            maxBitrate: context.integer(element, "maxBitrate", at: location),
            codec: element.attribute("codec"),
            apiFramework: element.attribute("apiFramework"),
            fileSize: context.integer(element, "fileSize", at: location),
            mediaType: element.attribute("mediaType"),
            scalable: context.bool(element, "scalable", at: location),
            maintainAspectRatio: context.bool(element, "maintainAspectRatio", at: location),
            url: url
        )
    }
}
