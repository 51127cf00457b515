/// Why a time value (`Duration`, `timeOffset`, `skipoffset`, tracking `offset`, a length in
/// seconds) could not be read. The parsers turn it into a warning for the break or ad concerned.
public struct AdTimeError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Nothing to read.
        case empty
        /// A minus sign: ad times are offsets into content and durations, never negative.
        case negative
        /// Not of the form the field takes (`HH:MM:SS(.mmm)`, `n%`, `#n`, `start`, `end`, seconds).
        case malformed
        /// Minutes or seconds of 60 or more, or a percentage above 100.
        case outOfRange
        /// Too large to hold as nanoseconds (about 292 years).
        case overflow
    }

    public let kind: Kind
    /// The offending value, shortened: time values carry no secrets.
    public let value: String

    public init(_ kind: Kind, value: some StringProtocol) {
        self.kind = kind
        self.value = value.count > 32 ? String(value.prefix(32)) + "…" : String(value)
    }

    public var description: String {
        switch kind {
        case .empty: "The time value is empty."
        case .negative: "The time value \"\(value)\" is negative; ad times must be zero or more."
        case .malformed: "The time value \"\(value)\" is not HH:MM:SS(.mmm), a percentage or another accepted form."
        case .outOfRange: "The time value \"\(value)\" has minutes or seconds of 60 or more, or a percentage above 100."
        case .overflow: "The time value \"\(value)\" is too large."
        }
    }
}
