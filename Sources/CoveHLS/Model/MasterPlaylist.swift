/// A master (multivariant) playlist: the variants of one presentation and their renditions.
public struct MasterPlaylist: Sendable, Hashable {
    public let version: Int?
    public let hasIndependentSegments: Bool
    public let start: StartPoint?
    /// Variants in the order written. The order matters: players start on the first one listed.
    public let variants: [VariantStream]
    public let iFrameVariants: [IFrameVariantStream]
    public let renditions: [Rendition]
    public let sessionData: [SessionData]
    public let sessionKeys: [EncryptionKey]
    /// Unrecognised tags after the last variant, kept verbatim.
    public let unknownTags: [String]

    public init(
        version: Int? = nil, hasIndependentSegments: Bool = false, start: StartPoint? = nil,
        variants: [VariantStream], iFrameVariants: [IFrameVariantStream] = [], renditions: [Rendition] = [],
        sessionData: [SessionData] = [], sessionKeys: [EncryptionKey] = [], unknownTags: [String] = []
    ) {
        self.version = version
        self.hasIndependentSegments = hasIndependentSegments
        self.start = start
        self.variants = variants
        self.iFrameVariants = iFrameVariants
        self.renditions = renditions
        self.sessionData = sessionData
        self.sessionKeys = sessionKeys
        self.unknownTags = unknownTags
    }

    /// The renditions of one group (`AUDIO="aac"`), in playlist order.
    public func renditions(ofType type: MediaType, inGroup groupID: String) -> [Rendition] {
        renditions.filter { $0.type == type && $0.groupID == groupID }
    }
}
