import CoveInput

/// The spec's WebVTT parser algorithm over a `LineReader`: the signature line, the header
/// block, then blocks separated by blank lines, each one a cue, a `STYLE`, a `REGION`, a `NOTE`
/// or something ignored. Keeps the spec's quirks on purpose (a line containing `-->` ends the
/// block before it; `STYLE` and `REGION` only count before the first cue; a cue whose end is not
/// after its start is kept), because files are authored against browsers and must mean the same
/// here. The steps before it (binary input, decoding, NUL) are `InputCheck`'s.
struct WebVTTParser {
    private let bytes: [UInt8]
    private let options: WebVTTParseOptions
    private var limits: WebVTTParseLimits { options.limits }
    private var reader: LineReader
    private var seenCue = false
    private var headerLines: [String] = []
    private var regions: [WebVTTRegion] = []
    /// The ids in `regions`, so a cue's `region:` setting is found without a scan.
    private var regionIDs: Set<String> = []
    /// `REGION` blocks seen, bounded so that redefining ids cannot make replacement quadratic.
    private var regionBlocks = 0
    private var styleSheets: [String] = []
    private var cues: [WebVTTCue] = []
    private var cueLines: [Int] = []
    private var notes: [String] = []
    private var noteCount = 0
    private var warnings: WarningLog
    /// The current block's lines, kept between blocks to reuse its storage.
    private var buffer: [Range<Int>] = []

    private static let signature = Array("WEBVTT".utf8)

    static func parse(_ input: [UInt8], options: WebVTTParseOptions) throws(WebVTTParseError) -> WebVTTDocument {
        // The spec's UTF-8 decode drops one byte-order mark (a second one is text).
        let start = TextInput.byteOrderMarkLength(input)
        guard start < input.count else {
            throw WebVTTParseError(
                .missingHeader, line: nil,
                detail: "The data is empty.",
                advice: "Check that the URL serves a WebVTT file and that the whole response body was read."
            )
        }
        let prepared = try InputCheck.prepare(input, from: start)
        var parser = WebVTTParser(bytes: prepared.bytes, start: start, options: options)
        prepared.warnings.forEach { parser.record($0) }
        return try parser.run(from: start)
    }

    private init(bytes: [UInt8], start: Int, options: WebVTTParseOptions) {
        self.bytes = bytes
        self.options = options
        self.reader = LineReader(bytes, from: start, limits: options.limits)
        self.warnings = WarningLog(limit: options.limits.maxWarnings)
    }

    private mutating func run(from start: Int) throws(WebVTTParseError) -> WebVTTDocument {
        let headerText = try readSignature(from: start)
        if let line = try reader.next(), !line.isEmpty {
            reader.pushBack(line)
            try collectBlock(inHeader: true)
        }
        let timestampMap = timestampMap()
        while let line = try reader.next() {
            if line.isEmpty { continue }
            reader.pushBack(line)
            try collectBlock(inHeader: false)
        }
        return WebVTTDocument(
            headerText: headerText, headerLines: headerLines, timestampMap: timestampMap,
            regions: regions, styleSheets: styleSheets, cues: cues, cueLines: cueLines,
            notes: notes, noteCount: noteCount, warnings: warnings.items, omittedWarningCount: warnings.omitted,
            warningLimit: limits.maxWarnings
        )
    }

    /// Checks the first line is `WEBVTT`, alone or followed by a space or tab and any text,
    /// and returns that text, trimmed. The signature is checked on the raw bytes before the line
    /// is read, so a long first line of something else is reported as not WebVTT.
    private mutating func readSignature(from start: Int) throws(WebVTTParseError) -> String {
        let after = start + Self.signature.count
        guard after <= bytes.count, bytes[start..<after].elementsEqual(Self.signature),
            after == bytes.count || [0x20, 0x09, 0x0A, 0x0D].contains(bytes[after])
        else {
            throw WebVTTParseError(
                .missingHeader, line: 1,
                detail: "The first line is not WEBVTT.",
                advice:
                    "Check that the URL serves WebVTT (not SRT, TTML, an HTML error page or media); a WebVTT file starts with WEBVTT on its own line or followed by a space and a title."
            )
        }
        guard let line = try reader.next() else { return "" }
        return String(SettingsText.trimmed(Substring(text(after..<line.end))))
    }

    /// "Collect a WebVTT block": reads lines up to a blank line (or up to a line containing
    /// `-->` that cannot belong to this block) and files the block where it belongs.
    private mutating func collectBlock(inHeader: Bool) throws(WebVTTParseError) {
        buffer.removeAll(keepingCapacity: true)
        var lineCount = 0
        var firstLine = 0
        var seenArrow = false
        var timing: CueTimingLine?
        var timingLine = 0
        var identifier: Range<Int>?
        var skipped: SkippedCue?
        var kind = BlockKind.unknown

        while let line = try reader.next() {
            lineCount += 1
            if lineCount == 1 { firstLine = line.number }
            if CueTimingLine.containsArrow(bytes, line) {
                guard !inHeader, lineCount == 1 || (lineCount == 2 && !seenArrow) else {
                    reader.pushBack(line)
                    break
                }
                seenArrow = true
                switch CueTimingLine.parse(bytes, line) {
                case .success(let parsed):
                    timing = parsed
                    timingLine = line.number
                    identifier = buffer.first
                    buffer.removeAll(keepingCapacity: true)
                    seenCue = true
                case .failure(let failure):
                    skipped = SkippedCue(failure: failure, line: line)
                }
                continue
            }
            if line.isEmpty { break }
            if !inHeader, lineCount == 2, !seenCue, let first = buffer.first {
                if startsBlock(first, with: "STYLE", wholeLine: true) {
                    kind = .style
                    buffer.removeAll(keepingCapacity: true)
                } else if startsBlock(first, with: "REGION", wholeLine: true) {
                    kind = .region
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            let isCue = timing != nil
            let limit: WebVTTParseLimits.Limit = isCue ? .maxCueTextLines : .maxBlockLines
            try limits.check(
                limit, buffer.count + 1, line: line.number, detail: "The block starting at line \(firstLine) has more than \(limits.value(of: limit)) lines.")
            buffer.append(line.range)
        }

        if let timing {
            try addCue(timing, line: timingLine, identifier: identifier)
        } else if kind == .style {
            try addStyleSheet(line: firstLine)
        } else if kind == .region {
            try addRegion(line: firstLine)
        } else if inHeader {
            headerLines = buffer.map(text)
        } else if let skipped {
            if options.failOnSkippedCue {
                let warning = warning(for: skipped)
                throw WebVTTParseError(
                    .badTimestamp, line: warning.line, detail: warning.message,
                    advice: "Fix the cue, or parse without WebVTTParseOptions.failOnSkippedCue to skip it as browsers do."
                )
            }
            record(warnings.isFull ? nil : warning(for: skipped))
        } else if let first = buffer.first, startsBlock(first, with: "NOTE", wholeLine: false) {
            try addNote(line: firstLine)
        } else if lineCount > 0 {
            record(warnings.isFull ? nil : unrecognized(line: firstLine))
        }
    }

    private enum BlockKind {
        case unknown
        case style
        case region
    }

    /// Why a block with a timing line gave no cue; the warning text is only built if kept.
    private struct SkippedCue {
        let failure: CueTimingLine.Failure
        let line: Line
    }

    private func warning(for skipped: SkippedCue) -> WebVTTWarning {
        WebVTTWarning(
            .badTimestamp, line: skipped.line.number,
            message:
                "The cue timing line \(snippet(skipped.line.range)) is malformed: \(skipped.failure.explanation); the cue was skipped. Write it as 'mm:ss.ttt --> mm:ss.ttt' or 'hh:mm:ss.ttt --> hh:mm:ss.ttt'."
        )
    }

    /// The spec keeps a cue whose end is not after its start (it is simply never active), so it
    /// is kept here too; the warning says why it never shows. `failOnSkippedCue` refuses it.
    private mutating func checkDuration(_ timing: CueTimingLine, line: Int) throws(WebVTTParseError) {
        guard timing.end <= timing.start else { return }
        // Past the warning limit a warning costs a count, not a message.
        if warnings.isFull, !options.failOnSkippedCue { return record(nil) }
        let message: String
        if timing.end == timing.start {
            message = "The cue ends when it starts (\(timing.start)); it is kept, as the spec says, but is never shown. Give it a duration."
        } else {
            message =
                "The cue ends (\(timing.end)) before it starts (\(timing.start)); it is kept, as the spec says, but is never shown. Swap or correct the times."
        }
        if options.failOnSkippedCue {
            throw WebVTTParseError(
                .endBeforeStart, line: line, detail: message,
                advice: "Fix the cue, or parse without WebVTTParseOptions.failOnSkippedCue to keep it as the spec does."
            )
        }
        record(WebVTTWarning(.endBeforeStart, line: line, message: message))
    }

    private mutating func addCue(_ timing: CueTimingLine, line: Int, identifier: Range<Int>?) throws(WebVTTParseError) {
        try limits.check(.maxCues, cues.count + 1, line: line, detail: "The file has more than \(limits.maxCues) cues.")
        try checkDuration(timing, line: line)
        let payload = joinedBuffer()
        let settings =
            timing.settings.isEmpty
            ? WebVTTCueSettings.none
            : WebVTTCueSettings(parsing: Substring(text(timing.settings)), regionIDs: regionIDs)
        cues.append(
            WebVTTCue(
                identifier: identifier.map(text), start: timing.start, end: timing.end, settings: settings,
                payload: payload, text: options.cueText == .plain ? WebVTTCueText.plainText(payload) : payload
            ))
        cueLines.append(line)
    }

    private mutating func addStyleSheet(line: Int) throws(WebVTTParseError) {
        try limits.check(.maxStyleSheets, styleSheets.count + 1, line: line, detail: "The file has more than \(limits.maxStyleSheets) STYLE blocks.")
        styleSheets.append(joinedBuffer())
    }

    private mutating func addRegion(line: Int) throws(WebVTTParseError) {
        regionBlocks += 1
        try limits.check(.maxRegions, regionBlocks, line: line, detail: "The file has more than \(limits.maxRegions) REGION blocks.")
        guard let region = WebVTTRegion(parsing: joinedBuffer()) else {
            record(WebVTTWarning(.invalidRegion, line: line, message: "The REGION block has no id; it was ignored. Add 'id:<name>' so cues can refer to it."))
            return
        }
        if regionIDs.contains(region.id) { regions.removeAll { $0.id == region.id } }
        regions.append(region)
        regionIDs.insert(region.id)
    }

    private mutating func addNote(line: Int) throws(WebVTTParseError) {
        noteCount += 1
        guard options.keepNotes else { return }
        try limits.check(.maxNotes, notes.count + 1, line: line, detail: "The file has more than \(limits.maxNotes) NOTE blocks.")
        var lines = buffer.dropFirst().map(text)
        let rest = SettingsText.trimmed(Substring(text(buffer[0].lowerBound + 4..<buffer[0].upperBound)))
        if !rest.isEmpty { lines.insert(String(rest), at: 0) }
        notes.append(lines.joined(separator: "\n"))
    }

    /// Keeps a warning, or counts it when the log is full (nil: not built for that reason).
    mutating func record(_ warning: WebVTTWarning?) {
        if let warning { warnings.add(warning) } else { warnings.countOmitted() }
    }

    private func unrecognized(line: Int) -> WebVTTWarning {
        let first = buffer[0]
        if seenCue, startsBlock(first, with: "STYLE", wholeLine: true) || startsBlock(first, with: "REGION", wholeLine: true) {
            return WebVTTWarning(
                .unrecognizedBlock, line: line,
                message: "A STYLE or REGION block after the first cue is ignored, as the spec requires. Move it before the cues."
            )
        }
        return WebVTTWarning(
            .unrecognizedBlock, line: line,
            message: "The block starting \(snippet(first)) has no cue timing line ('-->') and is not NOTE, STYLE or REGION; it was ignored."
        )
    }

    /// Whether `line` is `keyword` followed by nothing but whitespace (`wholeLine`, as the spec
    /// requires for `STYLE` and `REGION`) or by nothing, a space or a tab (`NOTE`).
    private func startsBlock(_ line: Range<Int>, with keyword: StaticString, wholeLine: Bool) -> Bool {
        let length = keyword.utf8CodeUnitCount
        guard line.count >= length else { return false }
        let matches = keyword.withUTF8Buffer { expected in
            bytes[line.lowerBound..<(line.lowerBound + length)].elementsEqual(expected)
        }
        guard matches else { return false }
        let rest = bytes[(line.lowerBound + length)..<line.upperBound]
        if wholeLine { return rest.allSatisfy(SettingsText.isWhitespace) }
        return rest.first.map { $0 == 0x20 || $0 == 0x09 } ?? true
    }

    /// The block's lines joined with `\n`; one slice of the input when they were LF-separated.
    private func joinedBuffer() -> String {
        guard let first = buffer.first, let last = buffer.last else { return "" }
        var contiguous = true
        var previous = first
        for range in buffer.dropFirst() {
            if range.lowerBound != previous.upperBound + 1 || bytes[previous.upperBound] != 0x0A {
                contiguous = false
                break
            }
            previous = range
        }
        if contiguous { return text(first.lowerBound..<last.upperBound) }
        return buffer.map(text).joined(separator: "\n")
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// A short quotation of the input for a warning.
    private func snippet(_ range: Range<Int>) -> String {
        var end = min(range.upperBound, range.lowerBound + 40)
        // Do not cut a UTF-8 sequence in half.
        while end < range.upperBound, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        let cut = end < range.upperBound ? "…" : ""
        return "'" + text(range.lowerBound..<end) + cut + "'"
    }

    private mutating func timestampMap() -> WebVTTTimestampMap? {
        let prefix = WebVTTTimestampMap.headerPrefix
        guard let index = headerLines.firstIndex(where: { $0.hasPrefix(prefix) }) else { return nil }
        switch WebVTTTimestampMap.parse(headerLines[index].dropFirst(prefix.count)) {
        case .success(let map):
            return map
        case .failure(let failure):
            record(
                WebVTTWarning(
                    .invalidTimestampMap, line: index + 2,
                    message:
                        "X-TIMESTAMP-MAP is malformed (\(failure.reason)); cue times are not mapped. Write it as X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:900000."
                ))
            return nil
        }
    }
}
