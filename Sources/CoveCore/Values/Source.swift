import Foundation

/// One way to play a video: a URL and how it is delivered (HLS, MP4, DASH, …), plus its raw
/// Playback-API fields (`container`, `codecs`, `avg_bitrate`, `key_systems`, `vmap`, …).
public struct Source: Sendable, Hashable {
    public let url: URL
    /// The delivery type as the catalog named it (a MIME type such as `application/x-mpegURL`), if any.
    public let deliveryMethod: DeliveryType?
    /// Every other field of the source, under its wire name.
    public let properties: JSONObject

    public init(url: URL, deliveryMethod: DeliveryType? = nil, properties: JSONObject = [:]) {
        self.url = url
        self.deliveryMethod = deliveryMethod
        self.properties = properties
    }

    /// The mutable copy handed to `update(_:)`.
    public struct Mutable: Sendable, Hashable {
        public var url: URL
        public var deliveryMethod: DeliveryType?
        public var properties: JSONObject
    }

    /// Returns a modified copy; `self` is unchanged (the seed's `update {}`).
    public func update(_ change: (inout Mutable) throws -> Void) rethrows -> Source {
        var m = Mutable(url: url, deliveryMethod: deliveryMethod, properties: properties)
        try change(&m)
        return Source(url: m.url, deliveryMethod: m.deliveryMethod, properties: m.properties)
    }

    /// The delivery type, from the declared type, the `container` field, or the URL's extension.
    public var resolvedDeliveryType: DeliveryType? {
        if let declared = deliveryMethod { return declared.normalized }
        switch properties[PropertyKey.container]?.stringValue?.uppercased() {
        case "MP4": return .mp4
        case "M2TS": return .hls
        default: break
        }
        return DeliveryType.inferred(from: url)
    }

    public var isHLS: Bool { resolvedDeliveryType?.isHLS ?? false }
    public var isMP4: Bool { resolvedDeliveryType == .mp4 }
    public var isDASH: Bool { resolvedDeliveryType == .dash }

    /// The URL scheme, lower-cased (`http`, `https`, `file`, …).
    public var scheme: String? { url.scheme?.lowercased() }

    /// The SSAI VMAP URL the Playback API adds when `ad_config_id` is sent.
    public var vmapURL: URL? { properties[PropertyKey.vmap]?.stringValue.flatMap(URL.init(string:)) }
    public var container: String? { properties[PropertyKey.container]?.stringValue }
    /// Codecs as declared by the catalog: `codecs` (`"avc1,mp4a"`) or the legacy single `codec`.
    public var codecs: [String] {
        if let list = properties[PropertyKey.codecs]?.stringValue {
            return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return properties[PropertyKey.codec]?.stringValue.map { [$0] } ?? []
    }
    public var averageBitrate: Int64? { properties[PropertyKey.averageBitrate]?.int64Value }
    public var width: Int64? { properties[PropertyKey.width]?.int64Value }
    public var height: Int64? { properties[PropertyKey.height]?.int64Value }
    public var size: Int64? { properties[PropertyKey.size]?.int64Value }
    /// DRM key systems keyed by system id (`com.widevine.alpha`, `com.apple.fps.1_0`, …).
    public var keySystems: JSONObject { properties[PropertyKey.keySystems]?.objectValue ?? [:] }

    /// Raw Playback-API field names used in `properties`.
    public enum PropertyKey {
        public static let type = "type"
        public static let container = "container"
        public static let codec = "codec"
        public static let codecs = "codecs"
        public static let averageBitrate = "avg_bitrate"
        public static let width = "width"
        public static let height = "height"
        public static let size = "size"
        public static let duration = "duration"
        public static let keySystems = "key_systems"
        public static let extXVersion = "ext_x_version"
        public static let profiles = "profiles"
        public static let vmap = "vmap"
        public static let authToken = "auth_token"
        public static let assetID = "asset_id"
    }

    /// URL schemes the source selection policies compare against.
    public enum URLScheme {
        public static let http = "http"
        public static let https = "https"
    }
}

/// A delivery type: the MIME-style string a catalog uses to say how a source is delivered.
public struct DeliveryType: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// HLS, as the Playback API names it.
    public static let hls: DeliveryType = "application/x-mpegURL"
    /// HLS under Apple's registered MIME type; treated exactly like `.hls`.
    public static let appleHLS: DeliveryType = "application/vnd.apple.mpegurl"
    public static let mp4: DeliveryType = "video/mp4"
    public static let dash: DeliveryType = "application/dash+xml"
    /// Brightcove Once (legacy SSAI) HLS.
    public static let once: DeliveryType = "application/x-mpegURL.once"
    /// Brightcove Bolt SSAI HLS.
    public static let boltSSAI: DeliveryType = "application/x-mpegURL.boltSSAI"

    /// HLS in any of its spellings and SSAI flavours.
    public var isHLS: Bool {
        let lower = rawValue.lowercased()
        return lower == "application/x-mpegurl" || lower == "application/vnd.apple.mpegurl"
            || lower.hasPrefix("application/x-mpegurl.") || lower == "audio/mpegurl" || lower == "hls"
    }

    /// Canonical spelling: every HLS MIME type becomes `.hls` unless it is an SSAI flavour.
    var normalized: DeliveryType {
        let lower = rawValue.lowercased()
        if lower == "application/x-mpegurl" || lower == "application/vnd.apple.mpegurl" || lower == "audio/mpegurl" || lower == "hls" { return .hls }
        if lower == "video/mp4" || lower == "mp4" { return .mp4 }
        if lower == "application/dash+xml" { return .dash }
        return self
    }

    /// Guesses the delivery type from a URL's path extension.
    public static func inferred(from url: URL) -> DeliveryType? {
        switch url.pathExtension.lowercased() {
        case "m3u8": return .hls
        case "mp4", "m4v", "mov", "m4a": return .mp4
        case "mpd": return .dash
        default: return nil
        }
    }

    public var description: String { rawValue }
}
