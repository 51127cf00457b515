/// VAST 2/3/4 parsing, as a pure function of bytes: no I/O, no shared state, safe from any thread.
/// Wrappers are returned as wrappers; `VASTWrapperResolver` follows them.
public enum VAST {
    /// Parses a standalone VAST response.
    ///
    /// Throws when the bytes are unsafe or not well-formed XML, when a limit is crossed, or when
    /// the root is not `VAST`. An ad with a bad `Duration` is dropped and named in `warnings`.
    public static func parse(_ bytes: [UInt8], limits: VMAPParseLimits = .default) throws(VMAPParseError) -> VASTDocument {
        let tree = try DocumentLoader.load(bytes, limits: limits)
        guard tree.root.localName == "VAST" else {
            throw VMAPParseError(
                .notVAST, line: tree.root.line, element: tree.root.name,
                detail: "The root element is <\(ReadContext.snippet(tree.root.name))>, not <VAST>.",
                advice: tree.root.localName == "VMAP"
                    ? "This is a VMAP document; read it with VMAP.parse."
                    : "Check that the ad tag URL returns VAST."
            )
        }
        var context = ReadContext(for: tree, limits: limits)
        let document = VASTReader.document(tree.root, context: &context, at: "")
        return VASTDocument(version: document.version, ads: document.ads, errorURLs: document.errorURLs, warnings: context.finishedWarnings)
    }

    /// Parses VAST text (its UTF-8 bytes).
    public static func parse(_ text: String, limits: VMAPParseLimits = .default) throws(VMAPParseError) -> VASTDocument {
        try parse(Array(text.utf8), limits: limits)
    }
}
