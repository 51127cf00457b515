/// The text being written, line by line, with the pieces both playlist kinds share.
struct PlaylistText {
    private(set) var text = "#EXTM3U\n"

    mutating func line(_ line: String) {
        text += line
        text += "\n"
    }

    mutating func tag(_ name: String, _ attributes: AttributeWriter) {
        line("#" + name + ":" + attributes.text)
    }

    /// A URI line. One that would read back as a comment or a blank line is percent-encoded at
    /// the start, which leaves its meaning as a URI unchanged.
    mutating func uri(_ uri: String) {
        var value = Substring(AttributeWriter.singleLine(uri)).trimmingSpaces
        if value.isEmpty { value = "%20" }
        if value.first == "#" { value = "%23" + value.dropFirst() }
        line(String(value))
    }

    /// Unknown tags kept from the parse. A line that would not read back as a tag gets a `#EXT-`
    /// prefix rather than being dropped or turned into a URI.
    mutating func verbatim(_ lines: [String]) {
        for raw in lines {
            let value = Substring(AttributeWriter.singleLine(raw)).trimmingSpaces
            line(value.hasPrefix("#EXT") ? String(value) : "#EXT-" + value)
        }
    }

    mutating func version(_ version: Int?) {
        if let version { line("#EXT-X-VERSION:" + String(max(0, version))) }
    }

    mutating func independentSegmentsAndStart(_ independentSegments: Bool, _ start: StartPoint?) {
        if independentSegments { line("#EXT-X-INDEPENDENT-SEGMENTS") }
        guard let start else { return }
        var attributes = AttributeWriter()
        attributes.decimal("TIME-OFFSET", start.timeOffset)
        attributes.flag("PRECISE", start.isPrecise)
        tag("EXT-X-START", attributes)
    }

    static func attributes(of key: EncryptionKey) -> AttributeWriter {
        var attributes = AttributeWriter()
        attributes.unquoted("METHOD", key.method.rawValue)
        attributes.quoted("URI", key.uri)
        attributes.hexadecimal("IV", key.iv)
        attributes.quoted("KEYFORMAT", key.keyFormat)
        attributes.quoted("KEYFORMATVERSIONS", key.keyFormatVersions)
        attributes.others(key.otherAttributes)
        return attributes
    }
}
