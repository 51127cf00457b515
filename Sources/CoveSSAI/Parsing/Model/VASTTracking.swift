/// A VAST tracking event name. A struct rather than an enum because ad servers send names from
/// every VAST version and their own; unknown names are kept, not dropped, and compared as written
/// (VAST names are case-sensitive).
public struct VASTTrackingEventName: RawRepresentable, Sendable, Hashable, Encodable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let creativeView = Self(rawValue: "creativeView")
    public static let start = Self(rawValue: "start")
    public static let firstQuartile = Self(rawValue: "firstQuartile")
    public static let midpoint = Self(rawValue: "midpoint")
    public static let thirdQuartile = Self(rawValue: "thirdQuartile")
    public static let complete = Self(rawValue: "complete")
    public static let mute = Self(rawValue: "mute")
    public static let unmute = Self(rawValue: "unmute")
    public static let pause = Self(rawValue: "pause")
    public static let resume = Self(rawValue: "resume")
    public static let rewind = Self(rawValue: "rewind")
    public static let skip = Self(rawValue: "skip")
    /// Fired when playback passes the event's `offset`.
    public static let progress = Self(rawValue: "progress")
    public static let closeLinear = Self(rawValue: "closeLinear")
    public static let close = Self(rawValue: "close")
    public static let fullscreen = Self(rawValue: "fullscreen")
    public static let exitFullscreen = Self(rawValue: "exitFullscreen")
    public static let playerExpand = Self(rawValue: "playerExpand")
    public static let playerCollapse = Self(rawValue: "playerCollapse")
    public static let expand = Self(rawValue: "expand")
    public static let collapse = Self(rawValue: "collapse")
    public static let acceptInvitation = Self(rawValue: "acceptInvitation")
    public static let acceptInvitationLinear = Self(rawValue: "acceptInvitationLinear")
    public static let timeSpentViewing = Self(rawValue: "timeSpentViewing")
    public static let otherAdInteraction = Self(rawValue: "otherAdInteraction")
    public static let loaded = Self(rawValue: "loaded")
    public static let notUsed = Self(rawValue: "notUsed")
    public static let interactiveStart = Self(rawValue: "interactiveStart")
    public static let verificationNotExecuted = Self(rawValue: "verificationNotExecuted")
}

/// One `<Tracking event="…">` URL.
public struct VASTTrackingEvent: Sendable, Hashable, Encodable {
    public let event: VASTTrackingEventName
    /// Trimmed, CDATA unwrapped, macros such as `[CACHEBUSTING]` left in place for the beacon layer.
    public let url: String
    /// When to fire a `progress` event (legacy servers also put it on quartiles); nil when absent
    /// or unreadable.
    public let offset: VASTOffset?

    public init(event: VASTTrackingEventName, url: String, offset: VASTOffset? = nil) {
        self.event = event
        self.url = url
        self.offset = offset
    }
}

/// An `<Impression>` URL and its optional `id`.
public struct VASTImpression: Sendable, Hashable, Encodable {
    public let id: String?
    public let url: String

    public init(id: String? = nil, url: String) {
        self.id = id
        self.url = url
    }
}

/// A click URL (`ClickThrough`, `ClickTracking`, `CustomClick`, `CompanionClickTracking`) and its optional `id`.
public struct VASTClick: Sendable, Hashable, Encodable {
    public let id: String?
    public let url: String

    public init(id: String? = nil, url: String) {
        self.id = id
        self.url = url
    }
}

/// `<ViewableImpression>`: URLs to call once viewability is decided (Open Measurement).
public struct VASTViewableImpression: Sendable, Hashable, Encodable {
    public let id: String?
    public let viewable: [String]
    public let notViewable: [String]
    public let viewUndetermined: [String]

    public init(id: String? = nil, viewable: [String] = [], notViewable: [String] = [], viewUndetermined: [String] = []) {
        self.id = id
        self.viewable = viewable
        self.notViewable = notViewable
        self.viewUndetermined = viewUndetermined
    }
}
