import CoveInput

/// One meaningful line of a playlist: a tag or a URI. Blank lines and comments are dropped here
/// (they carry nothing), but line numbers stay those of the file so errors point at the right place.
struct PlaylistLine {
    enum Content {
        /// `#EXT…`: `name` is without the `#`, `value` is what follows the first `:`, if any.
        case tag(name: Substring, value: Substring?)
        case uri
    }

    let number: Int
    /// The whole line, trimmed of spaces and tabs at both ends.
    let text: String
    let content: Content

    var tagName: Substring? {
        if case .tag(let name, _) = content { return name }
        return nil
    }
}

/// Turns bytes into lines in one pass, checking the header, line length, line count, UTF-8 and
/// control characters as it goes, so hostile input fails at the first bad byte. (The size was
/// checked by `HLSPlaylist.parse` before the bytes were copied.)
enum LineReader {
    private static let header = Array("#EXTM3U".utf8)

    static func read(_ bytes: [UInt8], limits: HLSParseLimits) throws(HLSParseError) -> [PlaylistLine] {
        guard !bytes.isEmpty else {
            throw HLSParseError(
                .notAPlaylist, line: nil, detail: "The data is empty.",
                advice: "Check that the URL serves an HLS playlist and that the response body was read completely.")
        }
        let start = TextInput.byteOrderMarkLength(bytes)
        try checkHeader(bytes, from: start)

        var lines: [PlaylistLine] = []
        var lineNumber = 1
        var lineStart = start
        var index = start
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A {
                try finishLine(bytes, from: lineStart, to: index, number: lineNumber, limits: limits, into: &lines)
                lineNumber += 1
                // The empty "line" after a final line feed does not count.
                if index + 1 < count {
                    try limits.check(.maxLines, lineNumber, line: lineNumber, detail: "The playlist has more than \(limits.maxLines) lines.")
                }
                index += 1
                lineStart = index
                continue
            }
            if byte < 0x80 {
                if byte < 0x20, byte != 0x09, !(byte == 0x0D && (index + 1 == count || bytes[index + 1] == 0x0A)) {
                    throw invalidCharacter(byte, at: index, line: lineNumber)
                }
                index += 1
            } else {
                guard let length = TextInput.sequenceLength(bytes, at: index) else {
                    throw HLSParseError(
                        .invalidUTF8, line: lineNumber, byteOffset: index,
                        detail: "The byte 0x\(hex(bytes[index])) at offset \(index) does not start a valid UTF-8 sequence.",
                        advice: "Playlists must be UTF-8; re-encode the file (it may be Latin-1 or UTF-16) or check that it is not binary media."
                    )
                }
                index += length
            }
            // One byte of slack for a CR; `finishLine` checks the exact length.
            try limits.check(.maxLineLength, index - lineStart - 1, line: lineNumber, detail: lineTooLong(limits))
        }
        if lineStart < count {
            try finishLine(bytes, from: lineStart, to: count, number: lineNumber, limits: limits, into: &lines)
        }
        return lines
    }

    private static func checkHeader(_ bytes: [UInt8], from start: Int) throws(HLSParseError) {
        var index = start
        for expected in header {
            guard index < bytes.count, bytes[index] == expected else { throw notAPlaylist() }
            index += 1
        }
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        if index < bytes.count, bytes[index] == 0x0D { index += 1 }
        guard index == bytes.count || bytes[index] == 0x0A else { throw notAPlaylist() }
    }

    private static func finishLine(
        _ bytes: [UInt8], from start: Int, to end: Int, number: Int, limits: HLSParseLimits,
        into lines: inout [PlaylistLine]
    ) throws(HLSParseError) {
        var first = start
        var last = end
        if last > first, bytes[last - 1] == 0x0D { last -= 1 }
        try limits.check(.maxLineLength, last - first, line: number, detail: lineTooLong(limits))
        while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
        guard first < last, number > 1 else { return }
        guard bytes[first] == UInt8(ascii: "#") else {
            lines.append(PlaylistLine(number: number, text: String(decoding: bytes[first..<last], as: UTF8.self), content: .uri))
            return
        }
        let isTag = last - first >= 4 && bytes[first + 1] == UInt8(ascii: "E") && bytes[first + 2] == UInt8(ascii: "X") && bytes[first + 3] == UInt8(ascii: "T")
        guard isTag else { return }
        let text = String(decoding: bytes[first..<last], as: UTF8.self)
        let body = text.utf8.dropFirst()
        if let colon = body.firstIndex(of: UInt8(ascii: ":")) {
            let name = Substring(body[..<colon])
            let value = Substring(body[body.index(after: colon)...])
            lines.append(PlaylistLine(number: number, text: text, content: .tag(name: name, value: value)))
        } else {
            lines.append(PlaylistLine(number: number, text: text, content: .tag(name: Substring(body), value: nil)))
        }
    }

    private static func hex(_ byte: UInt8) -> String { TextInput.hex(byte) }

    private static func notAPlaylist() -> HLSParseError {
        HLSParseError(
            .notAPlaylist, line: 1,
            detail: "The first line is not #EXTM3U.",
            advice: "Check that the URL serves an HLS playlist (not an HTML error page, JSON or media) and that the file starts with #EXTM3U on its own line."
        )
    }

    private static func lineTooLong(_ limits: HLSParseLimits) -> String {
        "The line is longer than \(limits.maxLineLength) bytes."
    }

    private static func invalidCharacter(_ byte: UInt8, at offset: Int, line: Int) -> HLSParseError {
        let what = byte == 0 ? "a NUL byte" : byte == 0x0D ? "a carriage return not followed by a line feed" : "the control character 0x\(hex(byte))"
        return HLSParseError(
            .invalidCharacter, line: line, byteOffset: offset,
            detail: "The line contains \(what) at byte offset \(offset).",
            advice: "Lines must end with LF or CRLF and contain no control characters other than tab; check the file is text and not binary media."
        )
    }
}
