/// A WebVTT thumbnail track (the scrubbing-preview format used by JW Player, Video.js and
/// Brightcove): each cue's text is an image URL, often a tile of a sprite sheet given by a
/// `#xywh=` fragment. Entries come with their URL already resolved against the track's URL,
/// so the player can fetch them directly.
public struct ThumbnailTrack: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public let start: WebVTTTimestamp
        public let end: WebVTTTimestamp
        /// The image to fetch: the cue's URL resolved against the base URL, without the fragment.
        public let imageURL: String
        /// The tile to show, or nil for the whole image.
        public let rect: ThumbnailRect?

        public var startSeconds: Double { start.seconds }
        public var endSeconds: Double { end.seconds }
    }

    /// Entries in document order.
    public let entries: [Entry]
    /// The document's warnings followed by one per cue that gave no usable entry, up to the
    /// `maxWarnings` the document was parsed with.
    public let warnings: [WebVTTWarning]
    /// Warnings past that limit, counted but not kept (the document's included).
    public let omittedWarningCount: Int

    private let lookup: Lookup

    /// Reads thumbnail entries from a parsed document. `baseURL` is the track's own URL; without
    /// it, relative image URLs are kept as written.
    ///
    /// The URL is the first line of the cue payload, trimmed and as written (character
    /// references are not decoded, as thumbnail players read it). A cue with no URL or a malformed
    /// `xywh` (not four whole numbers, a zero width or height) is skipped with a warning.
    public init(document: WebVTTDocument, baseURL: String?) {
        let base = baseURL.map(URIReference.init)
        var entries: [Entry] = []
        var warnings = WarningLog(limit: document.warningLimit)
        document.warnings.forEach { warnings.add($0) }
        let lines = document.cueLines
        for (index, cue) in document.cues.enumerated() {
            let line = index < lines.count ? lines[index] : nil
            let firstLine = cue.payload.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let text = SettingsText.trimmed(firstLine)
            guard !text.isEmpty else {
                warnings.add(WebVTTWarning(.invalidThumbnail, line: line, message: "The thumbnail cue has no image URL; it was skipped."))
                continue
            }
            let reference = URIReference(String(text))
            let resolved = base.map { reference.resolved(against: $0) } ?? reference
            var rect: ThumbnailRect?
            if let fragment = resolved.fragment {
                switch ThumbnailRect.parse(fragment: fragment) {
                case .success(let parsed):
                    rect = parsed
                case .failure(let failure):
                    warnings.add(
                        WebVTTWarning(
                            .invalidThumbnail, line: line,
                            message:
                                "The thumbnail fragment '#\(fragment.prefix(40))' is malformed (\(failure.reason)); the entry was skipped. Write it as #xywh=x,y,width,height."
                        ))
                    continue
                }
            }
            let image = URIReference(
                scheme: resolved.scheme, authority: resolved.authority, path: resolved.path, query: resolved.query, fragment: nil
            )
            entries.append(Entry(start: cue.start, end: cue.end, imageURL: image.description, rect: rect))
        }
        self.entries = entries
        self.warnings = warnings.items
        self.omittedWarningCount = document.omittedWarningCount + warnings.omitted
        self.lookup = Lookup(entries: entries)
    }

    /// Parses a thumbnail track from bytes (see `WebVTT.parse` and `init(document:baseURL:)`).
    public static func parse(
        _ bytes: [UInt8], baseURL: String?, options: WebVTTParseOptions = .init()
    ) throws(WebVTTParseError) -> ThumbnailTrack {
        ThumbnailTrack(document: try WebVTT.parse(bytes, options: options), baseURL: baseURL)
    }

    /// The entry to show at `seconds`: among those with `start <= seconds < end`, the one that
    /// started last (the first in document order on a tie); nil in a gap. O(log n + k).
    public func thumbnail(at seconds: Double) -> Entry? {
        let found = lookup.index.indexes(containing: seconds)
        guard
            let best = found.min(by: { a, b in
                entries[a].start != entries[b].start ? entries[a].start > entries[b].start : a < b
            })
        else { return nil }
        return entries[best]
    }

    /// Derived from `entries`, so it takes no part in equality or hashing.
    private struct Lookup: Sendable, Hashable {
        let index: IntervalIndex

        init(entries: [Entry]) {
            index = IntervalIndex(starts: entries.map(\.startSeconds), ends: entries.map(\.endSeconds))
        }

        static func == (lhs: Lookup, rhs: Lookup) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
    }
}
