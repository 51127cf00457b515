/// A `REGION` definition: an area of the video that cues can be placed in (and scrolled in,
/// roll-up style), referred to by cues through `region:<id>`.
public struct WebVTTRegion: Sendable, Hashable {
    /// A point given as percentages of a box's width and height (0 to 100).
    public struct Anchor: Sendable, Hashable {
        public let x: Double
        public let y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public enum Scroll: String, Sendable, Hashable, CaseIterable {
        /// Cues appear in place.
        case none
        /// New lines push older ones up (`scroll:up`).
        case up
    }

    /// Never empty: a region without an id cannot be referred to, so it is not kept.
    public let id: String
    /// Width as a percentage of the video width. Default 100.
    public let width: Double
    /// Height in lines. Default 3.
    public let lines: Int
    /// The point of the region that is placed on `viewportAnchor`. Default (0, 100).
    public let regionAnchor: Anchor
    /// Where on the video the region is anchored. Default (0, 100).
    public let viewportAnchor: Anchor
    public let scroll: Scroll
    /// The block's settings as written (the lines after `REGION`), for tools and round trips.
    public let raw: String

    init(id: String, width: Double, lines: Int, regionAnchor: Anchor, viewportAnchor: Anchor, scroll: Scroll, raw: String) {
        self.id = id
        self.width = width
        self.lines = lines
        self.regionAnchor = regionAnchor
        self.viewportAnchor = viewportAnchor
        self.scroll = scroll
        self.raw = raw
    }
}

extension WebVTTRegion {
    /// "Collect WebVTT region settings": whitespace-separated `name:value` pairs, invalid or
    /// unknown ones ignored, a later valid one replacing an earlier one. Returns nil when no `id`
    /// was given: the spec keeps such a region, but no cue can name it (`region:` needs a value),
    /// so leaving it out changes nothing a renderer sees.
    init?(parsing text: String) {
        var id = ""
        var width = 100.0
        var lines = 3
        var regionAnchor = Anchor(x: 0, y: 100)
        var viewportAnchor = Anchor(x: 0, y: 100)
        var scroll = Scroll.none
        let tokens = text.split(whereSeparator: { SettingsText.isWhitespace($0) || $0 == "\n" })
        for token in tokens {
            guard let colon = token.firstIndex(of: ":"),
                colon != token.startIndex, token.index(after: colon) != token.endIndex
            else { continue }
            let value = token[token.index(after: colon)...]
            switch token[..<colon] {
            case "id":
                // No "-->" check is needed: a line holding one ends the REGION block first.
                id = String(value)
            case "width":
                if let parsed = SettingsText.percentage(value) { width = parsed }
            case "lines":
                // Any run of digits is a number to the spec; one too large for an Int is the largest.
                if value.utf8.allSatisfy(TimestampSyntax.isDigit) { lines = Int(value) ?? .max }
            case "regionanchor":
                if let parsed = Self.anchor(value) { regionAnchor = parsed }
            case "viewportanchor":
                if let parsed = Self.anchor(value) { viewportAnchor = parsed }
            case "scroll":
                if value == "up" { scroll = .up }
            default:
                continue
            }
        }
        guard !id.isEmpty else { return nil }
        self.init(
            id: id, width: width, lines: lines, regionAnchor: regionAnchor, viewportAnchor: viewportAnchor,
            scroll: scroll, raw: text
        )
    }

    private static func anchor(_ value: Substring) -> Anchor? {
        let (xText, yText) = SettingsText.splitAtComma(value)
        guard let yText, let x = SettingsText.percentage(xText), let y = SettingsText.percentage(yText) else { return nil }
        return Anchor(x: x, y: y)
    }
}
