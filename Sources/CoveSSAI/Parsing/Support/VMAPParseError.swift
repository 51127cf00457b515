import CoveInput
import CoveXML

/// Why a VMAP or VAST document was refused as a whole: what was wrong, where, and what to do.
///
/// Only problems that make the whole file untrustworthy throw (bytes that are not safe to hand
/// to an XML parser, XML that is not well-formed, a limit crossed, the wrong root). Problems
/// with one ad break or one ad become `VMAPParseWarning`s and the rest of the file is kept.
/// Messages never quote URLs or attribute values, because ad and stream URLs carry tokens.
public struct VMAPParseError: Error, Sendable, Hashable, CustomStringConvertible, InputError {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The XML reader's refusals, one for one with `XMLReadError.Kind` (same names, same meaning; the
        /// limits are `VMAPParseLimits`'): no bytes, too large, not UTF-8, a NUL byte, DOCTYPE or ENTITY,
        /// a processing instruction without data, an encoding other than UTF-8, XML not well-formed, too
        /// deep, too many elements or attributes, an attribute value or a text too long.
        case empty, tooLarge, invalidUTF8, nulByte, forbiddenDeclaration, unsupportedMarkup, unsupportedEncoding, malformedXML
        case tooDeep, tooManyElements, tooManyAttributes, attributeTooLong, textTooLong
        /// The root element is not `VMAP` (for `VMAP.parse`).
        case notVMAP
        /// The root element is not `VAST` (for `VAST.parse`).
        case notVAST
    }

    /// Kind, place, detail and advice, as the XML reader's errors hold them (`CoveInput`).
    let failure: InputFailure<Kind>

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
    /// What the ad server's owner (or the caller) can do about it.
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

    /// The XML reader's refusal, as the ad document's: same kind (by name), place and sentences.
    init(_ error: XMLReadError) {
        self.init(error.failure.map { Kind(rawValue: $0.rawValue) ?? .malformedXML })
    }

    public var description: String {
        failure.message("Ad document rejected", kind: kind.rawValue, subject: element.map { "<\($0)>" })
    }
}
