import CoveInput
import CoveXML

/// Why an MPD was refused: what was wrong, where, and what to do. Messages never quote URLs or
/// attribute values (they carry tokens); they name the element and attribute.
public struct DASHParseError: Error, Sendable, Hashable, CustomStringConvertible, InputError {
    public enum Kind: String, Sendable, Hashable {
        /// The bytes are not safe XML or not well-formed (`xml` says which check refused them).
        case invalidXML
        /// The root element is not `MPD`.
        case notMPD
        /// A required attribute is missing or a value cannot be read (a duration, a number, a date).
        case invalidValue
        /// The MPD describes something Cove does not play (no period, no playable representation).
        case unsupported
        /// A representation expands to more segments than `DASHParseLimits.maxSegments`, or the MPD
        /// has more periods than `maxPeriods`.
        case tooLarge
    }

    /// Kind, line, element (the failure's subject), detail and advice, shared with the other readers'
    /// errors (`CoveInput`); for `.invalidXML`, the XML reader's place and sentences.
    let failure: InputFailure<Kind>
    /// The XML reader's refusal, for `.invalidXML`.
    public let xml: XMLReadError?

    public var kind: Kind { failure.kind }
    /// The element involved, if any.
    public var element: String? { failure.subject }
    /// 1-based line of that element.
    public var line: Int? { failure.line }
    public var detail: String { failure.detail }
    public var advice: String { failure.advice }

    public init(_ kind: Kind, element: String? = nil, line: Int? = nil, detail: String, advice: String) {
        self.init(InputFailure(kind, line: line, subject: element, detail: detail, advice: advice))
    }

    @usableFromInline
    package init(_ failure: InputFailure<Kind>) {
        self.failure = failure
        self.xml = nil
    }

    init(_ xml: XMLReadError) {
        self.failure = xml.failure.map { _ in .invalidXML }
        self.xml = xml
    }

    public var description: String {
        let kindName = xml.map { "\(kind.rawValue): \($0.kind.rawValue)" } ?? kind.rawValue
        return failure.message("DASH manifest rejected", kind: kindName, subject: element.map { "<\($0)>" })
    }
}
