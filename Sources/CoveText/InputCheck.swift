import CoveInput

/// The whole-file checks done before any parsing: text must be UTF-8 and free of NUL bytes.
/// Done in one pass up front so every later step can slice lines without re-validating, and so
/// binary data fails at its first bad byte instead of producing junk cues.
enum InputCheck {
    static func validate(_ bytes: [UInt8], from start: Int) throws(WebVTTParseError) {
        guard let (offset, isNUL) = TextInput.firstProblem(bytes, from: start) else { return }
        let line = lineNumber(of: offset, in: bytes, from: start)
        if isNUL {
            throw WebVTTParseError(
                .binaryData, line: line, byteOffset: offset,
                detail: "The data contains a NUL byte at offset \(offset), so it is binary, not text.",
                advice: "Check that the URL serves the WebVTT file and not a media segment, an image or a compressed body."
            )
        }
        let hint = TextInput.startsWithUTF16ByteOrderMark(bytes) ? " The file starts with a UTF-16 byte-order mark." : ""
        throw WebVTTParseError(
            .invalidUTF8, line: line, byteOffset: offset,
            detail: "The byte 0x\(hex(bytes[offset])) at offset \(offset) is not valid UTF-8.\(hint)",
            advice: "WebVTT must be UTF-8: re-encode the file (it may be UTF-16, Latin-1 or Windows-1252), or check that it is not binary data."
        )
    }

    static func lineNumber(of offset: Int, in bytes: [UInt8], from start: Int) -> Int {
        TextInput.lineNumber(of: offset, in: bytes, from: start)
    }

    static func hex(_ byte: UInt8) -> String { TextInput.hex(byte) }
}
