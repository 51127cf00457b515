/// A parsed WebVTT file: its header, definitions and cues in document order, plus what was
/// skipped along the way. Equality compares the content, not the lookup index built from it.
public struct WebVTTDocument: Sendable, Hashable {
    /// Text after `WEBVTT` on the first line, trimmed (often empty, sometimes a title).
    public let headerText: String
    /// The lines between the `WEBVTT` line and the first blank line: metadata such as
    /// `X-TIMESTAMP-MAP=...` or the legacy `Kind:` and `Language:` lines, as written.
    public let headerLines: [String]
    /// The HLS `X-TIMESTAMP-MAP` from the header, if present and well formed.
    public let timestampMap: WebVTTTimestampMap?
    /// `REGION` definitions; ids are unique (a later definition replaces an earlier one).
    public let regions: [WebVTTRegion]
    /// The CSS text of each `STYLE` block, as written.
    public let styleSheets: [String]
    /// Cues in document order; they may overlap and need not be sorted (see `cues(at:)`).
    public let cues: [WebVTTCue]
    /// The text of each `NOTE` block (after `NOTE`), kept only with `WebVTTParseOptions.keepNotes`.
    public let notes: [String]
    /// How many `NOTE` blocks the file has, whether or not they were kept.
    public let noteCount: Int
    /// What was skipped, ignored or repaired, in file order (the replacements of NUL bytes and
    /// ill-formed UTF-8 first, as they concern the file), up to `WebVTTParseLimits.maxWarnings`.
    public let warnings: [WebVTTWarning]
    /// Warnings past `WebVTTParseLimits.maxWarnings`, counted but not kept.
    public let omittedWarningCount: Int

    private let lookup: Lookup

    init(
        headerText: String, headerLines: [String], timestampMap: WebVTTTimestampMap?, regions: [WebVTTRegion],
        styleSheets: [String], cues: [WebVTTCue], cueLines: [Int], notes: [String], noteCount: Int,
        warnings: [WebVTTWarning], omittedWarningCount: Int, warningLimit: Int
    ) {
        self.headerText = headerText
        self.headerLines = headerLines
        self.timestampMap = timestampMap
        self.regions = regions
        self.styleSheets = styleSheets
        self.cues = cues
        self.notes = notes
        self.noteCount = noteCount
        self.warnings = warnings
        self.omittedWarningCount = omittedWarningCount
        self.lookup = Lookup(cues: cues, cueLines: cueLines, warningLimit: warningLimit)
    }

    /// The warnings for cues that were dropped (malformed timing line). Cues whose end is not
    /// after their start are kept, not dropped: their warnings are of kind `endBeforeStart`.
    public var skippedCues: [WebVTTWarning] {
        warnings.filter { $0.kind.skipsCue }
    }

    /// The cues shown at `seconds` (`start <= seconds < end`), in the spec's text track cue
    /// order: by start time, then by end time latest first, then by document order. Correct
    /// whatever the cues' order and overlaps; O(log n + k). Empty for NaN. A cue whose end is not
    /// after its start is never among them.
    public func cues(at seconds: Double) -> [WebVTTCue] {
        lookup.orderedIndexes(containing: seconds).map { cues[$0] }
    }

    /// The line of each cue's timing line, for diagnostics about cues (thumbnail warnings).
    var cueLines: [Int] { lookup.cueLines }

    /// The `maxWarnings` the document was parsed with, so derived warnings obey it too.
    var warningLimit: Int { lookup.warningLimit }

    /// Derived from `cues`, so it takes no part in equality or hashing.
    private struct Lookup: Sendable, Hashable {
        let index: IntervalIndex
        /// Times in milliseconds, so ordering is exact and sorting does not touch the cues.
        let starts: [Int64]
        let ends: [Int64]
        let cueLines: [Int]
        let warningLimit: Int

        init(cues: [WebVTTCue], cueLines: [Int], warningLimit: Int) {
            index = IntervalIndex(starts: cues.map(\.startSeconds), ends: cues.map(\.endSeconds))
            starts = cues.map(\.start.milliseconds)
            ends = cues.map(\.end.milliseconds)
            self.cueLines = cueLines
            self.warningLimit = warningLimit
        }

        /// Text track cue order: start, then later end first, then document order.
        func orderedIndexes(containing seconds: Double) -> [Int] {
            var found = index.indexes(containing: seconds)
            guard found.count > 1 else { return found }
            found.sort { a, b in
                if starts[a] != starts[b] { return starts[a] < starts[b] }
                if ends[a] != ends[b] { return ends[a] > ends[b] }
                return a < b
            }
            return found
        }

        static func == (lhs: Lookup, rhs: Lookup) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
    }
}
