import CoveXML

/// Why a VMAP or VAST document was refused as a whole: what was wrong, where, and what to do.
///
/// Only problems that make the whole file untrustworthy throw (bytes that are not safe to hand
/// to an XML parser, XML that is not well-formed, a limit crossed, the wrong root). Problems
/// with one ad break or one ad become `VMAPParseWarning`s and the rest of the file is kept.
/// Messages never quote URLs or attribute values, because ad and stream URLs carry tokens.
public struct VMAPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No bytes, or nothing but a byte-order mark and whitespace.
        case empty
        /// The input is larger than `VMAPParseLimits.maxBytes`.
        case tooLarge
        /// The bytes are not valid UTF-8; `byteOffset` points at the first bad byte.
        case invalidUTF8
        /// A NUL byte, which XML forbids; `byteOffset` points at it.
        case nulByte
        /// `<!DOCTYPE` or `<!ENTITY`: document type declarations are refused outright, because
        /// they are how entity-expansion ("billion laughs") and external-entity attacks work.
        case forbiddenDeclaration
        /// Markup that is valid XML but that the system XML parser cannot take safely: a
        /// processing instruction without data (`<?name?>`) crashes Foundation's `XMLParser` on Linux.
        case unsupportedMarkup
        /// The XML declaration names an encoding other than UTF-8 (or its ASCII subset).
        case unsupportedEncoding
        /// The XML is not well-formed (truncated, mismatched tags, bad character references…).
        case malformedXML
        /// Elements nest deeper than `VMAPParseLimits.maxDepth`.
        case tooDeep
        /// More elements than `VMAPParseLimits.maxElements`.
        case tooManyElements
        /// An element has more attributes than `VMAPParseLimits.maxAttributesPerElement`.
        case tooManyAttributes
        /// An attribute value is longer than `VMAPParseLimits.maxAttributeLength`.
        case attributeTooLong
        /// An element's text is longer than `VMAPParseLimits.maxTextLength`.
        case textTooLong
        /// The root element is not `VMAP` (for `VMAP.parse`).
        case notVMAP
        /// The root element is not `VAST` (for `VAST.parse`).
        case notVAST
    }

    public let kind: Kind
    /// 1-based line of the problem, when the XML parser knows it.
    public let line: Int?
    /// 1-based column of the problem, when the XML parser knows it.
    public let column: Int?
    /// Byte offset in the input (a BOM counts), for byte-level problems.
    public let byteOffset: Int?
    /// The element involved (its qualified name), if any.
    public let element: String?
    /// What was wrong, in one sentence.
    public let detail: String
    /// What the ad server's owner (or the caller) can do about it.
    public let advice: String

    public init(
        _ kind: Kind, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil, element: String? = nil,
        detail: String, advice: String
    ) {
        self.kind = kind
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.element = element
        self.detail = detail
        self.advice = advice
    }

    /// The XML reader's refusal, as the ad document's: same kind, place and sentences.
    init(_ error: XMLReadError) {
        // Every XMLReadError kind has a VMAPParseError kind of the same name.
        let kind = Kind(rawValue: error.kind.rawValue) ?? .malformedXML
        self.init(
            kind, line: error.line, column: error.column, byteOffset: error.byteOffset, element: error.element, detail: error.detail, advice: error.advice)
    }

    public var description: String {
        var place: [String] = []
        if let line { place.append(column.map { "line \(line), column \($0)" } ?? "line \(line)") }
        if let byteOffset { place.append("byte \(byteOffset)") }
        if let element { place.append("<\(element)>") }
        let at = place.isEmpty ? "" : ", " + place.joined(separator: ", ")
        return "Ad document rejected (\(kind.rawValue)\(at)): \(detail) \(advice)"
    }
}
