import CoveTesting
import CoveText
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    @Test func binaryJunkIsRefused() {
        var random = SeededRandom(seed: 0x5EED)
        for _ in 0..<500 {
            let junk = random.bytes(random.int(1...2_000))
            do {
                _ = try WebVTT.parse(junk)
                Issue.record("random bytes parsed")
            } catch {
                #expect(!error.description.isEmpty)
            }
            // Junk behind a valid header is decoded as the spec says (U+FFFD for what is not
            // UTF-8) or refused as binary; either way the document's invariants hold.
            #expect(WebVTTFuzz.check(Array("WEBVTT\n\n".utf8) + junk) == nil)
        }
    }

    /// Issue 32: a NUL byte no longer fails the file; the spec replaces it with U+FFFD.
    @Test func nulByteIsReplacedNotFatal() throws {
        let bytes = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nab".utf8) + [0] + Array("c\n".utf8)
        let document = try WebVTT.parse(bytes)
        #expect(document.cues.map(\.payload) == ["ab\u{FFFD}c"])
        #expect(document.warnings.map(\.kind) == [.nulCharacters])
        #expect(document.warnings.first?.line == 4)
        #expect(document.warnings.first?.message.contains("byte 34") == true)
    }

    /// Issue 32: ill-formed UTF-8 no longer fails the file; the spec's UTF-8 decode replaces each
    /// maximal subpart with U+FFFD (so `C0 80` is two, `E2 82` cut short is one).
    @Test(
        arguments: [
            ([0xFF], 1),
            ([0xC0, 0x80], 2),
            ([0xED, 0xA0, 0x80], 3),
            ([0xF4, 0x90, 0x80, 0x80], 4),
            ([0xE2, 0x82], 1),
            ([0x80], 1),
        ] as [([UInt8], Int)])
    func invalidUTF8IsReplacedWithAWarning(bad: [UInt8], replacements: Int) throws {
        let prefix = Array("WEBVTT\r\n\r\n00:00.000 --> 00:01.000\r\nok ".utf8)
        let document = try WebVTT.parse(prefix + bad)
        #expect(document.cues.map(\.payload) == ["ok " + String(repeating: "\u{FFFD}", count: replacements)])
        #expect(document.cues.map(\.payload) == [String(decoding: prefix + bad, as: UTF8.self).components(separatedBy: "\r\n").last ?? ""])
        #expect(document.warnings.map(\.kind) == [.invalidUTF8])
        #expect(document.warnings.first?.line == 4)
        #expect(document.warnings.first?.message.contains("byte \(prefix.count)") == true)
    }

    @Test func utf16IsExplained() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("WEBVTT".utf8).flatMap { [$0, 0] }
        let error = expectFailure(utf16, .invalidUTF8, line: 1)
        #expect(error?.detail.contains("UTF-16") == true)
    }

    @Test func hugeLineIsALimit() {
        let long = "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "x", count: 70_000)
        expectFailure(long, .limitExceeded(.maxLineLength, limit: 65_536), line: 4)
        // A line exactly at the limit is fine.
        var options = WebVTTParseOptions()
        options.limits.maxLineLength = 70_000
        #expect((try? parse(long, options: options))?.cues.first?.payload.utf8.count == 70_000)
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let options = WebVTTParseOptions(limits: WebVTTParseLimits(maxBytes: 100))
        let error = expectFailure(String(repeating: "x", count: 101), .limitExceeded(.maxBytes, limit: 100), line: nil, options: options)
        #expect(error?.description.contains("maxBytes") == true)
    }

    @Test func countLimits() {
        let cues = "WEBVTT\n\n" + (0..<11).map { "00:00.000 --> 00:01.000\ncue \($0)\n" }.joined(separator: "\n")
        expectFailure(cues, .limitExceeded(.maxCues, limit: 10), line: 3 + 10 * 3, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxCues: 10)))

        let tall = "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "line\n", count: 6)
        expectFailure(tall, .limitExceeded(.maxCueTextLines, limit: 5), line: 9, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxCueTextLines: 5)))

        let note = "WEBVTT\n\nNOTE\n" + String(repeating: "line\n", count: 5)
        expectFailure(note, .limitExceeded(.maxBlockLines, limit: 5), line: 8, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxBlockLines: 5)))
        let header = "WEBVTT\n" + String(repeating: "Meta: x\n", count: 6)
        expectFailure(header, .limitExceeded(.maxBlockLines, limit: 5), line: 7, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxBlockLines: 5)))

        let regions = "WEBVTT\n\n" + (0..<3).map { "REGION\nid:r\($0)\n" }.joined(separator: "\n")
        expectFailure(regions, .limitExceeded(.maxRegions, limit: 2), line: 9, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxRegions: 2)))

        let styles = "WEBVTT\n\n" + String(repeating: "STYLE\n::cue {}\n\n", count: 3)
        expectFailure(styles, .limitExceeded(.maxStyleSheets, limit: 2), line: 9, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxStyleSheets: 2)))

        let notes = "WEBVTT\n\n" + String(repeating: "NOTE\n\n", count: 3)
        expectFailure(notes, .limitExceeded(.maxNotes, limit: 2), line: 7, options: WebVTTParseOptions(keepNotes: true, limits: WebVTTParseLimits(maxNotes: 2)))
        // Notes that are not kept cost nothing and are only counted.
        #expect((try? parse(notes, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxNotes: 2))))?.noteCount == 3)
    }

    @Test func warningsAreCapped() throws {
        let junk = "WEBVTT\n\n" + String(repeating: "junk\n\n", count: 50)
        let document = try parse(junk, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxWarnings: 10)))
        #expect(document.warnings.count == 10)
        #expect(document.omittedWarningCount == 40)
    }

    /// Issue 32: a cue that ends before it starts is no longer among these: it is kept, as the
    /// spec says (SpecAlgorithmTests).
    @Test(arguments: [
        ("-00:01.000 --> 00:02.000", WebVTTWarning.Kind.badTimestamp),
        ("00:01.000 --> -00:02.000", .badTimestamp),
        ("-->", .badTimestamp),
        (" --> 00:01.000", .badTimestamp),
        ("00:01.000 -->", .badTimestamp),
        ("00:01.000 - 00:02.000 -->", .badTimestamp),
        ("00:01.000 --> 00:02", .badTimestamp),
        ("00:00:01,000 --> 00:00:02,000", .badTimestamp),
        ("99999999999999999999:00:00.000 --> 99999999999999999999:00:01.000", .badTimestamp),
        ("99999999999:00.000 --> 99999999999:01.000", .badTimestamp),
    ])
    func badCuesAreSkippedWithAWarning(timing: String, kind: WebVTTWarning.Kind) throws {
        let text = "WEBVTT\n\n00:00.000 --> 00:00.500\nbefore\n\nbad-cue\n\(timing)\nlost\n\n00:03.000 --> 00:04.000\nafter"
        let document = try parse(text)
        #expect(document.cues.map(\.text) == ["before", "after"])
        #expect(document.skippedCues.map(\.kind) == [kind])
        #expect(document.skippedCues.first?.line == 7)
        #expect(document.skippedCues.first?.message.isEmpty == false)
        expectFailure(text, .badTimestamp, line: 7, options: WebVTTParseOptions(failOnSkippedCue: true))
        expectInvariants(text)
    }

    @Test func hugeButRepresentableHoursParse() throws {
        let text = "WEBVTT\n\n99999999999:00:00.000 --> 99999999999:00:01.000\nfar future"
        let document = try parse(text)
        let cue = try #require(document.cues.first)
        #expect(cue.start.milliseconds == 359_999_999_996_400_000)
        #expect(cue.endSeconds.isFinite)
        #expect(document.cues(at: cue.startSeconds).count == 1)
        expectInvariants(text)
    }

    @Test func manyBlankLinesAndArrowsDoNotBlowUp() throws {
        let blanks = try parse("WEBVTT" + String(repeating: "\n", count: 200_000))
        #expect(blanks.cues.isEmpty)
        let arrows = try parse("WEBVTT\n\n" + String(repeating: "-->\n", count: 50_000))
        #expect(arrows.cues.isEmpty)
        #expect(arrows.warnings.count == 1_000)
        #expect(arrows.omittedWarningCount == 49_000)
    }

    @Test func controlCharactersOtherThanNULAreText() throws {
        let document = try parse("WEBVTT\n\n00:00.000 --> 00:01.000\nbell\u{07} escape\u{1B} form\u{0C}feed")
        #expect(document.cues.first?.text == "bell\u{07} escape\u{1B} form\u{0C}feed")
    }
}
