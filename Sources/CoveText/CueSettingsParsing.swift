/// "Parse the WebVTT cue settings" from the spec: whitespace-separated `name:value` pairs, read
/// in order, each one applied on its own. Order matters as the spec says it does: a later valid
/// setting replaces an earlier one, an alignment given once (`line:1,end`) survives a later
/// setting of the same name without one (`line:2`), and a cue leaves its region when a `vertical`,
/// `line` or `size` other than 100% comes after the `region:` setting, not before it.
extension WebVTTCueSettings {
    /// Reads settings text. `regionIDs` are the regions defined so far (a `region:` setting
    /// naming any other id sets no region).
    init(parsing text: Substring, regionIDs: Set<String>) {
        var vertical: Vertical?
        var line: LinePosition?
        var lineAlignment: LineAlignment?
        var position: Double?
        var positionAlignment: PositionAlignment?
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
                // The last region with this id, or none: an unknown id clears an earlier one.
                region = regionIDs.contains(String(value)) ? String(value) : nil
            case "vertical":
                if let parsed = Vertical(rawValue: String(value)) { vertical = parsed }
                // Run for any value once the direction is vertical: there are no vertical regions.
                if vertical != nil { region = nil }
            case "line":
                guard let parsed = Self.parseLine(value) else { continue }
                line = parsed.position
                if let alignment = parsed.alignment { lineAlignment = alignment }
                // Explicitly positioned with a line offset: the cue drops out of its region.
                region = nil
            case "position":
                guard let parsed = Self.parsePosition(value) else { continue }
                position = parsed.percentage
                if let alignment = parsed.alignment { positionAlignment = alignment }
            case "size":
                guard let parsed = SettingsText.percentage(value) else { continue }
                size = parsed
                // Explicitly sized: the cue drops out of its region (100% is the default size).
                if parsed != 100 { region = nil }
            case "align":
                if let parsed = TextAlignment(rawValue: String(value)) { align = parsed }
            default:
                continue
            }
        }
        self.init(
            vertical: vertical, line: line.map { Line(position: $0, alignment: lineAlignment) },
            position: position.map { Position(percentage: $0, alignment: positionAlignment) }, size: size, align: align,
            region: region, raw: String(text)
        )
    }

    /// `linepos[,linealign]`: both must be valid for the setting to count.
    private static func parseLine(_ value: Substring) -> Line? {
        let (number, alignmentText) = SettingsText.splitAtComma(value)
        var alignment: LineAlignment?
        if let alignmentText {
            guard let parsed = LineAlignment(rawValue: String(alignmentText)) else { return nil }
            alignment = parsed
        }
        guard number.utf8.contains(where: TimestampSyntax.isDigit) else { return nil }
        if number.last == "%" {
            guard let percentage = SettingsText.percentage(number) else { return nil }
            return Line(position: .percentage(percentage), alignment: alignment)
        }
        guard let lineNumber = SettingsText.lineNumber(number) else { return nil }
        return Line(position: .lineNumber(lineNumber), alignment: alignment)
    }

    /// `colpos[,colalign]`: both must be valid for the setting to count.
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
    /// Read with HTML's rules for floating-point numbers, which give 0 for `-0`.
    static func lineNumber(_ text: Substring) -> Double? {
        guard isDecimal(text, allowMinus: true), let value = Double(text), value.isFinite else { return nil }
        return value == 0 ? 0 : value
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
