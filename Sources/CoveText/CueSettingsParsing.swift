/// "Parse the WebVTT cue settings" from the spec: whitespace-separated `name:value` pairs.
extension WebVTTCueSettings {
    /// Reads settings text. `regionIDs` are the regions defined so far (a `region:` setting
    /// naming any other id is ignored).
    init(parsing text: Substring, regionIDs: Set<String>) {
        var vertical: Vertical?
        var line: Line?
        var position: Position?
        var size: Double?
        var align: TextAlignment?
        var region: String?
        // Split on bytes: settings are ASCII keywords, and this runs for every cue.
        for tokenBytes in text.utf8.split(whereSeparator: SettingsText.isWhitespace) {
            let token = Substring(tokenBytes)
            guard let colon = tokenBytes.firstIndex(of: UInt8(ascii: ":")),
                colon != token.startIndex, token.utf8.index(after: colon) != token.endIndex
            else { continue }
            let value = token[token.utf8.index(after: colon)...]
            switch token[..<colon] {
            case "region":
                region = regionIDs.contains(String(value)) ? String(value) : nil
            case "vertical":
                if let parsed = Vertical(rawValue: String(value)) { vertical = parsed }
            case "line":
                if let parsed = Self.parseLine(value) { line = parsed }
            case "position":
                if let parsed = Self.parsePosition(value) { position = parsed }
            case "size":
                if let parsed = SettingsText.percentage(value) { size = parsed }
            case "align":
                if let parsed = TextAlignment(rawValue: String(value)) { align = parsed }
            default:
                continue
            }
        }
        if vertical != nil || line != nil || size != nil { region = nil }
        self.init(
            vertical: vertical, line: line, position: position, size: size, align: align,
            region: region, raw: String(text)
        )
    }

    private static func parseLine(_ value: Substring) -> Line? {
        let (number, alignmentText) = SettingsText.splitAtComma(value)
        var alignment: LineAlignment?
        if let alignmentText {
            guard let parsed = LineAlignment(rawValue: String(alignmentText)) else { return nil }
            alignment = parsed
        }
        guard number.contains(where: { $0.isASCII && $0.isNumber }) else { return nil }
        if number.last == "%" {
            guard let percentage = SettingsText.percentage(number) else { return nil }
            return Line(position: .percentage(percentage), alignment: alignment)
        }
        guard let lineNumber = SettingsText.lineNumber(number) else { return nil }
        return Line(position: .lineNumber(lineNumber), alignment: alignment)
    }

    private static func parsePosition(_ value: Substring) -> Position? {
        let (number, alignmentText) = SettingsText.splitAtComma(value)
        var alignment: PositionAlignment?
        if let alignmentText {
            guard let parsed = PositionAlignment(rawValue: String(alignmentText)) else { return nil }
            alignment = parsed
        }
        guard let percentage = SettingsText.percentage(number) else { return nil }
        return Position(percentage: percentage, alignment: alignment)
    }
}

/// The small value grammars shared by cue settings and region settings.
enum SettingsText {
    /// The spec's "ASCII whitespace" that can occur inside a line.
    static func isWhitespace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\u{0C}"
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0C
    }

    static func trimmed(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, isWhitespace(first) { result.removeFirst() }
        while let last = result.last, isWhitespace(last) { result.removeLast() }
        return result
    }

    static func splitAtComma(_ value: Substring) -> (Substring, Substring?) {
        guard let comma = value.firstIndex(of: ",") else { return (value, nil) }
        return (value[..<comma], value[value.index(after: comma)...])
    }

    /// "Parse a percentage string": `digits[.digits]%`, from 0 to 100.
    static func percentage(_ text: Substring) -> Double? {
        guard text.last == "%" else { return nil }
        let number = text.dropLast()
        guard isDecimal(number, allowMinus: false), let value = Double(number), value >= 0, value <= 100 else {
            return nil
        }
        return value
    }

    /// A `line:` number: an optional leading `-`, digits, at most one `.` with digits on both sides.
    static func lineNumber(_ text: Substring) -> Double? {
        guard isDecimal(text, allowMinus: true), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private static func isDecimal(_ text: Substring, allowMinus: Bool) -> Bool {
        var utf8 = text.utf8[...]
        if allowMinus, utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        var seenDot = false
        var digitsBefore = 0
        var digitsAfter = 0
        for byte in utf8 {
            if TimestampSyntax.isDigit(byte) {
                if seenDot { digitsAfter += 1 } else { digitsBefore += 1 }
            } else if byte == UInt8(ascii: "."), !seenDot {
                seenDot = true
            } else {
                return false
            }
        }
        return digitsBefore > 0 && (!seenDot || digitsAfter > 0)
    }
}
