import CoveInput

/// One line of the input: a byte range without its line ending, and its 1-based number.
struct Line {
    let start: Int
    let end: Int
    let number: Int

    var isEmpty: Bool { start == end }
    var range: Range<Int> { start..<end }
}

/// Splits validated bytes into lines on demand (LF, CRLF and a lone CR all end a line, as the
/// spec's normalisation makes them), without copying. One line can be pushed back, which is all
/// the spec's block algorithm needs ("let position be previous position").
struct LineReader {
    private let bytes: [UInt8]
    private let limits: WebVTTParseLimits
    private var position: Int
    private var nextNumber = 1
    private var pushedBack: Line?

    init(_ bytes: [UInt8], from start: Int, limits: WebVTTParseLimits) {
        self.bytes = bytes
        self.position = start
        self.limits = limits
    }

    /// The next line, or nil at the end of the input. A final line ending does not start a line.
    mutating func next() throws(WebVTTParseError) -> Line? {
        if let line = pushedBack {
            pushedBack = nil
            return line
        }
        let count = bytes.count
        guard position < count else { return nil }
        let start = position
        let end = bytes.withUnsafeBufferPointer { buffer in
            var index = start
            while index < count {
                let byte = buffer[index]
                if byte == 0x0A || byte == 0x0D { break }
                index += 1
            }
            return index
        }
        var after = end
        if after < count {
            after += bytes[after] == 0x0D && after + 1 < count && bytes[after + 1] == 0x0A ? 2 : 1
        }
        position = after
        let line = Line(start: start, end: end, number: nextNumber)
        nextNumber += 1
        try limits.check(.maxLineLength, end - start, line: line.number, detail: "The line is \(end - start) bytes long; the limit is \(limits.maxLineLength).")
        return line
    }

    mutating func pushBack(_ line: Line) {
        pushedBack = line
    }
}
