import CoveInput
import CoveXML

/// Bounds on what the MPD parser accepts, so a hostile or broken origin cannot make it use unbounded
/// memory, time or stack. The XML limits are checked while the document is read; `maxSegments` while a
/// representation's segment list is expanded, before the segments are made.
///
/// The defaults fit real manifests with a wide margin: a 2 MB live MPD with a long `SegmentTimeline`, a
/// ten-hour VOD of 2 s segments (18 000 per representation).
public struct DASHParseLimits: Sendable, Hashable {
    /// Largest accepted MPD, in bytes. Default 8 MiB.
    public var maxBytes: Int
    /// Deepest element nesting. Default 32 (an MPD needs about 8).
    public var maxDepth: Int
    /// Most elements. Default 200 000.
    public var maxElements: Int
    /// Most periods. Default 1 000.
    public var maxPeriods: Int
    /// Most segments one representation expands to (a `SegmentTimeline`'s repeats, a template's
    /// duration over the period). Default 500 000.
    public var maxSegments: Int

    public init(maxBytes: Int = 8 * 1024 * 1024, maxDepth: Int = 32, maxElements: Int = 200_000, maxPeriods: Int = 1_000, maxSegments: Int = 500_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxPeriods = maxPeriods
        self.maxSegments = maxSegments
    }

    /// The limits the guarded XML reader enforces for these (its errors name these settings; the attribute
    /// and text limits are the parser's own).
    var xml: XMLLimits {
        XMLLimits(
            maxBytes: maxBytes, maxDepth: maxDepth, maxElements: maxElements, maxAttributesPerElement: 64,
            maxAttributeLength: 16 * 1024, maxTextLength: 64 * 1024
        ).owned(by: "DASHParseLimits", fixing: [.maxAttributesPerElement, .maxAttributeLength, .maxTextLength])
    }
}

extension DASHParseLimits: InputLimits {
    /// The limits the MPD reader checks itself (the others through `xml`), by name.
    @usableFromInline
    package enum Limit: String, Sendable, CaseIterable {
        case maxPeriods, maxSegments
    }

    @usableFromInline
    package typealias Failure = DASHParseError

    @usableFromInline
    package func value(of limit: Limit) -> Int {
        switch limit {
        case .maxPeriods: maxPeriods
        case .maxSegments: maxSegments
        }
    }

    @usableFromInline
    package func exceeding(_ limit: Limit) -> (kind: DASHParseError.Kind, remedy: String) {
        switch limit {
        case .maxPeriods: (.tooLarge, "Check that the origin really serves that many periods")
        case .maxSegments: (.tooLarge, "Check the manifest's segment durations")
        }
    }
}
