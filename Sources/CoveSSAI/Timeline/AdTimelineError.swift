/// Why no timeline could be built from a VMAP document: what was wrong and what to do.
///
/// Only problems that make every break position untrustworthy throw. The player reports the
/// error and, since the stitched stream is still playable, plays it as content without ad
/// handling. Problems with one break or one ad are `AdTimelineWarning`s instead.
public struct AdTimelineError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A break is at `end` or at a percentage, but the content's duration is unknown: the
        /// VMAP has no `contentlength` and none was passed (or could be worked out).
        case unknownContentDuration
        /// Offsets and durations add up to more than `AdTime` can hold (about 292 years).
        case timeOverflow
    }

    public let kind: Kind
    /// The break concerned, as a path such as `AdBreak[3] "PostRoll_60_0"`, if any.
    public let location: String?
    /// What was wrong, in one sentence.
    public let detail: String
    /// What the caller or the ad server's owner can do about it.
    public let advice: String

    public init(_ kind: Kind, location: String? = nil, detail: String, advice: String) {
        self.kind = kind
        self.location = location
        self.detail = detail
        self.advice = advice
    }

    public var description: String {
        let at = location.map { " at \($0)" } ?? ""
        return "Ad timeline not built (\(kind.rawValue)\(at)): \(detail) \(advice)"
    }
}
