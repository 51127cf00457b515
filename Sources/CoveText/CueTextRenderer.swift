/// Cue text as plain text: what a renderer that does not style cues shows, and what search,
/// accessibility and logs want.
public enum WebVTTCueText {
    /// The cue text with every tag removed (`<c.class>`, `<i>`, `<b>`, `<u>`, `<ruby>`, `<rt>`,
    /// `<v Speaker>`, `<lang en>`, timestamp tags such as `<00:00:01.000>`, and their end tags)
    /// and character references decoded.
    ///
    /// The result is the text content of the cue, as the DOM's `textContent` of a browser's
    /// `getCueAsHTML()` gives it: the text inside `<rt>` is kept, and a `<` that opens no closed
    /// tag swallows the rest of the text, exactly as the spec's tokenizer does (authors must
    /// write `&lt;`). Named references `&amp; &lt; &gt; &lrm; &rlm; &nbsp; &quot; &apos;` need
    /// their `;`; unknown ones stay as written. Numeric ones (`&#233;`, `&#xE9;`) may omit it;
    /// those naming no Unicode scalar (zero, surrogates, beyond U+10FFFF) become U+FFFD.
    public static func plainText(_ payload: String) -> String {
        var needsWork = false
        for byte in payload.utf8 where byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") {
            needsWork = true
            break
        }
        guard needsWork else { return payload }
        let bytes = Array(payload.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                index += 1
            } else if byte == UInt8(ascii: "&"), let (scalar, length) = CharacterReference.decode(bytes, at: index) {
                output.append(contentsOf: String(scalar).utf8)
                index += length
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// HTML character references, limited to what cue text uses.
enum CharacterReference {
    private static let named: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
        "nbsp": "\u{00A0}", "lrm": "\u{200E}", "rlm": "\u{200F}",
    ]
    private static let longestName = 4

    /// The character referred to at `index` (which holds `&`) and the reference's length in
    /// bytes, or nil when there is no reference there (the `&` is then literal).
    static func decode(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        var cursor = index + 1
        guard cursor < bytes.count else { return nil }
        if bytes[cursor] == UInt8(ascii: "#") {
            return numeric(bytes, at: index)
        }
        while cursor < bytes.count, cursor - index - 1 <= longestName, isAlphanumeric(bytes[cursor]) { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";"), cursor > index + 1 else { return nil }
        let name = String(decoding: bytes[(index + 1)..<cursor], as: UTF8.self)
        guard let scalar = named[name] else { return nil }
        return (scalar, cursor + 1 - index)
    }

    private static func numeric(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        var cursor = index + 2
        var radix: UInt32 = 10
        if cursor < bytes.count, bytes[cursor] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            cursor += 1
        }
        let digitsStart = cursor
        var value: UInt32 = 0
        while cursor < bytes.count, let digit = digitValue(bytes[cursor], radix: radix) {
            // Saturate: anything past U+10FFFF is replaced the same way however large it is.
            value = min(value * radix + digit, 0x11_0000)
            cursor += 1
        }
        guard cursor > digitsStart else { return nil }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";") { cursor += 1 }
        let scalar = value == 0 ? nil : Unicode.Scalar(value)
        return (scalar ?? "\u{FFFD}", cursor - index)
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        TimestampSyntax.isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }
}
