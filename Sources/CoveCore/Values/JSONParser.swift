/// A strict RFC 8259 parser over bytes.
///
/// Foundation's `JSONDecoder` accepts trailing commas, silently keeps the first of duplicate keys and
/// reports lone surrogates as type mismatches. Catalog JSON decides what plays and what is charged
/// for, so Cove parses it itself: exactly the grammar, nesting bounded before recursion, every error
/// naming the byte offset and what was expected. Duplicate keys keep the last value, as browsers do
/// (the web players read the same responses).
struct JSONParser {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses exactly one JSON value, with only whitespace around it.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw .malformed("the body is empty; expected a JSON value") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw malformed("unexpected \(describe(bytes[index])) after the JSON value") }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw malformed("the body ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw malformed("unexpected \(describe(bytes[index])); expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        index += 1
        var object: JSONObject = [:]
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                throw malformed(peek == UInt8(ascii: "}") ? "trailing comma before '}'" : "expected a quoted member name, found \(describePeek)")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw malformed("expected ':' after member name \"\(key.prefix(40))\", found \(describePeek)") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue(depth: depth)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(object)
            default: throw malformed("expected ',' or '}' in an object, found \(describePeek)")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "]") { throw malformed("trailing comma before ']'") }
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(array)
            default: throw malformed("expected ',' or ']' in an array, found \(describePeek)")
            }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        // The whole document was validated as UTF-8 up front, and runs break only at ASCII bytes,
        // which never sit inside a multi-byte sequence: each run is valid UTF-8 already.
        func flushRun(_ bytes: ArraySlice<UInt8>, into scalars: inout String.UnicodeScalarView) {
            guard !bytes.isEmpty else { return }
            scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
        }
        while true {
            guard index < bytes.count else {
                index = start
                throw malformed("unterminated string")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flushRun(bytes[runStart..<index], into: &scalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun(bytes[runStart..<index], into: &scalars)
                index += 1
                guard index < bytes.count else { throw malformed("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
                default:
                    index -= 2
                    throw malformed("invalid escape \\\(describeCharacter(escape)) in a string")
                }
                runStart = index
            case 0x00..<0x20:
                throw malformed("unescaped control character \(describe(byte)) in a string")
            default:
                index += 1
            }
        }
    }

    /// After `\u`: four hex digits, a surrogate pair when the first is a high surrogate.
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        switch first {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw malformed("lone high surrogate \\u\(hex(first)) in a string")
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw malformed("high surrogate \\u\(hex(first)) is not followed by a low surrogate") }
            let value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            return Unicode.Scalar(value)!
        case 0xDC00...0xDFFF:
            throw malformed("lone low surrogate \\u\(hex(first)) in a string")
        default:
            return Unicode.Scalar(UInt32(first))!
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw malformed("\\u needs four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed("\\u needs four hex digits, found \(describe(byte))")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, isDigit(first) else { throw malformed("a number needs digits after '-'") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek, isDigit(next) {
                index = start
                throw malformed("numbers cannot have leading zeros")
            }
        } else {
            while let byte = peek, isDigit(byte) { index += 1 }
        }
        if peek == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = peek, isDigit(byte) else { throw malformed("a number needs digits after '.'") }
            while let byte = peek, isDigit(byte) { index += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek, isDigit(byte) else { throw malformed("a number needs digits in its exponent") }
            while let byte = peek, isDigit(byte) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            index = start
            throw malformed("the number \(text.prefix(40)) is out of range")
        }
        return .double(double)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(expected) else {
            throw malformed("unexpected \(describe(bytes[index])); expected a value")
        }
        index += count
    }

    // MARK: Helpers

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private var describePeek: String { peek.map(describe) ?? "the end of the body" }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func malformed(_ what: String) -> JSONParseError { .malformed("\(what) at byte \(index)") }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(UInt16(byte), width: 2))"
    }

    private func describeCharacter(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "(0x\(hex(UInt16(byte), width: 2)))"
    }

    private func hex(_ value: UInt16, width: Int = 4) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
