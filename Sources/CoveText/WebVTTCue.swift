/// One cue: text shown from `start` (inclusive) to `end` (exclusive); never shown when `end` is
/// not after `start`.
public struct WebVTTCue: Sendable, Hashable {
    /// The identifier line before the timing line, if there was one (never empty).
    public let identifier: String?
    public let start: WebVTTTimestamp
    /// May be at or before `start`: the spec keeps such a cue (it is simply never active), so it
    /// is in the document with a `WebVTTWarning` of kind `endBeforeStart`.
    public let end: WebVTTTimestamp
    public let settings: WebVTTCueSettings
    /// The cue text exactly as written (lines joined with `\n`, tags and references included).
    public let payload: String
    /// The text to show: plain text (`WebVTTCueText.plainText(payload)`) or the payload itself,
    /// as `WebVTTParseOptions.cueText` chose.
    public let text: String

    init(identifier: String?, start: WebVTTTimestamp, end: WebVTTTimestamp, settings: WebVTTCueSettings, payload: String, text: String) {
        self.identifier = identifier
        self.start = start
        self.end = end
        self.settings = settings
        self.payload = payload
        self.text = text
    }

    public var startSeconds: Double { start.seconds }
    public var endSeconds: Double { end.seconds }

    /// Whether the cue is shown at `seconds` (`start <= seconds < end`).
    public func isActive(at seconds: Double) -> Bool {
        startSeconds <= seconds && seconds < endSeconds
    }
}
