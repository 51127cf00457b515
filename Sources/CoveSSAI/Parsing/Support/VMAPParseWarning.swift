/// Something in a VMAP or VAST document that was dropped or ignored while the rest was kept.
///
/// A bad ad break offset or a bad ad duration must not cost the viewer every other break, so
/// the parsers drop the one piece, say so here, and go on. `location` names the piece by its
/// position and id (never by URL, because URLs carry tokens).
public struct VMAPParseWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An `AdBreak` had no or a bad `timeOffset`; the break was dropped.
        case badTimeOffset
        /// An inline ad's linear creative had no or a bad `Duration`; the ad was dropped.
        case badDuration
        /// A `skipoffset` could not be read; the creative is treated as not skippable.
        case badSkipOffset
        /// A tracking event's `offset` could not be read; the event is kept without one.
        case badTrackingOffset
        /// A number, boolean or length attribute could not be read; it is treated as absent.
        case badAttribute
        /// An `Ad` had neither `InLine` nor `Wrapper`; the ad was dropped.
        case emptyAd
        /// A `Wrapper` had no usable `VASTAdTagURI`; the ad was dropped.
        case missingAdTagURI
        /// An `AdSource` held no VAST, ad tag or custom data; the break is kept without a source.
        case emptyAdSource
        /// An `AdSource`'s inline VAST could not be read; the break is kept without a source.
        case badInlineVAST
        /// One ad holds more than one `Linear`; all are kept, but players usually play only the first.
        case multipleLinear
        /// An element lacks what VAST requires of it (an `Icon` without a size, a position or anything
        /// to show); it is kept, and the message says what a player will lack.
        case incompleteElement
        /// A list was longer than a `VMAPParseLimits` bound (`maxIconsPerCreative`); the first entries
        /// were kept and the rest dropped.
        case tooManyEntries
        /// The XML parser reported a problem it recovers from (an undeclared prefix, a relative
        /// namespace URI, an unknown XML version); elements are matched by local name, so reading went on.
        case xmlWarning
        /// More warnings than `VMAPParseLimits.maxWarnings`; the rest were not stored.
        case tooManyWarnings
    }

    public let kind: Kind
    /// Where, as a short path such as `AdBreak[2] "MidRoll_5_0" › Ad[1] "2" › Creative[1]`.
    public let location: String
    /// What was wrong and what was done about it.
    public let message: String

    public init(_ kind: Kind, location: String, message: String) {
        self.kind = kind
        self.location = location
        self.message = message
    }

    public var description: String { "\(kind.rawValue) at \(location): \(message)" }
}
