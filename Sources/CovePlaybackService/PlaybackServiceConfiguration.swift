import CoveCore

/// What to look up (the seed's configuration dictionary, typed). An asset ID wins over a reference ID,
/// and a bumper ID over a bumper reference ID.
public struct PlaybackServiceConfiguration: Sendable, Hashable {
    public var assetID: String?
    public var assetReferenceID: String?
    /// A Playback Rights / EPA JWT. With it, requests go to the auth base URL as a bearer token and
    /// the policy key is not sent.
    public var authToken: String?
    public var bumperID: String?
    public var bumperReferenceID: String?

    public init(assetID: String? = nil, assetReferenceID: String? = nil, authToken: String? = nil, bumperID: String? = nil, bumperReferenceID: String? = nil) {
        self.assetID = assetID
        self.assetReferenceID = assetReferenceID
        self.authToken = authToken
        self.bumperID = bumperID
        self.bumperReferenceID = bumperReferenceID
    }

    /// The path segment that names the asset.
    var assetPathComponent: String? { Self.pathComponent(id: assetID, referenceID: assetReferenceID) }

    /// The path segment that names the bumper to look up, if any.
    var bumperPathComponent: String? { Self.pathComponent(id: bumperID, referenceID: bumperReferenceID) }

    /// A Playback API path segment: the ID, else `ref:` and the reference ID (nil when both are empty).
    static func pathComponent(id: String?, referenceID: String?) -> String? {
        if let id, !id.isEmpty { return id }
        if let referenceID, !referenceID.isEmpty { return "ref:" + referenceID }
        return nil
    }
}

/// Query parameters of a lookup. Known ones have their own fields; `extra` carries anything else
/// the app wants to send (and overrides a known one of the same name).
public struct PlaybackServiceQuery: Sendable, Hashable {
    /// Playlist page size (1–100).
    public var limit: Int?
    /// Index of the first playlist video of the page.
    public var offset: Int?
    /// SSAI ad configuration: makes the API return `vmap` URLs on sources.
    public var adConfigID: String?
    /// Delivery Rules configuration.
    public var configID: String?
    /// Live 2.0 playback token.
    public var livePlaybackToken: String?
    public var extra: [String: String]

    public init(
        limit: Int? = nil, offset: Int? = nil, adConfigID: String? = nil, configID: String? = nil, livePlaybackToken: String? = nil,
        extra: [String: String] = [:]
    ) {
        self.limit = limit
        self.offset = offset
        self.adConfigID = adConfigID
        self.configID = configID
        self.livePlaybackToken = livePlaybackToken
        self.extra = extra
    }

    /// Wire names, as the Playback API spells them.
    public enum Key {
        public static let limit = "limit"
        public static let offset = "offset"
        public static let adConfigID = "ad_config_id"
        public static let configID = "config_id"
        public static let livePlaybackToken = "livePlaybackToken"
    }

    /// Name/value pairs in a stable order (known keys first, then extras sorted by name).
    var items: [(String, String)] {
        var known: [(String, String)] = []
        if let limit { known.append((Key.limit, String(limit))) }
        if let offset { known.append((Key.offset, String(offset))) }
        if let adConfigID { known.append((Key.adConfigID, adConfigID)) }
        if let configID { known.append((Key.configID, configID)) }
        if let livePlaybackToken { known.append((Key.livePlaybackToken, livePlaybackToken)) }
        known.removeAll { extra[$0.0] != nil }
        return known + extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

// Printing, dumping or logging these values never shows a credential.

extension PlaybackServiceConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let fields: [(String, String?)] = [
            ("assetID", assetID), ("assetReferenceID", assetReferenceID), ("authToken", authToken.map { _ in Redaction.placeholder }),
            ("bumperID", bumperID), ("bumperReferenceID", bumperReferenceID),
        ]
        return "PlaybackServiceConfiguration(" + fields.compactMap { name, value in value.map { "\(name): \($0)" } }.joined(separator: ", ") + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "assetID": assetID as Any, "assetReferenceID": assetReferenceID as Any, "authToken": authToken.map { _ in Redaction.placeholder } as Any,
                "bumperID": bumperID as Any, "bumperReferenceID": bumperReferenceID as Any,
            ], displayStyle: .struct)
    }
}

extension PlaybackServiceQuery: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The query string as sent, with credential-like values (`livePlaybackToken`, …) redacted.
    public var description: String {
        "PlaybackServiceQuery(" + items.map { "\($0.0)=\(Redaction.isSensitive(queryKey: $0.0) ? Redaction.placeholder : $0.1)" }.joined(separator: "&") + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self, children: items.map { (label: Optional($0.0), value: (Redaction.isSensitive(queryKey: $0.0) ? Redaction.placeholder : $0.1) as Any) },
            displayStyle: .struct)
    }
}
