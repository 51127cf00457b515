/// Something in the VMAP the timeline could not place as written, and what it did instead.
///
/// The stitched stream is already cut: ads are in it whatever the VMAP says. So a bad break or
/// ad costs only itself, never the other breaks or the content, and the app can see why.
public struct AdTimelineWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An ad's linear creative has a zero `Duration`; the ad was dropped.
        case zeroDurationAd
        /// An inline ad has no linear creative with a `Duration`; the ad was dropped.
        case adWithoutDuration
        /// An ad is still a wrapper; it was dropped (resolve with `VASTWrapperResolver` first).
        case unresolvedWrapper
        /// A break has no ad left to place (an ad tag, custom data, or every ad dropped); it was dropped.
        case emptyBreak
        /// A break offset is negative or not a number; the break was dropped.
        case invalidOffset
        /// A `#n` offset: it names a cue point in the content, which SSAI streams do not carry; the break was dropped.
        case positionOffsetUnsupported
        /// A break offset is past the end of the content; the break was made a post-roll.
        case offsetBeyondContent
        /// `repeatAfter` is ignored: a stitched stream holds each ad once.
        case repeatAfterIgnored
        /// Two or more breaks share a content offset; they were merged into one break, in document order.
        case mergedBreaks
        /// `contentlength` and the duration the caller passed differ by more than `AdTimeline.lengthTolerance`; `contentlength` was used.
        case contentDurationMismatch
        /// The content duration was worked out as stream (or `payloadlength`) minus the ads.
        case contentDurationDerived
        /// `payloadlength` differs from content plus ads by more than `AdTimeline.lengthTolerance`.
        case payloadMismatch
        /// The stream ends before an ad does; that ad and every later one were dropped.
        case adsBeyondStream
        /// The stream ends before the content does, even without the dropped ads.
        case streamShorterThanContent
    }

    public let kind: Kind
    /// Where, as a path such as `AdBreak[2] "MidRoll_10_0" › Ad[1] "2"`, or `document`.
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
