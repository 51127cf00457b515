/// `EXT-X-KEY`, `EXT-X-SESSION-KEY` and `EXT-X-MAP`: the tags that change what later segments need.
enum KeyAndMapTags {
    /// Reads a key tag. Returns nil for `METHOD=NONE`, which clears the keys in force.
    static func key(_ reader: TagReader, isSessionKey: Bool) throws(HLSParseError) -> EncryptionKey? {
        var attributes = try reader.attributes()
        let method = try attributes.requiredEnumerated("METHOD")
        if method == "NONE" {
            if isSessionKey {
                throw attributes.error(
                    .invalidAttribute, attribute: "METHOD", detail: "METHOD=NONE is not allowed in a session key.",
                    advice: "Remove the EXT-X-SESSION-KEY tag; session keys only announce keys that segments use."
                )
            }
            if let other = attributes.firstRemainingName {
                throw attributes.error(
                    .invalidAttribute, attribute: other, detail: "METHOD=NONE allows no other attributes, but \(other) is present.",
                    advice: "Remove \(other), or use a METHOD other than NONE."
                )
            }
            return nil
        }
        let uri = try attributes.requiredQuotedString("URI")
        let iv = try attributes.hexadecimal("IV", maxBytes: 16).map { bytes in
            bytes.count < 16 ? [UInt8](repeating: 0, count: 16 - bytes.count) + bytes : bytes
        }
        let keyFormat = try attributes.quotedString("KEYFORMAT")
        let versions = try attributes.quotedString("KEYFORMATVERSIONS")
        return EncryptionKey(
            method: EncryptionMethod(rawValue: method), uri: uri, iv: iv, keyFormat: keyFormat,
            keyFormatVersions: versions, otherAttributes: attributes.remaining
        )
    }

    /// A new key replaces the key of the same format in place (key rotation) and joins keys of
    /// other formats (several DRM systems at once).
    static func applying(_ key: EncryptionKey, to keys: [EncryptionKey]) -> [EncryptionKey] {
        var result = keys
        if let index = result.firstIndex(where: { $0.effectiveKeyFormat == key.effectiveKeyFormat }) {
            result[index] = key
        } else {
            result.append(key)
        }
        return result
    }

    static func map(_ reader: TagReader) throws(HLSParseError) -> MediaInitializationSection {
        var attributes = try reader.attributes()
        let uri = try attributes.requiredQuotedString("URI")
        var range: ByteRange?
        if let text = try attributes.quotedString("BYTERANGE") {
            switch Numbers.byteRange(text) {
            case .value(let parsed): range = ByteRange(length: parsed.length, offset: parsed.offset ?? 0)
            case .malformed:
                throw attributes.error(
                    .invalidAttribute, attribute: "BYTERANGE", detail: "BYTERANGE is not <length>[@<offset>].",
                    advice: "Write BYTERANGE=\"<length>@<offset>\" with decimal integers."
                )
            case .outOfRange:
                throw attributes.error(
                    .numberOutOfRange, attribute: "BYTERANGE", detail: "BYTERANGE is too large to represent.",
                    advice: "Check the length and offset; their sum must fit in 64 bits."
                )
            }
        }
        return MediaInitializationSection(uri: uri, byteRange: range, otherAttributes: attributes.remaining)
    }
}
