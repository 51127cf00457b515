import CoveInput

/// Bounds on what `WebVTT.parse` accepts, so a hostile or broken server cannot make it use
/// unbounded memory or time. Each limit is checked while reading, before the work it guards,
/// and exceeding one throws `WebVTTParseError` of kind `.limitExceeded`, naming the limit.
///
/// The defaults sit far above real files: a feature film has one or two thousand cues, and a
/// 24-hour thumbnail track with one tile a second has 86 400. Counts are bounded separately from
/// bytes because a tiny block (`NOTE`, a two-line cue) costs far more as a value than as text.
public struct WebVTTParseLimits: Sendable, Hashable {
    /// The limits by name, for errors and for callers that report or raise them.
    public enum Limit: String, Sendable, Hashable, CaseIterable {
        case maxBytes
        case maxLineLength
        case maxCues
        case maxCueTextLines
        case maxBlockLines
        case maxRegions
        case maxStyleSheets
        case maxNotes
    }

    /// Largest accepted input, in bytes (a BOM included). Default 16 MiB.
    public var maxBytes: Int
    /// Longest accepted line, in bytes, without its line ending. Default 64 KiB.
    public var maxLineLength: Int
    /// Most cues kept. Default 200 000.
    public var maxCues: Int
    /// Most payload lines in one cue. Default 1 000.
    public var maxCueTextLines: Int
    /// Most lines in one header, `NOTE`, `STYLE`, `REGION` or unrecognised block. Default 10 000.
    public var maxBlockLines: Int
    /// Most `REGION` blocks (counting those that redefine an id). Default 1 000.
    public var maxRegions: Int
    /// Most `STYLE` blocks. Default 1 000.
    public var maxStyleSheets: Int
    /// Most `NOTE` blocks kept when `WebVTTParseOptions.keepNotes` is set (they are only counted
    /// otherwise). Default 10 000.
    public var maxNotes: Int
    /// Most warnings recorded; later ones are only counted in `WebVTTDocument.omittedWarningCount`.
    /// Not an error: warnings describe what was skipped, and a file of junk blocks must not make
    /// the diagnostics grow with it. Default 1 000.
    public var maxWarnings: Int

    public init(
        maxBytes: Int = 16 * 1024 * 1024,
        maxLineLength: Int = 64 * 1024,
        maxCues: Int = 200_000,
        maxCueTextLines: Int = 1_000,
        maxBlockLines: Int = 10_000,
        maxRegions: Int = 1_000,
        maxStyleSheets: Int = 1_000,
        maxNotes: Int = 10_000,
        maxWarnings: Int = 1_000
    ) {
        self.maxBytes = maxBytes
        self.maxLineLength = maxLineLength
        self.maxCues = maxCues
        self.maxCueTextLines = maxCueTextLines
        self.maxBlockLines = maxBlockLines
        self.maxRegions = maxRegions
        self.maxStyleSheets = maxStyleSheets
        self.maxNotes = maxNotes
        self.maxWarnings = maxWarnings
    }

    public static let `default` = WebVTTParseLimits()

    /// The configured value of `limit`.
    public func value(of limit: Limit) -> Int {
        switch limit {
        case .maxBytes: maxBytes
        case .maxLineLength: maxLineLength
        case .maxCues: maxCues
        case .maxCueTextLines: maxCueTextLines
        case .maxBlockLines: maxBlockLines
        case .maxRegions: maxRegions
        case .maxStyleSheets: maxStyleSheets
        case .maxNotes: maxNotes
        }
    }
}

extension WebVTTParseLimits: InputLimits {
    @usableFromInline
    package typealias Failure = WebVTTParseError

    @usableFromInline
    package func exceeding(_ limit: Limit) -> (kind: WebVTTParseError.Kind, remedy: String) {
        let remedy =
            limit == .maxLineLength
            ? "Check that the file is WebVTT and not binary or minified data" : "Check that the file is really WebVTT and not generated in a loop"
        return (.limitExceeded(limit, limit: value(of: limit)), remedy)
    }
}
