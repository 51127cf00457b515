/// `<NonLinearAds>`, kept minimally: SSAI streams rarely carry overlays, so the essentials are
/// read and each `<NonLinear>` is also kept whole as XML for a later layer that needs more.
public struct VASTNonLinearAds: Sendable, Hashable, Encodable {
    public let nonLinears: [VASTNonLinear]
    public let trackingEvents: [VASTTrackingEvent]

    public init(nonLinears: [VASTNonLinear] = [], trackingEvents: [VASTTrackingEvent] = []) {
        self.nonLinears = nonLinears
        self.trackingEvents = trackingEvents
    }
}

/// One `<NonLinear>` overlay.
public struct VASTNonLinear: Sendable, Hashable, Encodable {
    public let id: String?
    public let width: Int?
    public let height: Int?
    public let minSuggestedDuration: AdTime?
    public let clickThrough: String?
    public let clickTracking: [VASTClick]
    /// The whole element, for resources and attributes not read above.
    public let raw: RawXMLElement

    public init(
        id: String? = nil, width: Int? = nil, height: Int? = nil, minSuggestedDuration: AdTime? = nil,
        clickThrough: String? = nil, clickTracking: [VASTClick] = [], raw: RawXMLElement
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.minSuggestedDuration = minSuggestedDuration
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.raw = raw
    }
}
