import CoveInput

/// The whole-file steps before the spec's parser algorithm reads a line.
///
/// First Cove's own guard: UTF-16 text and binary data (`BinarySniff`) are refused with an error
/// that says what they are. Then the spec's own preprocessing: "UTF-8 decode" replaces each
/// ill-formed sequence with U+FFFD, and the parser algorithm's first step replaces every U+0000
/// with U+FFFD, so a NUL in a cue id, its text or a setting costs one character, not the file.
/// The replacement is done once, on the bytes, so every later step can still slice lines out of
/// well-formed UTF-8 without re-validating; line endings are left to `LineReader`, which treats
/// CR, LF and CRLF as the spec's normalisation does.
enum InputCheck {
    /// The bytes to parse (the input itself when it needed no replacement) and the warnings that
    /// say what was replaced.
    struct Prepared {
        let bytes: [UInt8]
        let warnings: [WebVTTWarning]
    }

    static func prepare(_ bytes: [UInt8], from start: Int) throws(WebVTTParseError) -> Prepared {
        if BinarySniff.isUTF16(bytes, from: start) {
            throw WebVTTParseError(
                .invalidUTF8, line: 1, byteOffset: 0,
                detail: "The data is UTF-16 text (it starts with a UTF-16 byte-order mark or with WEBVTT in UTF-16), not UTF-8.",
                advice: "WebVTT must be UTF-8: re-encode the file (for example iconv -f UTF-16 -t UTF-8)."
            )
        }
        if let kind = BinarySniff.kind(of: bytes, from: start) {
            throw BinarySniff.error(kind, in: bytes[start...])
        }
        guard let (first, _) = TextInput.firstProblem(bytes, from: start) else { return Prepared(bytes: bytes, warnings: []) }
        let repair = Repair(bytes, from: first)
        return Prepared(bytes: repair.bytes, warnings: repair.warnings(in: bytes, from: start))
    }

    /// The input with every NUL byte and every ill-formed UTF-8 sequence replaced by U+FFFD
    /// (EF BF BD), and where the first of each was. Ill-formed sequences are replaced as the
    /// Encoding Standard's decoder does: one U+FFFD per maximal subpart (what the standard
    /// library's UTF-8 parser reports), so `C3 28` is U+FFFD then `(`.
    private struct Repair {
        static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

        let bytes: [UInt8]
        let nul: (count: Int, first: Int?)
        let invalid: (count: Int, first: Int?)

        /// `first` is the offset of the first problem; everything before it is copied as is.
        init(_ input: [UInt8], from first: Int) {
            var output: [UInt8] = []
            output.reserveCapacity(input.count + 64)
            output.append(contentsOf: input[..<first])
            var nul: (count: Int, first: Int?) = (0, nil)
            var invalid: (count: Int, first: Int?) = (0, nil)
            input.withUnsafeBufferPointer { buffer in
                var index = first
                while index < buffer.count {
                    let byte = buffer[index]
                    if byte == 0 {
                        output.append(contentsOf: Self.replacement)
                        nul = (nul.count + 1, nul.first ?? index)
                        index += 1
                    } else if byte < 0x80 {
                        output.append(byte)
                        index += 1
                    } else if let length = TextInput.sequenceLength(buffer, at: index) {
                        output.append(contentsOf: buffer[index..<(index + length)])
                        index += length
                    } else {
                        output.append(contentsOf: Self.replacement)
                        invalid = (invalid.count + 1, invalid.first ?? index)
                        index += Self.illFormedLength(buffer, at: index)
                    }
                }
            }
            self.bytes = output
            self.nul = nul
            self.invalid = invalid
        }

        /// The length of the maximal subpart at `index`, which is ill-formed (at least 1).
        private static func illFormedLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = UnsafeBufferPointer(rebasing: buffer[index...]).makeIterator()
            if case .error(let length) = parser.parseScalar(from: &iterator) { return max(1, length) }
            return 1
        }

        /// One warning per kind of replacement, at the first one's line, in file order. The line
        /// numbers of the input are those of the output: neither NUL nor an ill-formed sequence
        /// can hold a line ending.
        func warnings(in input: [UInt8], from start: Int) -> [WebVTTWarning] {
            var found: [(offset: Int, warning: WebVTTWarning)] = []
            if let offset = nul.first {
                let line = TextInput.lineNumber(of: offset, in: input, from: start)
                let count = nul.count == 1 ? "a NUL byte" : "\(nul.count) NUL bytes"
                found.append(
                    (
                        offset,
                        WebVTTWarning(
                            .nulCharacters, line: line,
                            message:
                                "The file has \(count) (the first at byte \(offset)); each was replaced by U+FFFD, as the spec's parser does. Remove them at the source (a broken encoder or zero padding)."
                        )
                    ))
            }
            if let offset = invalid.first {
                let line = TextInput.lineNumber(of: offset, in: input, from: start)
                let count = invalid.count == 1 ? "an ill-formed UTF-8 sequence" : "\(invalid.count) ill-formed UTF-8 sequences"
                found.append(
                    (
                        offset,
                        WebVTTWarning(
                            .invalidUTF8, line: line,
                            message:
                                "The file has \(count) (the first, 0x\(TextInput.hex(input[offset])), at byte \(offset)); each was replaced by U+FFFD, as the spec's UTF-8 decoding does. Re-encode the file as UTF-8 (it may be Latin-1 or Windows-1252)."
                        )
                    ))
            }
            return found.sorted { $0.offset < $1.offset }.map(\.warning)
        }
    }
}
