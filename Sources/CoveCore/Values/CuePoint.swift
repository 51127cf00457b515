/// A point on a video's timeline that the controller reports when playback passes it
/// (ad slots, chapter marks, app-defined code points).
public struct CuePoint: Sendable, Hashable, Comparable {
    public let type: CuePointType
    /// Where it sits: a finite time, or `.before`/`.after` for pre- and post-roll points.
    public let position: MediaTime
    /// Raw fields (`id`, `name`, `metadata`, `force_stop`, …) under their wire names.
    public let properties: JSONObject

    public init(type: CuePointType, position: MediaTime, properties: JSONObject = [:]) {
        self.type = type
        self.position = position
        self.properties = properties
    }

    /// A cue point fired on first play, before any content.
    public static func before(type: CuePointType, properties: JSONObject = [:]) -> CuePoint {
        CuePoint(type: type, position: .before, properties: properties)
    }

    /// A cue point fired when the content ends, before the End event.
    public static func after(type: CuePointType, properties: JSONObject = [:]) -> CuePoint {
        CuePoint(type: type, position: .after, properties: properties)
    }

    public var name: String? { properties[PropertyKey.name]?.stringValue }
    public var id: String? { properties[PropertyKey.id]?.stringValue }
    public var metadata: String? { properties[PropertyKey.metadata]?.stringValue }

    public func hasPosition(_ time: MediaTime) -> Bool { position == time }

    public struct Mutable: Sendable, Hashable {
        public var type: CuePointType
        public var position: MediaTime
        public var properties: JSONObject
    }

    /// Returns a modified copy; `self` is unchanged.
    public func update(_ change: (inout Mutable) throws -> Void) rethrows -> CuePoint {
        var m = Mutable(type: type, position: position, properties: properties)
        try change(&m)
        return CuePoint(type: m.type, position: m.position, properties: m.properties)
    }

    /// Orders by position; ties break on type so sorting is deterministic.
    public static func < (lhs: CuePoint, rhs: CuePoint) -> Bool {
        lhs.position != rhs.position ? lhs.position < rhs.position : lhs.type.rawValue < rhs.type.rawValue
    }

    public enum PropertyKey {
        public static let id = "id"
        public static let name = "name"
        public static let metadata = "metadata"
        public static let forceStop = "force_stop"
        public static let type = "type"
        public static let time = "time"
    }
}

/// The kind of a cue point. Open-ended: catalogs and plugins may use their own strings.
public struct CuePointType: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// An ad slot (the seed's `TypeAdSlot`).
    public static let adSlot: CuePointType = "BCOVAdSlot"
    /// A companion ad (the seed's `TypeAdCompanion`).
    public static let adCompanion: CuePointType = "BCOVAdCompanion"
    /// An ad cue point as the Playback API types it.
    public static let ad: CuePointType = "AD"
    /// A code cue point as the Playback API types it.
    public static let code: CuePointType = "CODE"

    public var description: String { rawValue }
}
