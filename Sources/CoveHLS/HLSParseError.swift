import CoveInput

/// Why a playlist was refused: what was wrong, where, and what to do about it.
///
/// The kind is a payload-free enum so callers and tests can switch on it; the details that
/// differ per occurrence (line, tag, attribute, byte offset) are separate fields. Messages quote
/// at most a short, truncated piece of the input and never a URI, because URIs often carry tokens.
public struct HLSParseError: Error, Sendable, Hashable, CustomStringConvertible, InputError {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The data is empty or does not start with `#EXTM3U`.
        case notAPlaylist
        /// The bytes are not valid UTF-8; `byteOffset` points at the first bad byte.
        case invalidUTF8
        /// A NUL, a lone carriage return or another control character sits inside a line.
        case invalidCharacter
        /// The data is larger than `HLSParseLimits.maxBytes`.
        case tooLarge
        /// One line is longer than `HLSParseLimits.maxLineLength`.
        case lineTooLong
        /// The data has more lines than `HLSParseLimits.maxLines`.
        case tooManyLines
        /// More segments, variants, renditions or date ranges than the limits allow.
        case tooManyEntries
        /// One tag carries more attributes than `HLSParseLimits.maxAttributesPerTag`.
        case tooManyAttributes
        /// An attribute list does not follow `NAME=value,NAME=value`.
        case malformedAttributeList
        /// A quoted attribute value has no closing quote.
        case unterminatedQuotedString
        /// An attribute has no `=` or nothing after it.
        case attributeWithoutValue
        /// The same attribute appears twice in one tag.
        case duplicateAttribute
        /// A tag lacks an attribute the RFC requires.
        case missingAttribute
        /// An attribute value has the wrong shape or is not allowed here.
        case invalidAttribute
        /// A number does not fit (integer overflow, or a float too large to represent).
        case numberOutOfRange
        /// A tag's value (the part after `:`) is malformed, or a value is given to a tag that takes none.
        case invalidTagValue
        /// A tag that may appear once appears twice.
        case duplicateTag
        /// A tag appears where the RFC does not allow it (for example after the first segment).
        case misplacedTag
        /// `EXT-X-STREAM-INF` or `EXTINF` is not followed by its URI line.
        case missingURI
        /// A URI line follows nothing that could own it.
        case unexpectedURI
        /// Master-playlist and media-playlist tags appear in the same file.
        case mixedPlaylistKinds
        /// A media playlist has no `EXT-X-TARGETDURATION`.
        case missingTargetDuration
        /// A master playlist has no `EXT-X-STREAM-INF`.
        case noVariants
        /// A byte range cannot be resolved (no offset and no previous sub-range of the same resource).
        case invalidByteRange
    }

    /// Kind, line, byte offset, tag (the failure's subject), detail and advice, shared with the other
    /// readers' errors (`CoveInput`).
    let failure: InputFailure<Kind>
    /// The attribute involved, if any.
    public let attribute: String?

    public var kind: Kind { failure.kind }
    /// 1-based line number, or nil when the problem concerns the file as a whole.
    public var line: Int? { failure.line }
    /// The byte offset in the input (counting a BOM if present), for UTF-8 and character errors.
    public var byteOffset: Int? { failure.byteOffset }
    /// The tag involved, without the leading `#` (for example `EXT-X-STREAM-INF`).
    public var tag: String? { failure.subject }
    /// What was wrong, in one sentence.
    public var detail: String { failure.detail }
    /// What the author of the playlist (or the caller) can do about it.
    public var advice: String { failure.advice }

    public init(
        _ kind: Kind, line: Int?, byteOffset: Int? = nil, tag: String? = nil, attribute: String? = nil,
        detail: String, advice: String
    ) {
        self.init(InputFailure(kind, line: line, byteOffset: byteOffset, subject: tag, detail: detail, advice: advice), attribute: attribute)
    }

    init(_ failure: InputFailure<Kind>, attribute: String?) {
        self.failure = failure
        self.attribute = attribute
    }

    @usableFromInline
    package init(_ failure: InputFailure<Kind>) {
        self.init(failure, attribute: nil)
    }

    public var description: String {
        let subject = [tag, attribute].compactMap { $0 }.joined(separator: " ")
        return failure.message("HLS playlist rejected", kind: kind.rawValue, subject: subject)
    }
}

extension HLSParseError {
    /// Quotes a piece of input for a message: short, on one line, and marked when cut.
    static func snippet(_ text: some StringProtocol, limit: Int = 40) -> String {
        var out = ""
        var count = 0
        for character in text {
            if count == limit { return "\"\(out)…\"" }
            out.append(character.isNewline ? " " : character)
            count += 1
        }
        return "\"\(out)\""
    }
}
