/// A tag's `NAME=value,…` list, read once, then taken apart attribute by attribute with typed
/// accessors. Whatever is not taken is what the tag keeps as `otherAttributes`, so nothing is lost.
struct AttributeList {
    private var entries: [(name: String, value: HLSAttributeValue, taken: Bool)]
    let tag: String
    let line: Int

    /// Reads the list. Spaces after a comma and one trailing comma are tolerated (encoders write
    /// both); anything else outside the grammar is an error naming the attribute.
    init(_ text: Substring, tag: Substring, line: Int, limits: HLSParseLimits) throws(HLSParseError) {
        self.tag = String(tag)
        self.line = line
        self.entries = []
        let utf8 = text.utf8
        var index = utf8.startIndex
        let end = utf8.endIndex
        func skipSpaces() {
            while index < end, utf8[index] == UInt8(ascii: " ") || utf8[index] == UInt8(ascii: "\t") { utf8.formIndex(after: &index) }
        }
        while true {
            skipSpaces()
            guard index < end else { return }
            let nameStart = index
            while index < end, Self.isNameByte(utf8[index]) { utf8.formIndex(after: &index) }
            let name = String(text[nameStart..<index])
            guard index < end, utf8[index] == UInt8(ascii: "=") else {
                let next = index < end ? utf8[index] : UInt8(ascii: ",")
                if !name.isEmpty, next == UInt8(ascii: ",") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") {
                    throw error(
                        .attributeWithoutValue, attribute: name,
                        detail: "The attribute \(name) has no value.",
                        advice: "Write every attribute as NAME=value, separated by commas."
                    )
                }
                throw error(
                    .malformedAttributeList, attribute: name.isEmpty ? nil : name,
                    detail: next == UInt8(ascii: ",")
                        ? "The attribute list has an empty entry."
                        : "The attribute list has the character \"\(text[index...].prefix(1))\" in an attribute name.",
                    advice: "Attribute names are uppercase letters, digits and '-' (RFC 8216 section 4.2); write NAME=value pairs separated by single commas."
                )
            }
            guard !name.isEmpty else {
                throw error(
                    .malformedAttributeList, attribute: nil, detail: "An attribute has a value but no name.",
                    advice: "Write every attribute as NAME=value, separated by commas."
                )
            }
            utf8.formIndex(after: &index)
            let value: HLSAttributeValue
            if index < end, utf8[index] == UInt8(ascii: "\"") {
                utf8.formIndex(after: &index)
                let valueStart = index
                while index < end, utf8[index] != UInt8(ascii: "\"") { utf8.formIndex(after: &index) }
                guard index < end else {
                    throw error(
                        .unterminatedQuotedString, attribute: name,
                        detail: "The quoted value of \(name) has no closing quote.",
                        advice: "Close the quoted string on the same line; quoted strings cannot contain a double quote or a line break."
                    )
                }
                value = .quoted(String(text[valueStart..<index]))
                utf8.formIndex(after: &index)
                skipSpaces()
                guard index == end || utf8[index] == UInt8(ascii: ",") else {
                    throw error(
                        .malformedAttributeList, attribute: name,
                        detail: "Text follows the closing quote of \(name) without a comma.",
                        advice: "Separate attributes with commas and do not put a double quote inside a quoted string."
                    )
                }
            } else {
                skipSpaces()
                let valueStart = index
                while index < end, utf8[index] != UInt8(ascii: ",") {
                    if utf8[index] == UInt8(ascii: "\"") {
                        throw error(
                            .malformedAttributeList, attribute: name,
                            detail: "The value of \(name) has a double quote in the middle.",
                            advice: "Quote the whole value (NAME=\"…\") or none of it."
                        )
                    }
                    utf8.formIndex(after: &index)
                }
                var valueEnd = index
                while valueEnd > valueStart {
                    let before = utf8.index(before: valueEnd)
                    guard utf8[before] == UInt8(ascii: " ") || utf8[before] == UInt8(ascii: "\t") else { break }
                    valueEnd = before
                }
                guard valueStart < valueEnd else {
                    throw error(
                        .attributeWithoutValue, attribute: name,
                        detail: "The attribute \(name) has nothing after '='.",
                        advice: "Give \(name) a value or remove it."
                    )
                }
                value = .unquoted(String(text[valueStart..<valueEnd]))
            }
            if entries.contains(where: { $0.name == name }) {
                throw error(
                    .duplicateAttribute, attribute: name,
                    detail: "The attribute \(name) appears twice.",
                    advice: "Keep one \(name); players disagree on which one wins."
                )
            }
            guard limits.admits(.maxAttributesPerTag, entries.count + 1) else {
                let failure = limits.failure(
                    exceeding: .maxAttributesPerTag, line: line, subject: self.tag, detail: "The tag has more than \(limits.maxAttributesPerTag) attributes.")
                throw HLSParseError(failure, attribute: name)
            }
            entries.append((name, value, false))
            guard index < end else { return }
            utf8.formIndex(after: &index)
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }

    /// The attributes nobody took, in order.
    var remaining: [HLSAttribute] {
        entries.filter { !$0.taken }.map { HLSAttribute(name: $0.name, value: $0.value) }
    }

    /// Whether any attribute is left besides the ones taken (for `METHOD=NONE`, which allows no others).
    var firstRemainingName: String? { entries.first { !$0.taken }?.name }

    mutating func take(_ name: String) -> HLSAttributeValue? {
        guard let index = entries.firstIndex(where: { $0.name == name }) else { return nil }
        entries[index].taken = true
        return entries[index].value
    }

    /// Takes every attribute whose name passes `filter`, in order.
    mutating func take(where filter: (String) -> Bool) -> [HLSAttribute] {
        var taken: [HLSAttribute] = []
        for index in entries.indices where !entries[index].taken && filter(entries[index].name) {
            entries[index].taken = true
            taken.append(HLSAttribute(name: entries[index].name, value: entries[index].value))
        }
        return taken
    }

    // MARK: Typed accessors

    mutating func quotedString(_ name: String) throws(HLSParseError) -> String? {
        guard let value = take(name) else { return nil }
        guard case .quoted(let text) = value else {
            throw error(.invalidAttribute, attribute: name, detail: "\(name) must be a quoted string.", advice: "Write \(name)=\"…\".")
        }
        return text
    }

    mutating func requiredQuotedString(_ name: String) throws(HLSParseError) -> String {
        guard let text = try quotedString(name) else { throw missing(name) }
        return text
    }

    mutating func enumerated(_ name: String) throws(HLSParseError) -> String? {
        guard let value = take(name) else { return nil }
        guard case .unquoted(let text) = value else {
            throw error(
                .invalidAttribute, attribute: name,
                detail: "\(name) is an enumerated string and must not be quoted.",
                advice: "Write the value of \(name) without quotes."
            )
        }
        return text
    }

    mutating func requiredEnumerated(_ name: String) throws(HLSParseError) -> String {
        guard let text = try enumerated(name) else { throw missing(name) }
        return text
    }

    mutating func yesNo(_ name: String) throws(HLSParseError) -> Bool? {
        guard let text = try enumerated(name) else { return nil }
        switch text {
        case "YES": return true
        case "NO": return false
        default:
            throw error(
                .invalidAttribute, attribute: name,
                detail: "\(name) is \(HLSParseError.snippet(text, limit: 20)), but must be YES or NO.",
                advice: "Write \(name)=YES or \(name)=NO (uppercase)."
            )
        }
    }

    mutating func integer(_ name: String) throws(HLSParseError) -> Int? {
        try number(name, kind: "a decimal integer") { Numbers.decimalInteger($0) }
    }

    mutating func requiredInteger(_ name: String) throws(HLSParseError) -> Int {
        guard let number = try integer(name) else { throw missing(name) }
        return number
    }

    mutating func float(_ name: String, signed: Bool = false) throws(HLSParseError) -> Double? {
        try number(name, kind: signed ? "a decimal number" : "a non-negative decimal number") { Numbers.decimalFloat($0, signed: signed) }
    }

    mutating func requiredFloat(_ name: String, signed: Bool = false) throws(HLSParseError) -> Double {
        guard let number = try float(name, signed: signed) else { throw missing(name) }
        return number
    }

    mutating func hexadecimal(_ name: String, maxBytes: Int? = nil) throws(HLSParseError) -> [UInt8]? {
        guard let value = take(name) else { return nil }
        guard case .unquoted(let text) = value, let bytes = Numbers.hexadecimal(text) else {
            throw error(
                .invalidAttribute, attribute: name,
                detail: "\(name) is not a hexadecimal sequence.",
                advice: "Write \(name)=0x followed by hex digits, without quotes."
            )
        }
        if let maxBytes, bytes.count > maxBytes {
            throw error(
                .invalidAttribute, attribute: name,
                detail: "\(name) has \(bytes.count) bytes; at most \(maxBytes) are allowed.",
                advice: "Write \(name) as 0x followed by at most \(maxBytes * 2) hex digits."
            )
        }
        return bytes
    }

    mutating func resolution(_ name: String) throws(HLSParseError) -> Resolution? {
        try number(name, kind: "a resolution WIDTHxHEIGHT") { Numbers.resolution($0) }
    }

    /// Takes `name`, which must be unquoted and read by `read` as `kind`.
    private mutating func number<Value>(
        _ name: String, kind: String, _ read: (String) -> Numbers.Outcome<Value>
    ) throws(HLSParseError) -> Value? {
        guard let value = take(name) else { return nil }
        guard case .unquoted(let text) = value else { throw notANumber(name, value.text, kind: kind) }
        switch read(text) {
        case .value(let number): return number
        case .malformed: throw notANumber(name, text, kind: kind)
        case .outOfRange: throw outOfRange(name, text)
        }
    }

    // MARK: Errors

    func error(_ kind: HLSParseError.Kind, attribute: String?, detail: String, advice: String) -> HLSParseError {
        HLSParseError(kind, line: line, tag: tag, attribute: attribute, detail: detail, advice: advice)
    }

    func missing(_ name: String) -> HLSParseError {
        error(.missingAttribute, attribute: name, detail: "The required attribute \(name) is missing.", advice: "Add \(name) (RFC 8216 section 4.3).")
    }

    private func notANumber(_ name: String, _ text: String, kind: String) -> HLSParseError {
        error(
            .invalidAttribute, attribute: name,
            detail: "The value \(HLSParseError.snippet(text, limit: 24)) of \(name) is not \(kind).",
            advice: "Write \(name) as \(kind), without quotes, exponent, sign or units."
        )
    }

    private func outOfRange(_ name: String, _ text: String) -> HLSParseError {
        error(
            .numberOutOfRange, attribute: name,
            detail: "The value \(HLSParseError.snippet(text, limit: 24)) of \(name) is too large to represent.",
            advice: "Check the value; integers must fit in 64 bits (at most \(Int.max))."
        )
    }
}
