import Foundation

/// A key system, by its EME name (the names the Playback API's `key_systems` uses): `org.w3.clearkey`,
/// `com.widevine.alpha`, `com.microsoft.playready`, `com.apple.fps.1_0`.
///
/// Manifests name key systems by their DRM system ID instead (DASH `ContentProtection@schemeIdUri`
/// `urn:uuid:…`, a `pssh` box's SystemID, an HLS `KEYFORMAT`): `init(systemID:)` maps the known ones.
public struct KeySystem: RawRepresentable, Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let clearKey: KeySystem = "org.w3.clearkey"
    public static let widevine: KeySystem = "com.widevine.alpha"
    public static let playReady: KeySystem = "com.microsoft.playready"
    public static let fairPlay: KeySystem = "com.apple.fps.1_0"

    /// The DRM system IDs (lower-case UUID strings) of the known key systems. ClearKey has two: the
    /// W3C "common" system ID its `pssh` boxes carry, and the DASH-IF one its `ContentProtection` uses.
    public static let systemIDs: [String: KeySystem] = [
        "1077efec-c0b2-4d02-ace3-3c1e52e2fb4b": .clearKey,
        "e2719d58-a985-b3c9-781a-b030af78d30e": .clearKey,
        "edef8ba9-79d6-4ace-a3c8-27dcd51d21ed": .widevine,
        "9a04f079-9840-4286-ab92-e65be0885f95": .playReady,
        "94ce86fb-07ff-4f43-adb8-93d2fa968ca2": .fairPlay,
    ]

    /// The key system a system ID (`urn:uuid:…`, a bare UUID, any case) names; nil for one Cove does not know.
    public init?(systemID: String) {
        var id = systemID.lowercased()
        if id.hasPrefix("urn:uuid:") { id.removeFirst("urn:uuid:".count) }
        guard let known = Self.systemIDs[id] else { return nil }
        self = known
    }

    /// The key system an HLS `KEYFORMAT` names: a system ID URN, or a key system's own name.
    public init?(hlsKeyFormat: String) {
        if let known = KeySystem(systemID: hlsKeyFormat) {
            self = known
            return
        }
        switch hlsKeyFormat.lowercased() {
        case "org.w3.clearkey": self = .clearKey
        case "com.apple.streamingkeydelivery": self = .fairPlay
        case "com.microsoft.playready": self = .playReady
        case "com.widevine": self = .widevine
        default: return nil
        }
    }

    public var description: String { rawValue }
    public static func < (lhs: KeySystem, rhs: KeySystem) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A 16-byte key ID (KID). Prints as 32 lower-case hex digits; it is not a secret.
public struct KeyID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// nil unless `bytes` is 16 bytes.
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// From 32 hex digits, with or without the dashes of a UUID (`cenc:default_KID` writes them).
    public init?(hex: String) {
        let digits = hex.filter { $0 != "-" }
        guard let bytes = HexBytes.decode(digits), bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// From the base64url (no padding) form W3C ClearKey's JSON uses.
    public init?(base64URL: String) {
        guard let bytes = HexBytes.base64URLDecode(base64URL), bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    public var hex: String { HexBytes.encode(bytes) }
    public var base64URL: String { HexBytes.base64URLEncode(bytes) }
    public var description: String { hex }
    public static func < (lhs: KeyID, rhs: KeyID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}

/// Hex and base64url for key IDs and keys.
public enum HexBytes {
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func base64URLEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func base64URLDecode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
