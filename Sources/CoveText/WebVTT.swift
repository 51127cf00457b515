import CoveInput

/// WebVTT (W3C "WebVTT: The Web Video Text Tracks Format") for captions, subtitles and
/// thumbnail tracks, parsed from bytes by a pure, bounded function.
public enum WebVTT {
    /// Parses a WebVTT file. Never traps: input that is not WebVTT, UTF-16, binary (media, an
    /// image, a compressed body, mostly control bytes), or over `options.limits` throws a
    /// `WebVTTParseError` naming what was found and what to do.
    ///
    /// Follows the W3C WebVTT parser algorithm, including where it is lenient the way browsers
    /// are: NUL bytes and ill-formed UTF-8 become U+FFFD; a cue with a malformed timing line is
    /// skipped; a cue whose end is not after its start is kept (it is never active); unknown
    /// blocks and settings are ignored. Each of these is reported in `WebVTTDocument.warnings`.
    /// Accepts one UTF-8 BOM and LF, CRLF or CR line endings.
    public static func parse(_ bytes: [UInt8], options: WebVTTParseOptions = .init()) throws(WebVTTParseError) -> WebVTTDocument {
        try options.limits.check(.maxBytes, bytes.count, detail: "The file is \(bytes.count) bytes; the limit is \(options.limits.maxBytes).")
        return try WebVTTParser.parse(bytes, options: options)
    }

    /// Parses WebVTT text (for literals and text already decoded).
    public static func parse(_ text: String, options: WebVTTParseOptions = .init()) throws(WebVTTParseError) -> WebVTTDocument {
        try parse(Array(text.utf8), options: options)
    }
}
