/// Helpers every builder uses to read a tag's value and report problems with it.
struct TagReader {
    let line: PlaylistLine
    let name: Substring
    let value: Substring?
    let limits: HLSParseLimits

    var tag: String { String(name) }

    func error(_ kind: HLSParseError.Kind, _ detail: String, advice: String) -> HLSParseError {
        HLSParseError(kind, line: line.number, tag: tag, detail: detail, advice: advice)
    }

    /// For flag tags (`EXT-X-ENDLIST`): a value would be ignored by other players, so it is refused.
    func requireNoValue() throws(HLSParseError) {
        guard let value else { return }
        throw error(
            .invalidTagValue, "This tag takes no value, but has \(HLSParseError.snippet(value, limit: 20)).",
            advice: "Write #\(tag) on its own, without ':' or a value."
        )
    }

    func requireValue() throws(HLSParseError) -> Substring {
        guard let value, !value.isEmpty else {
            throw error(.invalidTagValue, "The tag has no value.", advice: "Write #\(tag):<value> as RFC 8216 section 4.3 describes.")
        }
        return value
    }

    func integerValue() throws(HLSParseError) -> Int {
        let text = try requireValue()
        switch Numbers.decimalInteger(text) {
        case .value(let number): return number
        case .malformed:
            throw error(
                .invalidTagValue, "\(HLSParseError.snippet(text, limit: 24)) is not a decimal integer.",
                advice: "Write a whole number of digits, without sign, decimal point or spaces.")
        case .outOfRange:
            throw error(
                .numberOutOfRange, "\(HLSParseError.snippet(text, limit: 24)) is too large to represent.",
                advice: "Check the value; it must fit in 64 bits (at most \(Int.max)).")
        }
    }

    func attributes() throws(HLSParseError) -> AttributeList {
        try AttributeList(value ?? "", tag: name, line: line.number, limits: limits)
    }

    func duplicate(of first: Int) -> HLSParseError {
        error(.duplicateTag, "The tag appears again (first on line \(first)).", advice: "Keep one #\(tag); players disagree on which one wins.")
    }

    /// Reads a tag that may appear only once: a repeat of `first` is refused before `read` runs,
    /// so the duplicate error wins over any other problem with the tag.
    func once<Value>(
        _ first: (value: Value, line: Int)?, _ read: () throws(HLSParseError) -> Value
    ) throws(HLSParseError) -> (value: Value, line: Int) {
        if let first { throw duplicate(of: first.line) }
        return (try read(), line.number)
    }
}
