import CoveXML

/// Why an MPD was refused: what was wrong, where, and what to do. Messages never quote URLs or
/// attribute values (they carry tokens); they name the element and attribute.
public struct DASHParseError: Error, Sendable, Hashable, CustomStringConvertible {
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

    public let kind: Kind
    /// The XML reader's refusal, for `.invalidXML`.
    public let xml: XMLReadError?
    /// The element involved, if any.
    public let element: String?
    /// 1-based line of that element.
    public let line: Int?
    public let detail: String
    public let advice: String

    public init(_ kind: Kind, element: String? = nil, line: Int? = nil, detail: String, advice: String) {
        self.kind = kind
        self.xml = nil
        self.element = element
        self.line = line
        self.detail = detail
        self.advice = advice
    }

    init(_ xml: XMLReadError) {
        self.kind = .invalidXML
        self.xml = xml
        self.element = xml.element
        self.line = xml.line
        self.detail = xml.detail
        self.advice = xml.advice
    }

    public var description: String {
        var place: [String] = []
        if let xml, !xml.place.isEmpty {
            place.append(xml.place)
        } else {
            if let line { place.append("line \(line)") }
            if let element { place.append("<\(element)>") }
        }
        let at = place.isEmpty ? "" : ", " + place.joined(separator: ", ")
        let kindName = xml.map { "\(kind.rawValue): \($0.kind.rawValue)" } ?? kind.rawValue
        return "DASH manifest rejected (\(kindName)\(at)): \(detail) \(advice)"
    }
}
