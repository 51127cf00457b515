/// VMAP 1.0 parsing, as a pure function of bytes: no I/O, no shared state, safe from any thread.
public enum VMAP {
    /// Parses a VMAP document, with any VAST inside it.
    ///
    /// Throws when the bytes are unsafe or not well-formed XML, when a limit is crossed, or when
    /// the root is not `VMAP`. A bad break offset or a bad ad `Duration` does not throw: that break
    /// or ad is dropped and named in `VMAPDocument.warnings`.
    public static func parse(_ bytes: [UInt8], limits: VMAPParseLimits = .default) throws(VMAPParseError) -> VMAPDocument {
        let tree = try DocumentLoader.load(bytes, limits: limits)
        guard tree.root.localName == "VMAP" else {
            throw VMAPParseError(
                .notVMAP, line: tree.root.line, element: tree.root.name,
                detail: "The root element is <\(ReadContext.snippet(tree.root.name))>, not <vmap:VMAP>.",
                advice: tree.root.localName == "VAST"
                    ? "This is a VAST response; read it with VAST.parse."
                    : "Check that the URL points at a VMAP document (Brightcove: the source's vmap URL)."
            )
        }
        var context = ReadContext(for: tree, limits: limits)
        return VMAPReader.document(tree.root, context: &context)
    }

    /// Parses VMAP text (its UTF-8 bytes).
    public static func parse(_ text: String, limits: VMAPParseLimits = .default) throws(VMAPParseError) -> VMAPDocument {
        try parse(Array(text.utf8), limits: limits)
    }
}
