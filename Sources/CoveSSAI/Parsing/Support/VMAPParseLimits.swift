import CoveXML

/// Bounds on what the VMAP and VAST parsers accept, so a hostile or broken ad server cannot make
/// them use unbounded memory, time or stack. Every limit is checked while reading, before the
/// work it guards; going over one aborts the parse with a typed `VMAPParseError`.
///
/// The defaults fit real Brightcove VMAPs (a few hundred kilobytes for an hour of content with a
/// dozen pods) with a wide margin. Depth matters because VAST sits inside VMAP: a tracking URL is
/// twelve elements down, so 64 leaves room for deep vendor extensions without inviting stack
/// exhaustion.
public struct VMAPParseLimits: Sendable, Hashable {
    /// Largest accepted input, in bytes. Default 4 MiB.
    public var maxBytes: Int
    /// Deepest element nesting, the root counting as 1. Default 64; values above 256 act as 256,
    /// because the document tree is walked recursively.
    public var maxDepth: Int
    /// Most elements in one document, inline VAST included. Default 100 000.
    public var maxElements: Int
    /// Most attributes on one element, namespace declarations included. Default 64.
    public var maxAttributesPerElement: Int
    /// Longest attribute value, in UTF-8 bytes. Default 64 KiB (signed stream URLs run to a few KiB).
    public var maxAttributeLength: Int
    /// Longest text content of one element (text and CDATA together), in UTF-8 bytes. Default 1 MiB,
    /// enough for an `HTMLResource` companion or a CDATA-wrapped VAST document.
    public var maxTextLength: Int
    /// Most warnings kept; later ones are counted but not stored. Default 1 000.
    public var maxWarnings: Int
    /// Most `<Icon>`s read from one linear creative; later ones are dropped with a warning. Default 16:
    /// real ads carry one or two (AdChoices), and each icon's view tracking is sent when the ad starts.
    public var maxIconsPerCreative: Int

    public init(
        maxBytes: Int = 4 * 1024 * 1024,
        maxDepth: Int = 64,
        maxElements: Int = 100_000,
        maxAttributesPerElement: Int = 64,
        maxAttributeLength: Int = 64 * 1024,
        maxTextLength: Int = 1024 * 1024,
        maxWarnings: Int = 1_000,
        maxIconsPerCreative: Int = 16
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxAttributesPerElement = maxAttributesPerElement
        self.maxAttributeLength = maxAttributeLength
        self.maxTextLength = maxTextLength
        self.maxWarnings = maxWarnings
        self.maxIconsPerCreative = maxIconsPerCreative
    }

    public static let `default` = VMAPParseLimits()

    /// The recursion ceiling the readers and the XML writer rely on, whatever the caller set.
    static let hardDepthCeiling = XMLLimits.hardDepthCeiling

    var effectiveMaxDepth: Int { xml.effectiveMaxDepth }

    /// The limits the guarded XML reader enforces for these (its errors name these settings).
    var xml: XMLLimits {
        XMLLimits(
            maxBytes: maxBytes, maxDepth: maxDepth, maxElements: maxElements, maxAttributesPerElement: maxAttributesPerElement,
            maxAttributeLength: maxAttributeLength, maxTextLength: maxTextLength
        ).owned(by: "VMAPParseLimits")
    }
}
