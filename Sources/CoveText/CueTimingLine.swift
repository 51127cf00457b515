/// A cue's timing line, `start --> end [settings]`, as the spec's "collect WebVTT cue timings
/// and settings" reads it.
struct CueTimingLine {
    let start: WebVTTTimestamp
    let end: WebVTTTimestamp
    /// The settings text, trimmed.
    let settings: Range<Int>

    static let arrow: [UInt8] = Array("-->".utf8)

    enum Failure: Error {
        case start(TimestampSyntax.Failure)
        case missingArrow
        case end(TimestampSyntax.Failure)

        var explanation: String {
            switch self {
            case .start(let failure): "the start time is not a WebVTT timestamp (\(failure.explanation))"
            case .missingArrow: "expected '-->' after the start time"
            case .end(let failure): "the end time is not a WebVTT timestamp (\(failure.explanation))"
            }
        }
    }

    static func parse(_ bytes: [UInt8], _ line: Line) -> Result<CueTimingLine, Failure> {
        var index = line.start
        let end = line.end
        skipWhitespace(bytes, &index, end)
        let start: WebVTTTimestamp
        switch TimestampSyntax.collect(bytes, at: &index, end: end) {
        case .success(let time): start = time
        case .failure(let failure): return .failure(.start(failure))
        }
        skipWhitespace(bytes, &index, end)
        guard end - index >= 3, bytes[index] == 0x2D, bytes[index + 1] == 0x2D, bytes[index + 2] == 0x3E else {
            return .failure(.missingArrow)
        }
        index += 3
        skipWhitespace(bytes, &index, end)
        let finish: WebVTTTimestamp
        switch TimestampSyntax.collect(bytes, at: &index, end: end) {
        case .success(let time): finish = time
        case .failure(let failure): return .failure(.end(failure))
        }
        skipWhitespace(bytes, &index, end)
        var settingsEnd = end
        while settingsEnd > index, SettingsText.isWhitespace(bytes[settingsEnd - 1]) { settingsEnd -= 1 }
        return .success(CueTimingLine(start: start, end: finish, settings: index..<settingsEnd))
    }

    /// Whether the line contains `-->` anywhere, which makes it a timing line to the spec.
    static func containsArrow(_ bytes: [UInt8], _ line: Line) -> Bool {
        guard line.end - line.start >= 3 else { return false }
        var index = line.start
        while index + 2 < line.end {
            if bytes[index + 2] == 0x3E, bytes[index + 1] == 0x2D, bytes[index] == 0x2D { return true }
            index += 1
        }
        return false
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int, _ end: Int) {
        while index < end, SettingsText.isWhitespace(bytes[index]) { index += 1 }
    }
}
