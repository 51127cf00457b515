import CoveInput

/// Checks raw bytes before any XML parser sees them, and returns the bytes to parse (without a BOM).
///
/// Foundation's `XMLParser` on Linux is libxml2 behind C strings: a NUL silently truncates the
/// document, bytes that are not UTF-8 reach Swift strings that were never validated, and a DTD
/// opens entity expansion. Refusing all of that up front, on bytes, means the XML parser only
/// ever sees input it handles safely.
public enum XMLInputGuard {
    public static func check(_ bytes: [UInt8], limits: XMLLimits) throws(XMLReadError) -> ArraySlice<UInt8> {
        try limits.check(.maxBytes, bytes.count, detail: "The document is \(bytes.count) bytes; the limit is \(limits.maxBytes).")
        let body = bytes[TextInput.byteOrderMarkLength(bytes)...]
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw XMLReadError(
                .empty, detail: "The document is empty.",
                advice: "Check that the request returned a body; an empty response means the server sent nothing."
            )
        }
        try checkEncoding(body)
        try checkDeclarations(body)
        try checkXMLDeclaration(body)
        return body
    }

    /// Validates UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF) and refuses
    /// NUL, reporting the offset of the first offending byte (`TextInput`, shared with the other parsers).
    private static func checkEncoding(_ body: ArraySlice<UInt8>) throws(XMLReadError) {
        guard let (index, isNUL) = TextInput.firstProblem(body) else { return }
        if isNUL {
            throw XMLReadError(
                .nulByte, byteOffset: index, detail: "The document contains a NUL byte, which XML does not allow.",
                advice: "The response is probably binary or double-encoded; check the server's output."
            )
        }
        throw invalidUTF8(at: index)
    }

    private static func invalidUTF8(at offset: Int) -> XMLReadError {
        XMLReadError(
            .invalidUTF8, byteOffset: offset, detail: "The document is not valid UTF-8.",
            advice: "Serve the document as UTF-8; re-encode documents written in another character set."
        )
    }

    /// Refuses `<!DOCTYPE` and `<!ENTITY` anywhere, in any letter case: none of the documents Cove reads (VMAP, VAST, DASH MPD) needs a DTD.
    /// Also refuses a processing instruction without data (`<?name?>`): libxml2 reports it with a
    /// null data pointer, which Foundation's `XMLParser` on Linux passes to `strlen` and crashes
    /// (found by fuzzing this parser).
    private static func checkDeclarations(_ body: ArraySlice<UInt8>) throws(XMLReadError) {
        let keywords: [[UInt8]] = [Array("DOCTYPE".utf8), Array("ENTITY".utf8)]
        // Only the bytes after a '<' matter: find those on a raw buffer (this sees every byte of every document).
        let candidates = body.withUnsafeBufferPointer { buffer -> [Int] in
            var found: [Int] = []
            guard buffer.count >= 2 else { return found }
            for offset in 0..<(buffer.count - 1) where buffer[offset] == UInt8(ascii: "<") {
                let next = buffer[offset + 1]
                if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") { found.append(body.startIndex + offset) }
            }
            return found
        }
        for index in candidates {
            if body[index + 1] == UInt8(ascii: "?"), isProcessingInstructionWithoutData(body, at: index + 2) {
                throw XMLReadError(
                    .unsupportedMarkup, byteOffset: index,
                    detail: "The document contains a processing instruction without data (<?name?>), which the system XML parser cannot take safely.",
                    advice: "Remove the processing instruction; the document needs none besides the <?xml …?> declaration."
                )
            }
            guard body[index + 1] == UInt8(ascii: "!") else { continue }
            for keyword in keywords where matchesUppercased(body, at: index + 2, keyword) {
                throw XMLReadError(
                    .forbiddenDeclaration, byteOffset: index,
                    detail: "The document contains <!\(String(decoding: keyword, as: UTF8.self))>; document type and entity declarations are refused.",
                    advice: "Remove the DOCTYPE: the document needs none, and entity declarations allow memory-exhaustion attacks."
                )
            }
        }
    }

    /// Refuses an XML declaration that names a non-UTF-8 encoding: the bytes were validated as
    /// UTF-8, and letting libxml2 decode them as something else would garble every URL.
    private static func checkXMLDeclaration(_ body: ArraySlice<UInt8>) throws(XMLReadError) {
        guard body.starts(with: Array("<?xml".utf8)), body.count > 5,
            [0x20, 0x09, 0x0A, 0x0D].contains(body[body.startIndex + 5])
        else { return }
        let window = body.prefix(512)
        guard let end = window.indices.first(where: { window[$0] == UInt8(ascii: "?") && $0 + 1 < window.endIndex && window[$0 + 1] == UInt8(ascii: ">") })
        else {
            return  // Unterminated declaration: the XML parser reports it as malformed.
        }
        let declaration = String(decoding: body[body.startIndex..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return }
        var rest = declaration[range.upperBound...].drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard rest.first == "=" else { return }
        rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
        let name = rest.dropFirst().prefix(while: { $0 != quote }).lowercased()
        let accepted: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii"]
        if !accepted.contains(name) {
            throw XMLReadError(
                .unsupportedEncoding, line: 1,
                detail: "The XML declaration names an encoding other than UTF-8 (\(String(name.prefix(20)))).",
                advice: "Serve the document as UTF-8 and declare encoding=\"UTF-8\" (or no encoding)."
            )
        }
    }

    /// Whether the target name starting at `start` runs straight into `?>`, with no white space
    /// (and so no data) before it. Anything else is either a normal PI or malformed XML, which
    /// libxml2 reports without a null pointer.
    private static func isProcessingInstructionWithoutData(_ body: ArraySlice<UInt8>, at start: Int) -> Bool {
        var index = start
        while index < body.endIndex {
            switch body[index] {
            case UInt8(ascii: "?"):
                return index + 1 < body.endIndex && body[index + 1] == UInt8(ascii: ">")
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "<"), UInt8(ascii: ">"):
                return false
            default:
                index += 1
            }
        }
        return false
    }

    private static func matchesUppercased(_ body: ArraySlice<UInt8>, at start: Int, _ keyword: [UInt8]) -> Bool {
        guard start + keyword.count <= body.endIndex else { return false }
        for (offset, expected) in keyword.enumerated() {
            var byte = body[start + offset]
            if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { byte -= 32 }
            if byte != expected { return false }
        }
        return true
    }
}
