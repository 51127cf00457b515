import CoveInput

/// Bounds on what the guarded XML reader accepts, so a hostile or broken server cannot make it use
/// unbounded memory, time or stack. Every limit is checked while reading, before the work it guards;
/// going over one aborts the parse with a typed `XMLReadError`. Each format's parser (VMAP/VAST,
/// the DASH MPD) sets its own defaults and maps its own limits here.
public struct XMLLimits: Sendable, Hashable {
    /// Largest accepted input, in bytes.
    public var maxBytes: Int
    /// Deepest element nesting, the root counting as 1; values above `hardDepthCeiling` act as it,
    /// because document trees are walked recursively.
    public var maxDepth: Int
    /// Most elements in one document.
    public var maxElements: Int
    /// Most attributes on one element, namespace declarations included.
    public var maxAttributesPerElement: Int
    /// Longest attribute value, in UTF-8 bytes.
    public var maxAttributeLength: Int
    /// Longest text content of one element (text and CDATA together), in UTF-8 bytes.
    public var maxTextLength: Int
    /// Whose limits these are, for the advice when one is exceeded: the limits type an app sets
    /// (`VMAPParseLimits`, `DASHParseLimits`; by default `XMLLimits`), or nil when the format fixes them.
    package var owner: String? = "XMLLimits"
    /// The limits the owner does not offer (the format fixes them).
    package var fixed: Set<Limit> = []

    public init(maxBytes: Int, maxDepth: Int, maxElements: Int, maxAttributesPerElement: Int, maxAttributeLength: Int, maxTextLength: Int) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxAttributesPerElement = maxAttributesPerElement
        self.maxAttributeLength = maxAttributeLength
        self.maxTextLength = maxTextLength
    }

    /// The recursion ceiling readers and the XML writer rely on, whatever the caller set.
    public static let hardDepthCeiling = 256

    public var effectiveMaxDepth: Int { min(max(maxDepth, 1), Self.hardDepthCeiling) }
}

extension XMLLimits: InputLimits {
    /// The limits by name (the property an app sets), for the checks and their errors.
    @usableFromInline
    package enum Limit: String, Sendable, Hashable, CaseIterable {
        case maxBytes, maxDepth, maxElements, maxAttributesPerElement, maxAttributeLength, maxTextLength
    }

    @usableFromInline
    package typealias Failure = XMLReadError

    /// For `maxDepth`, the value in force is `effectiveMaxDepth`.
    @usableFromInline
    package func value(of limit: Limit) -> Int {
        switch limit {
        case .maxBytes: maxBytes
        case .maxDepth: effectiveMaxDepth
        case .maxElements: maxElements
        case .maxAttributesPerElement: maxAttributesPerElement
        case .maxAttributeLength: maxAttributeLength
        case .maxTextLength: maxTextLength
        }
    }

    @usableFromInline
    package func exceeding(_ limit: Limit) -> (kind: XMLReadError.Kind, remedy: String) {
        switch limit {
        case .maxBytes: (.tooLarge, "Ask the server for a smaller document")
        case .maxDepth: (.tooDeep, "Real documents nest a few dozen levels at most (VMAP with inline VAST about 15), so a deeper one is broken or hostile")
        case .maxElements: (.tooManyElements, "Ask the server for a smaller document")
        case .maxAttributesPerElement: (.tooManyAttributes, "Check that the server really needs that many attributes on one element")
        case .maxAttributeLength: (.attributeTooLong, "Check that the server really sends values (URLs) that long")
        case .maxTextLength: (.textTooLong, "Check that the server really sends text that large")
        }
    }

    @usableFromInline
    package func setting(for limit: Limit) -> String? {
        guard let owner, !fixed.contains(limit) else { return nil }
        return "\(owner).\(limit.rawValue)"
    }

    /// These limits as `owner`'s, which offers all of them but `fixed`.
    package func owned(by owner: String?, fixing fixed: Set<Limit> = []) -> XMLLimits {
        var limits = self
        limits.owner = owner
        limits.fixed = fixed
        return limits
    }
}
