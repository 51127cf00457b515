/// How `WebVTT.parse` reads a file. The defaults suit a caption renderer: plain cue text,
/// browser-like leniency, notes counted but not kept.
public struct WebVTTParseOptions: Sendable, Hashable {
    /// What `WebVTTCue.text` holds. The raw payload is always in `WebVTTCue.payload`.
    public enum CueText: Sendable, Hashable {
        /// Tags removed and character references decoded: what a plain-text renderer shows.
        case plain
        /// The payload as written, tags and character references included, for renderers that
        /// style `<i>`, `<b>`, voices and classes themselves.
        case markup
    }

    public var cueText: CueText
    /// Keep the text of `NOTE` blocks in `WebVTTDocument.notes` (authoring tools and round
    /// trips want them; players do not).
    public var keepNotes: Bool
    /// Throw on the first cue that cannot be shown instead of recording a warning: a malformed
    /// timing line (`badTimestamp`; the cue is skipped otherwise) or an end not after the start
    /// (`endBeforeStart`; the cue is kept but never active otherwise, as the spec says). Browsers
    /// carry on; validators want to fail.
    public var failOnSkippedCue: Bool
    public var limits: WebVTTParseLimits

    public init(
        cueText: CueText = .plain,
        keepNotes: Bool = false,
        failOnSkippedCue: Bool = false,
        limits: WebVTTParseLimits = .default
    ) {
        self.cueText = cueText
        self.keepNotes = keepNotes
        self.failOnSkippedCue = failOnSkippedCue
        self.limits = limits
    }
}
