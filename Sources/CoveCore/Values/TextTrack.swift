import Foundation

/// A sidecar text track as the catalog describes it (`text_tracks[]` in the Playback API).
public struct TextTrack: Sendable, Hashable {
    /// The preferred URL (`src`).
    public let source: URL
    /// Alternative URLs for the same track (`sources[].src`), e.g. HTTP and HTTPS copies.
    public let alternativeSources: [URL]
    /// BCP-47 language (`srclang`).
    public let language: String?
    public let label: String?
    public let kind: Kind
    public let mimeType: String?
    public let isDefault: Bool
    public let id: String?
    /// Every field as sent, under its wire name.
    public let properties: JSONObject

    public init(
        source: URL, language: String? = nil, label: String? = nil, kind: Kind = .subtitles,
        mimeType: String? = "text/vtt", isDefault: Bool = false, id: String? = nil,
        alternativeSources: [URL] = [], properties: JSONObject = [:]
    ) {
        self.source = source
        self.alternativeSources = alternativeSources
        self.language = language
        self.label = label
        self.kind = kind
        self.mimeType = mimeType
        self.isDefault = isDefault
        self.id = id
        var raw = properties
        raw[PropertyKey.source] = raw[PropertyKey.source] ?? .string(source.absoluteString)
        if let language { raw[PropertyKey.language] = raw[PropertyKey.language] ?? .string(language) }
        if let label { raw[PropertyKey.label] = raw[PropertyKey.label] ?? .string(label) }
        raw[PropertyKey.kind] = raw[PropertyKey.kind] ?? .string(kind.rawValue)
        if let mimeType { raw[PropertyKey.mimeType] = raw[PropertyKey.mimeType] ?? .string(mimeType) }
        raw[PropertyKey.isDefault] = raw[PropertyKey.isDefault] ?? .bool(isDefault)
        if let id { raw[PropertyKey.id] = raw[PropertyKey.id] ?? .string(id) }
        self.properties = raw
    }

    /// Decodes one `text_tracks[]` entry; nil when it has no usable `src`.
    public init?(json: JSONObject) {
        let alternatives = (json[PropertyKey.sources]?.arrayValue ?? []).compactMap { $0["src"]?.stringValue.flatMap(URL.init(string:)) }
        guard let src = json[PropertyKey.source]?.stringValue.flatMap(URL.init(string:)) ?? alternatives.first else { return nil }
        self.source = src
        self.alternativeSources = alternatives
        self.language = json[PropertyKey.language]?.stringValue
        self.label = json[PropertyKey.label]?.stringValue
        self.kind = json[PropertyKey.kind]?.stringValue.map(Kind.init(rawValue:)) ?? .subtitles
        self.mimeType = json[PropertyKey.mimeType]?.stringValue
        self.isDefault = json[PropertyKey.isDefault]?.boolValue ?? false
        self.id = json[PropertyKey.id]?.stringValue
        self.properties = json
    }

    /// The kind of text (`kind`), open-ended as in HTML's track element.
    public struct Kind: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public static let subtitles: Kind = "subtitles"
        public static let captions: Kind = "captions"
        public static let descriptions: Kind = "descriptions"
        public static let chapters: Kind = "chapters"
        /// Brightcove delivers the thumbnail WebVTT track as a metadata track labelled "thumbnails".
        public static let metadata: Kind = "metadata"
        public var description: String { rawValue }
    }

    public enum PropertyKey {
        public static let source = "src"
        public static let sources = "sources"
        public static let language = "srclang"
        public static let label = "label"
        public static let kind = "kind"
        public static let mimeType = "mime_type"
        public static let isDefault = "default"
        public static let id = "id"
    }
}
