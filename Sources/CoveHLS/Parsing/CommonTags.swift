/// The tags both playlist kinds share: `EXT-X-VERSION`, `EXT-X-INDEPENDENT-SEGMENTS`, `EXT-X-START`.
struct CommonTagState {
    var version: (value: Int, line: Int)?
    var hasIndependentSegments = false
    var start: (value: StartPoint, line: Int)?

    /// Returns false when the tag is not one of the common ones.
    mutating func handle(_ reader: TagReader) throws(HLSParseError) -> Bool {
        switch reader.name {
        case "EXTM3U":
            throw reader.error(
                .duplicateTag, "The #EXTM3U header appears again.", advice: "Keep #EXTM3U only on the first line; two playlists may have been concatenated.")
        case "EXT-X-VERSION":
            version = try reader.once(version) { () throws(HLSParseError) in try reader.integerValue() }
        case "EXT-X-INDEPENDENT-SEGMENTS":
            try reader.requireNoValue()
            hasIndependentSegments = true
        case "EXT-X-START":
            start = try reader.once(start) { () throws(HLSParseError) in
                var attributes = try reader.attributes()
                let offset = try attributes.requiredFloat("TIME-OFFSET", signed: true)
                let precise = try attributes.yesNo("PRECISE") ?? false
                try Self.refuseOthers(attributes)
                return StartPoint(timeOffset: offset, isPrecise: precise)
            }
        default:
            return false
        }
        return true
    }

    /// `EXT-X-START` has no extension point, so an unknown attribute there is most likely a typo.
    static func refuseOthers(_ attributes: AttributeList) throws(HLSParseError) {
        guard let name = attributes.firstRemainingName else { return }
        throw attributes.error(
            .invalidAttribute, attribute: name, detail: "\(name) is not an attribute of this tag.",
            advice: "Remove \(name) or check its spelling."
        )
    }
}
