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
