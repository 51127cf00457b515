/// One `EXT-X-KEY` (or `EXT-X-SESSION-KEY`) in force. `METHOD=NONE` is not represented as a key:
/// it means "no keys", so a segment's `keys` is simply empty.
public struct EncryptionKey: Sendable, Hashable {
    public let method: EncryptionMethod
    /// The key's URI as written (often `skd://…` or a license-server path); resolve with `HLSURI.resolve`.
    public let uri: String
    /// The 16-byte initialisation vector, or nil when the media sequence number is to be used.
    /// Shorter hex values in the playlist are zero-padded on the left to 16 bytes.
    public let iv: [UInt8]?
    /// `KEYFORMAT` as written; nil means the RFC's default, `identity`.
    public let keyFormat: String?
    /// `KEYFORMATVERSIONS` as written (`1/2/5`); see `keyFormatVersionList`.
    public let keyFormatVersions: String?
    /// Attributes Cove does not model, in order.
    public let otherAttributes: [HLSAttribute]

    public init(
        method: EncryptionMethod, uri: String, iv: [UInt8]? = nil, keyFormat: String? = nil,
        keyFormatVersions: String? = nil, otherAttributes: [HLSAttribute] = []
    ) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.otherAttributes = otherAttributes
    }

    /// The key format, with the RFC default filled in: two keys with the same effective format
    /// replace each other, keys with different formats apply side by side (multi-DRM).
    public var effectiveKeyFormat: String { keyFormat ?? "identity" }

    /// `KEYFORMATVERSIONS` as numbers; values that are not integers are left out.
    public var keyFormatVersionList: [Int] {
        (keyFormatVersions ?? "").split(separator: "/").compactMap { Int($0) }
    }
}
