/// An ordered list of videos with the playlist's own catalog fields.
public struct Playlist: Sendable, Hashable, RandomAccessCollection {
    public let videos: [Video]
    public let properties: JSONObject

    public init(videos: [Video], properties: JSONObject = [:]) {
        self.videos = videos
        self.properties = properties
    }

    public init(video: Video, properties: JSONObject = [:]) { self.init(videos: [video], properties: properties) }

    public var startIndex: Int { videos.startIndex }
    public var endIndex: Int { videos.endIndex }
    public subscript(position: Int) -> Video { videos[position] }

    /// Videos the catalog delivered.
    public var allPlayableVideos: [Video] { videos.filter { !$0.hasError } }
    /// Placeholders for videos the catalog could not deliver, each with its `VideoError`.
    public var allFailedVideos: [Video] { videos.filter(\.hasError) }

    public var id: String? { properties[PropertyKey.id]?.stringValue }
    public var name: String? { properties[PropertyKey.name]?.stringValue }
    public var referenceID: String? { properties[PropertyKey.referenceID]?.stringValue }
    public var type: String? { properties[PropertyKey.type]?.stringValue }

    public struct Mutable: Sendable, Hashable {
        public var videos: [Video]
        public var properties: JSONObject
    }

    /// Returns a modified copy; `self` is unchanged.
    public func update(_ change: (inout Mutable) throws -> Void) rethrows -> Playlist {
        var m = Mutable(videos: videos, properties: properties)
        try change(&m)
        return Playlist(videos: m.videos, properties: m.properties)
    }

    public enum PropertyKey {
        public static let accountID = "account_id"
        public static let description = "description"
        public static let id = "id"
        public static let name = "name"
        public static let referenceID = "reference_id"
        public static let type = "type"
    }
}
