/// One `EXT-X-MEDIA`: an alternative audio, video, subtitle or closed-caption rendition.
public struct Rendition: Sendable, Hashable {
    public let type: MediaType
    public let groupID: String
    public let name: String
    /// `LANGUAGE` as written (an RFC 5646 tag such as `en` or `pt-BR`).
    public let language: String?
    public let associatedLanguage: String?
    public let isDefault: Bool
    public let isAutoselect: Bool
    /// `FORCED=YES` (subtitles only): shown even when the user turned subtitles off.
    public let isForced: Bool
    /// `INSTREAM-ID` (`CC1`…`CC4`, `SERVICE1`…): required for closed captions, which have no URI.
    public let instreamID: String?
    /// `CHARACTERISTICS`, split on commas (`public.accessibility.describes-video`).
    public let characteristics: [String]
    /// `CHANNELS` as written (`2`, `6`, `16/JOC`); see `channelCount`.
    public let channels: String?
    /// Nil when the rendition is carried inside the variant's own stream.
    public let uri: String?
    public let otherAttributes: [HLSAttribute]

    public init(
        type: MediaType, groupID: String, name: String, language: String? = nil,
        associatedLanguage: String? = nil, isDefault: Bool = false, isAutoselect: Bool = false,
        isForced: Bool = false, instreamID: String? = nil, characteristics: [String] = [],
        channels: String? = nil, uri: String? = nil, otherAttributes: [HLSAttribute] = []
    ) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.language = language
        self.associatedLanguage = associatedLanguage
        self.isDefault = isDefault
        self.isAutoselect = isAutoselect
        self.isForced = isForced
        self.instreamID = instreamID
        self.characteristics = characteristics
        self.channels = channels
        self.uri = uri
        self.otherAttributes = otherAttributes
    }

    /// The audio channel count: the first `/`-separated parameter of `CHANNELS`.
    public var channelCount: Int? {
        guard let channels, let first = channels.split(separator: "/", omittingEmptySubsequences: false).first else { return nil }
        return Int(first)
    }
}

/// One `EXT-X-SESSION-DATA`: a piece of metadata for the whole presentation.
public struct SessionData: Sendable, Hashable {
    /// The RFC requires exactly one of `VALUE` or `URI`.
    public enum Content: Sendable, Hashable {
        case value(String)
        case uri(String)
    }

    /// `DATA-ID`, reverse-DNS (`com.example.title`).
    public let dataID: String
    public let content: Content
    public let language: String?
    public let otherAttributes: [HLSAttribute]

    public init(dataID: String, content: Content, language: String? = nil, otherAttributes: [HLSAttribute] = []) {
        self.dataID = dataID
        self.content = content
        self.language = language
        self.otherAttributes = otherAttributes
    }
}
