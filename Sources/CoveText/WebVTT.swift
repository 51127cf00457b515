import CoveInput

/// WebVTT (W3C "WebVTT: The Web Video Text Tracks Format") for captions, subtitles and
/// thumbnail tracks, parsed from bytes by a pure, bounded function.
public enum WebVTT {
    /// Parses a WebVTT file. Never traps: input that is not WebVTT, not UTF-8, binary, or over
    /// `options.limits` throws a `WebVTTParseError` naming the line and what to do.
    ///
    /// Follows the spec's parser, including where it is lenient the way browsers are: a cue with
    /// a malformed timing line, or one that ends before it starts, is skipped and reported in
    /// `WebVTTDocument.warnings`; unknown blocks and settings are ignored. Accepts a UTF-8 BOM
    /// and LF, CRLF or CR line endings.
    public static func parse(_ bytes: [UInt8], options: WebVTTParseOptions = .init()) throws(WebVTTParseError) -> WebVTTDocument {
        try options.limits.check(.maxBytes, bytes.count, detail: "The file is \(bytes.count) bytes; the limit is \(options.limits.maxBytes).")
        return try WebVTTParser.parse(bytes, options: options)
    }

    /// Parses WebVTT text (for literals and text already decoded).
    public static func parse(_ text: String, options: WebVTTParseOptions = .init()) throws(WebVTTParseError) -> WebVTTDocument {
        try parse(Array(text.utf8), options: options)
    }
}
