/// The whole-file checks done before any parsing: text must be UTF-8 and free of NUL bytes.
/// Done in one pass up front so every later step can slice lines without re-validating, and so
/// binary data fails at its first bad byte instead of producing junk cues.
enum InputCheck {
    static func validate(_ bytes: [UInt8], from start: Int) throws(WebVTTParseError) {
        guard let (offset, isNUL) = firstProblem(bytes, from: start) else { return }
        let line = lineNumber(of: offset, in: bytes, from: start)
        if isNUL {
            throw WebVTTParseError(
                .binaryData, line: line, byteOffset: offset,
                detail: "The data contains a NUL byte at offset \(offset), so it is binary, not text.",
                advice: "Check that the URL serves the WebVTT file and not a media segment, an image or a compressed body."
            )
        }
        let hint = bytes.count >= 2 && (bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF)
            ? " The file starts with a UTF-16 byte-order mark." : ""
        throw WebVTTParseError(
            .invalidUTF8, line: line, byteOffset: offset,
            detail: "The byte 0x\(hex(bytes[offset])) at offset \(offset) is not valid UTF-8.\(hint)",
            advice: "WebVTT must be UTF-8: re-encode the file (it may be UTF-16, Latin-1 or Windows-1252), or check that it is not binary data."
        )
    }

    /// The offset of the first NUL or ill-formed UTF-8 byte, or nil when there is none.
    private static func firstProblem(_ bytes: [UInt8], from start: Int) -> (Int, Bool)? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            let count = buffer.count
            while index < count {
                let byte = buffer[index]
                if byte < 0x80 {
                    if byte == 0 { return (index, true) }
                    index += 1
                } else {
                    guard let length = sequenceLength(buffer, at: index) else { return (index, false) }
                    index += length
                }
            }
            return nil
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (Unicode Table 3-7), or nil.
    private static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { return nil }
        var offset = 2
        while offset < length {
            guard bytes[index + offset] & 0xC0 == 0x80 else { return nil }
            offset += 1
        }
        return length
    }

    /// The 1-based line holding `offset`, counting LF, CR and CRLF as one line ending each.
    static func lineNumber(of offset: Int, in bytes: [UInt8], from start: Int) -> Int {
        var line = 1
        var index = start
        while index < offset {
            if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
            }
            index += 1
        }
        return line
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
