import CoveText
import Testing

@Suite("Header, BOM and line endings")
struct HeaderTests {
    @Test(arguments: [
        ("WEBVTT", ""),
        ("WEBVTT\n", ""),
        ("WEBVTT \n", ""),
        ("WEBVTT - Subtitles for episode 1\n", "- Subtitles for episode 1"),
        ("WEBVTT\tTabbed title  \n", "Tabbed title"),
        ("WEBVTT 00:00.000 --> 00:01.000\n", "00:00.000 --> 00:01.000"),
    ])
    func headerVariants(text: String, title: String) throws {
        let document = try parse(text)
        #expect(document.headerText == title)
        #expect(document.cues.isEmpty)
        #expect(document.warnings.isEmpty)
    }

    @Test(arguments: [
        "WEBVTTX\n", "WEBVTT-title\n", "webvtt\n", " WEBVTT\n", "WEBVT\n", "\nWEBVTT\n", "1\n00:00:01,000 --> 00:00:02,000\nSRT\n", "<html>", "WEBVTT\u{0C}\n",
    ])
    func notWebVTT(text: String) {
        expectFailure(text, .missingHeader, line: 1)
    }

    @Test func aLongFirstLineOfSomethingElseIsNotWebVTTRatherThanTooLong() {
        expectFailure("<html>" + String(repeating: "x", count: 100_000), .missingHeader, line: 1)
        expectFailure("WEBVTT " + String(repeating: "x", count: 100_000), .limitExceeded(.maxLineLength, limit: 65_536), line: 1)
    }

    @Test func emptyAndBOMOnlyInputAreRefused() {
        expectFailure([], .missingHeader, line: nil)
        expectFailure([0xEF, 0xBB, 0xBF], .missingHeader, line: nil)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let document = try WebVTT.parse([0xEF, 0xBB, 0xBF] + Array(Fixtures.simple.utf8))
        #expect(document == (try parse(Fixtures.simple)))
        #expect(document.cues.count == 2)
        // A second BOM is text, not a mark, so the header no longer matches.
        expectFailure([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("WEBVTT".utf8), .missingHeader, line: 1)
    }

    @Test func lineEndingsAllMeanTheSame() throws {
        let lf = try parse(Fixtures.full)
        let crlf = try parse(Fixtures.full.replacing("\n", with: "\r\n"))
        let cr = try parse(Fixtures.full.replacing("\n", with: "\r"))
        #expect(lf.cues.count == 4)
        #expect(crlf == lf)
        #expect(cr == lf)
        // Mixed endings, including a CR directly before a CRLF (an empty line).
        let mixed = try parse("WEBVTT\r\n\r00:01.000 --> 00:02.000\rone\r\ntwo\n\r\n00:03.000 --> 00:04.000\nthree")
        #expect(mixed.cues.map(\.payload) == ["one\ntwo", "three"])
    }

    @Test func headerBlockLinesAreKept() throws {
        let document = try parse(Fixtures.full)
        #expect(document.headerText == "- A title")
        #expect(document.headerLines == ["Kind: captions", "Language: en"])
    }

    @Test func cueRightAfterTheSignatureLineIsACue() throws {
        let document = try parse("WEBVTT\n00:00.000 --> 00:01.000\nNo blank line")
        #expect(document.headerLines.isEmpty)
        #expect(document.cues.map(\.text) == ["No blank line"])
    }

    @Test func identifierRightAfterTheSignatureLineBelongsToTheHeader() throws {
        // The spec reads the header block up to the line containing "-->", so "id" is header.
        let document = try parse("WEBVTT\nid\n00:00.000 --> 00:01.000\ntext")
        #expect(document.headerLines == ["id"])
        #expect(document.cues.first?.identifier == nil)
        #expect(document.cues.first?.text == "text")
    }

    @Test func onlyHeaderAndBlankLines() throws {
        let document = try parse("WEBVTT\n\n\n\n\r\n\r\n")
        #expect(document.cues.isEmpty)
        #expect(document.headerLines.isEmpty)
        #expect(document.warnings.isEmpty)
    }
}
