import CoveInput

/// Why bytes were refused before or while being read as XML: what was wrong, where, and what to do.
/// Format parsers wrap it in their own error (`VMAPParseError`, the MPD's `StreamingError`), keeping
/// its kind, place and sentences. Messages never quote attribute values: URLs in them carry tokens.
public struct XMLReadError: Error, Sendable, Hashable, CustomStringConvertible, InputError {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No bytes, or nothing but a byte-order mark and whitespace.
        case empty
        /// The input is larger than `XMLLimits.maxBytes`.
        case tooLarge
        /// The bytes are not valid UTF-8; `byteOffset` points at the first bad byte.
        case invalidUTF8
        /// A NUL byte, which XML forbids; `byteOffset` points at it.
        case nulByte
        /// `<!DOCTYPE` or `<!ENTITY`: refused outright, because they are how entity-expansion
        /// ("billion laughs") and external-entity attacks work.
        case forbiddenDeclaration
        /// Valid XML the system parser cannot take safely: a processing instruction without data
        /// (`<?name?>`) crashes Foundation's `XMLParser` on Linux.
        case unsupportedMarkup
        /// The XML declaration names an encoding other than UTF-8 (or its ASCII subset).
        case unsupportedEncoding
        /// The XML is not well-formed (truncated, mismatched tags, bad character references…).
        case malformedXML
        /// Elements nest deeper than `XMLLimits.maxDepth`.
        case tooDeep
        /// More elements than `XMLLimits.maxElements`.
        case tooManyElements
        /// An element has more attributes than `XMLLimits.maxAttributesPerElement`.
        case tooManyAttributes
        /// An attribute value is longer than `XMLLimits.maxAttributeLength`.
        case attributeTooLong
        /// An element's text is longer than `XMLLimits.maxTextLength`.
        case textTooLong
    }

    /// Kind, line, column, byte offset, element (the failure's subject), detail and advice, shared with
    /// the other readers' errors (`CoveInput`).
    package let failure: InputFailure<Kind>

    public var kind: Kind { failure.kind }
    /// 1-based line of the problem, when the XML parser knows it.
    public var line: Int? { failure.line }
    /// 1-based column of the problem, when the XML parser knows it.
    public var column: Int? { failure.column }
    /// Byte offset in the input (a BOM counts), for byte-level problems.
    public var byteOffset: Int? { failure.byteOffset }
    /// The element involved (its qualified name), if any.
    public var element: String? { failure.subject }
    /// What was wrong, in one sentence.
    public var detail: String { failure.detail }
    /// What the server's owner (or the caller) can do about it.
    public var advice: String { failure.advice }

    public init(
        _ kind: Kind, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil, element: String? = nil,
        detail: String, advice: String
    ) {
        failure = InputFailure(kind, line: line, column: column, byteOffset: byteOffset, subject: element, detail: detail, advice: advice)
    }

    @usableFromInline
    package init(_ failure: InputFailure<Kind>) {
        self.failure = failure
    }

    /// Where it happened, for messages: "line 3, column 7, <Period>".
    public var place: String { failure.place(subject: element.map { "<\($0)>" }) }

    public var description: String {
        failure.message("XML document rejected", kind: kind.rawValue, subject: element.map { "<\($0)>" })
    }
}

/// The byte guard, then the XML parser into a tree: the two steps every XML document Cove reads goes
/// through before any interpretation.
public enum GuardedXML {
    /// Which XML reader builds the tree.
    public enum Reader: Sendable {
        /// Foundation's `XMLParser` (libxml2): the reader VMAP and VAST have always used.
        case foundation
        /// `XMLScanner`, Cove's own: several times faster on documents of many small elements (MPDs).
        case scanner
    }

    /// `packingLeavesOf` applies to `.scanner` (see `XMLScanner.parse(_:limits:packingLeavesOf:)`).
    public static func load(
        _ bytes: [UInt8], limits: XMLLimits, reader: Reader = .foundation, packingLeavesOf packing: Set<String> = []
    ) throws(XMLReadError) -> XMLTreeBuilder.Result {
        let body = try XMLInputGuard.check(bytes, limits: limits)
        switch reader {
        case .foundation: return try XMLTreeBuilder.parse(body, limits: limits)
        case .scanner: return try XMLScanner.parse(body, limits: limits, packingLeavesOf: packing)
        }
    }
}
