import CoveInput

/// Bounds on what the parser accepts, so a hostile or broken server cannot make it use
/// unbounded memory or time. Every limit is checked while reading, before the work it guards.
///
/// The defaults fit the largest real playlists seen in practice (a 24-hour DVR window of
/// 2-second segments is 43 200 segments) with room to spare. Playlists are flat, so there is
/// no nesting depth to bound; attribute lists are bounded per tag instead.
public struct HLSParseLimits: Sendable, Hashable {
    /// Largest accepted input, in bytes. Default 4 MiB.
    public var maxBytes: Int
    /// Longest accepted line, in bytes, without its line ending. Default 64 KiB.
    public var maxLineLength: Int
    /// Most lines, blank lines and comments included. Default 250 000.
    public var maxLines: Int
    /// Most media segments in one media playlist. Default 100 000.
    public var maxSegments: Int
    /// Most `EXT-X-STREAM-INF` plus `EXT-X-I-FRAME-STREAM-INF` entries. Default 1 000.
    public var maxVariants: Int
    /// Most `EXT-X-MEDIA`, and separately most `EXT-X-SESSION-DATA` and `EXT-X-SESSION-KEY`. Default 1 000.
    public var maxRenditions: Int
    /// Most `EXT-X-DATERANGE` tags. Default 10 000.
    public var maxDateRanges: Int
    /// Most attributes in one tag's attribute list. Default 128.
    public var maxAttributesPerTag: Int

    public init(
        maxBytes: Int = 4 * 1024 * 1024,
        maxLineLength: Int = 64 * 1024,
        maxLines: Int = 250_000,
        maxSegments: Int = 100_000,
        maxVariants: Int = 1_000,
        maxRenditions: Int = 1_000,
        maxDateRanges: Int = 10_000,
        maxAttributesPerTag: Int = 128
    ) {
        self.maxBytes = maxBytes
        self.maxLineLength = maxLineLength
        self.maxLines = maxLines
        self.maxSegments = maxSegments
        self.maxVariants = maxVariants
        self.maxRenditions = maxRenditions
        self.maxDateRanges = maxDateRanges
        self.maxAttributesPerTag = maxAttributesPerTag
    }
}

extension HLSParseLimits: InputLimits {
    /// The limits by name (the property an app sets), for the checks and their errors.
    @usableFromInline
    package enum Limit: String, Sendable, CaseIterable {
        case maxBytes, maxLineLength, maxLines, maxSegments, maxVariants, maxRenditions, maxDateRanges, maxAttributesPerTag
    }

    @usableFromInline
    package typealias Failure = HLSParseError

    @usableFromInline
    package func value(of limit: Limit) -> Int {
        switch limit {
        case .maxBytes: maxBytes
        case .maxLineLength: maxLineLength
        case .maxLines: maxLines
        case .maxSegments: maxSegments
        case .maxVariants: maxVariants
        case .maxRenditions: maxRenditions
        case .maxDateRanges: maxDateRanges
        case .maxAttributesPerTag: maxAttributesPerTag
        }
    }

    @usableFromInline
    package func exceeding(_ limit: Limit) -> (kind: HLSParseError.Kind, remedy: String) {
        switch limit {
        case .maxBytes: (.tooLarge, "Split the playlist (shorter live window, fewer variants)")
        case .maxLineLength: (.lineTooLong, "Check the file is a playlist and not binary data")
        case .maxLines: (.tooManyLines, "Shorten the playlist (a smaller live window)")
        case .maxSegments: (.tooManyEntries, "Shorten the live window")
        case .maxVariants: (.tooManyEntries, "Reduce the bitrate ladder")
        case .maxRenditions: (.tooManyEntries, "Remove unused entries")
        case .maxDateRanges: (.tooManyEntries, "Drop expired date ranges")
        case .maxAttributesPerTag: (.tooManyAttributes, "Remove unneeded attributes")
        }
    }
}
