/// An ordered, immutable set of cue points with the seed's range queries.
///
/// Points are kept sorted by position (stable for equal positions), so every query is a filtered
/// copy in timeline order.
public struct CuePointCollection: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    public let array: [CuePoint]

    public init(_ cuePoints: some Sequence<CuePoint>) {
        self.array = cuePoints.enumerated().sorted { a, b in
            a.element.position != b.element.position ? a.element.position < b.element.position : a.offset < b.offset
        }.map(\.element)
    }

    public init(arrayLiteral elements: CuePoint...) { self.init(elements) }
    public init(_ cuePoint: CuePoint) { self.init([cuePoint]) }

    public static let empty = CuePointCollection([CuePoint]())

    public var startIndex: Int { array.startIndex }
    public var endIndex: Int { array.endIndex }
    public subscript(position: Int) -> CuePoint { array[position] }

    private func filtered(_ keep: (CuePoint) -> Bool) -> CuePointCollection {
        CuePointCollection(sorted: array.filter(keep))
    }

    private init(sorted: [CuePoint]) { self.array = sorted }

    /// Points strictly after `time`.
    public func after(_ time: MediaTime) -> CuePointCollection { filtered { $0.position > time } }
    /// Points strictly before `time`.
    public func before(_ time: MediaTime) -> CuePointCollection { filtered { $0.position < time } }
    /// Points exactly at `time`.
    public func at(_ time: MediaTime) -> CuePointCollection { filtered { $0.position == time } }
    public func atOrAfter(_ time: MediaTime) -> CuePointCollection { filtered { $0.position >= time } }
    public func atOrBefore(_ time: MediaTime) -> CuePointCollection { filtered { $0.position <= time } }

    /// Points in `(start, end)`.
    public func after(_ start: MediaTime, before end: MediaTime) -> CuePointCollection {
        filtered { $0.position > start && $0.position < end }
    }
    /// Points in `(start, end]`: what playback passed going from `start` to `end`.
    public func after(_ start: MediaTime, atOrBefore end: MediaTime) -> CuePointCollection {
        filtered { $0.position > start && $0.position <= end }
    }
    /// Points in `[start, end)`.
    public func atOrAfter(_ start: MediaTime, before end: MediaTime) -> CuePointCollection {
        filtered { $0.position >= start && $0.position < end }
    }
    /// Points in `[start, end]`.
    public func atOrAfter(_ start: MediaTime, atOrBefore end: MediaTime) -> CuePointCollection {
        filtered { $0.position >= start && $0.position <= end }
    }

    /// Points of the given type.
    public func ofType(_ type: CuePointType) -> CuePointCollection { filtered { $0.type == type } }

    /// A copy with `cuePoint` added in timeline order.
    public func adding(_ cuePoint: CuePoint) -> CuePointCollection { CuePointCollection(array + [cuePoint]) }
}
