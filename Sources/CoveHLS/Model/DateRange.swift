/// `EXT-X-DATERANGE`: a span of wall-clock time with metadata, the carrier of SCTE-35 ad markers
/// and interstitials.
public struct DateRange: Sendable, Hashable {
    public let id: String
    /// `CLASS`.
    public let rangeClass: String?
    public let startDate: HLSDateTime
    public let endDate: HLSDateTime?
    /// `DURATION`, in seconds.
    public let duration: Double?
    /// `PLANNED-DURATION`, in seconds.
    public let plannedDuration: Double?
    /// `END-ON-NEXT=YES`: the range ends where the next one of the same class starts.
    public let endOnNext: Bool
    /// The `SCTE35-CMD`, `SCTE35-OUT` and `SCTE35-IN` splice-info sections, as bytes.
    public let scte35Command: [UInt8]?
    public let scte35Out: [UInt8]?
    public let scte35In: [UInt8]?
    /// `X-…` client attributes, in order.
    public let clientAttributes: [HLSAttribute]
    /// Other attributes Cove does not model (`CUE`, …), in order. The writer puts them after the client attributes.
    public let otherAttributes: [HLSAttribute]

    public init(
        id: String, rangeClass: String? = nil, startDate: HLSDateTime, endDate: HLSDateTime? = nil,
        duration: Double? = nil, plannedDuration: Double? = nil, endOnNext: Bool = false,
        scte35Command: [UInt8]? = nil, scte35Out: [UInt8]? = nil, scte35In: [UInt8]? = nil,
        clientAttributes: [HLSAttribute] = [], otherAttributes: [HLSAttribute] = []
    ) {
        self.id = id
        self.rangeClass = rangeClass
        self.startDate = startDate
        self.endDate = endDate
        self.duration = duration
        self.plannedDuration = plannedDuration
        self.endOnNext = endOnNext
        self.scte35Command = scte35Command
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.clientAttributes = clientAttributes
        self.otherAttributes = otherAttributes
    }

    /// The value of one client attribute (`X-ASSET-URI`), if present.
    public func clientAttribute(_ name: String) -> HLSAttributeValue? {
        clientAttributes.first { $0.name == name }?.value
    }
}
