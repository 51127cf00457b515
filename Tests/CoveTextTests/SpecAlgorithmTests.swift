import CoveCore
import CoveTesting
import CoveText
import Testing

/// The W3C "WebVTT parser algorithm" and "collect a WebVTT block", one test per step or branch,
/// named after it: the signature, the header, the block loop, and in a block the timing line
/// (`-->` on line 1 or 2), the line that ends it (blank, end of file, `-->` later), `STYLE` and
/// `REGION` (line 2, before the first cue only), `NOTE`, and cues whose end is not after their start.
@Suite("Spec: the parser algorithm and collecting a block")
struct SpecAlgorithmTests {
    // MARK: Signature

    @Test func signatureShorterThanSixCharactersAborts() {
        expectFailure("WEBVT", .missingHeader, line: 1)
    }

    @Test func signatureExactlySixCharactersIsAnEmptyFile() throws {
        let document = try parse("WEBVTT")
        #expect(document.cues.isEmpty && document.warnings.isEmpty && document.headerText.isEmpty)
    }

    @Test(arguments: ["WEBVTT title", "WEBVTT\ttitle", "WEBVTT\ntitle", "WEBVTT\rtitle", "WEBVTT\r\ntitle"])
    func signatureSeventhCharacterSpaceTabOrLineFeedIsAccepted(text: String) throws {
        _ = try parse(text)
    }

    @Test(arguments: ["WEBVTTX", "WEBVTT-", "WEBVTT\u{0C}", "WEBVTT\u{A0}", "WEBVTT\u{FEFF}", "Webvtt", " WEBVTT"])
    func signatureSeventhCharacterAnythingElseAborts(text: String) {
        expectFailure(text, .missingHeader, line: 1)
    }

    @Test func signatureLineAtEndOfFileHasNoUsefulData() throws {
        let document = try parse("WEBVTT 00:00.000 --> 00:01.000")
        #expect(document.headerText == "00:00.000 --> 00:01.000")
        #expect(document.cues.isEmpty)
    }

    // MARK: Header

    @Test func headerIsABlockWhenTheLineAfterTheSignatureIsNotBlank() throws {
        let document = try parse("WEBVTT\nKind: captions\nSTYLE\n\n00:00.000 --> 00:01.000\nx")
        #expect(document.headerLines == ["Kind: captions", "STYLE"])
        #expect(document.styleSheets.isEmpty)
        #expect(document.cues.count == 1)
    }

    @Test func headerBlockEndsBeforeALineWithAnArrow() throws {
        let document = try parse("WEBVTT\nid\n00:00.000 --> 00:01.000\nx")
        #expect(document.headerLines == ["id"])
        #expect(document.cues.map(\.identifier) == [nil])
    }

    @Test func blockLoopSkipsAnyRunOfBlankLines() throws {
        let document = try parse("WEBVTT\n\n\n\n00:00.000 --> 00:01.000\na\n\n\n\n\n00:01.000 --> 00:02.000\nb\n\n\n")
        #expect(document.cues.map(\.payload) == ["a", "b"])
        #expect(document.warnings.isEmpty)
    }

    // MARK: Collect a block: the timing line

    @Test func arrowOnLineOneIsATimingLineWithoutIdentifier() throws {
        let document = try parse("WEBVTT\n\n00:00.000 --> 00:01.000\ntext")
        #expect(document.cues.map(\.identifier) == [nil])
    }

    @Test func arrowOnLineTwoMakesLineOneTheIdentifier() throws {
        let document = try parse("WEBVTT\n\n  spaced id  \n00:00.000 --> 00:01.000\ntext")
        #expect(document.cues.map(\.identifier) == ["  spaced id  "])
    }

    @Test func arrowInTheIdentifierLineMakesItATimingLine() throws {
        // "a-->b" is line 1 of its block, so it is a (malformed) timing line, and the real
        // timing line, line 2 after an arrow, starts a cue of its own without the identifier.
        let document = try parse("WEBVTT\n\na-->b\n00:00.000 --> 00:01.000\ntext")
        #expect(document.cues.map(\.identifier) == [nil])
        #expect(document.cues.map(\.payload) == ["text"])
        #expect(document.warnings.map(\.kind) == [.badTimestamp])
        #expect(document.warnings.first?.line == 3)
    }

    @Test func failedTimingLineDropsTheBlockButSetsNoSeenCue() throws {
        let document = try parse("WEBVTT\n\n00:00 --> 00:01\nlost\n\nSTYLE\n::cue { color: red }\n\n00:00.000 --> 00:01.000\nkept")
        #expect(document.cues.map(\.payload) == ["kept"])
        // The STYLE block still counts: no cue was seen yet.
        #expect(document.styleSheets == ["::cue { color: red }"])
        #expect(document.warnings.map(\.kind) == [.badTimestamp])
    }

    @Test func arrowOnLineTwoAfterAnArrowOnLineOneEndsTheBlock() throws {
        let document = try parse("WEBVTT\n\n00:00 --> bad\n00:01.000 --> 00:02.000\ntext")
        #expect(document.cues.map(\.startSeconds) == [1])
        #expect(document.cues.map(\.identifier) == [nil])
        #expect(document.warnings.map(\.line) == [3])
    }

    @Test func arrowOnLineThreeOrLaterEndsTheBlockBeforeIt() throws {
        // The line before the arrow is still this cue's text: without a blank line there is no
        // way to give the next cue an identifier.
        let document = try parse("WEBVTT\n\nid\n00:00.000 --> 00:01.000\none\nnext\n00:01.000 --> 00:02.000\ntwo")
        #expect(document.cues.map(\.payload) == ["one\nnext", "two"])
        #expect(document.cues.map(\.identifier) == ["id", nil])
    }

    // MARK: Collect a block: its end

    @Test func blankLineEndsTheBlock() throws {
        let document = try parse("WEBVTT\n\n00:00.000 --> 00:01.000\none\n\ntwo")
        #expect(document.cues.map(\.payload) == ["one"])
        #expect(document.warnings.map(\.kind) == [.unrecognizedBlock])
    }

    @Test func endOfFileEndsTheBlockWithOrWithoutALineFeed() throws {
        #expect(try parse("WEBVTT\n\n00:00.000 --> 00:01.000\none\ntwo").cues.map(\.payload) == ["one\ntwo"])
        #expect(try parse("WEBVTT\n\n00:00.000 --> 00:01.000\none\ntwo\n").cues.map(\.payload) == ["one\ntwo"])
        #expect(try parse("WEBVTT\n\n00:00.000 --> 00:01.000").cues.map(\.payload) == [""])
    }

    // MARK: Collect a block: STYLE and REGION

    @Test(arguments: ["STYLE", "STYLE ", "STYLE\t \t"])
    func styleOnLineOneFollowedByWhitespaceOnlyIsAStyleSheet(first: String) throws {
        let document = try parse("WEBVTT\n\n\(first)\n::cue { color: lime }\n::cue(b) {}")
        #expect(document.styleSheets == ["::cue { color: lime }\n::cue(b) {}"])
        #expect(document.warnings.isEmpty)
    }

    @Test(arguments: ["STYLEX", "STYLE x", "style", " STYLE"])
    func styleWithAnythingElseOnItsLineIsNotAStyleSheet(first: String) throws {
        let document = try parse("WEBVTT\n\n\(first)\n::cue {}")
        #expect(document.styleSheets.isEmpty)
        #expect(document.warnings.map(\.kind) == [.unrecognizedBlock])
    }

    @Test func styleAndRegionAfterTheFirstCueAreIgnored() throws {
        let document = try parse("WEBVTT\n\n00:00.000 --> 00:01.000\nx\n\nSTYLE\n::cue {}\n\nREGION\nid:r")
        #expect(document.styleSheets.isEmpty && document.regions.isEmpty)
        #expect(document.warnings.map(\.kind) == [.unrecognizedBlock, .unrecognizedBlock])
    }

    @Test func aCueWithoutDurationIsStillTheFirstCue() throws {
        // The spec sets "seen cue" for any timing line it can read, whatever the times.
        let document = try parse("WEBVTT\n\n00:02.000 --> 00:01.000\nx\n\nSTYLE\n::cue {}")
        #expect(document.styleSheets.isEmpty)
        #expect(document.warnings.map(\.kind) == [.endBeforeStart, .unrecognizedBlock])
    }

    @Test func regionOnLineOneIsARegionDefinition() throws {
        let document = try parse("WEBVTT\n\nREGION \nid:r width:50%\nlines:2\n\n00:00.000 --> 00:01.000 region:r\nx")
        #expect(document.regions.map(\.id) == ["r"])
        #expect(document.regions.first?.lines == 2)
        #expect(document.cues.first?.settings.region == "r")
    }

    @Test func styleOrRegionFollowedByATimingLineIsACueIdentifier() throws {
        let document = try parse("WEBVTT\n\nREGION\n00:00.000 --> 00:01.000\na\n\nSTYLE\n00:01.000 --> 00:02.000\nb")
        #expect(document.cues.map(\.identifier) == ["REGION", "STYLE"])
        #expect(document.regions.isEmpty && document.styleSheets.isEmpty)
    }

    @Test func styleSheetEndsBeforeALineWithAnArrow() throws {
        let document = try parse("WEBVTT\n\nSTYLE\n::cue {}\n00:00.000 --> 00:01.000\nx")
        #expect(document.styleSheets == ["::cue {}"])
        #expect(document.cues.map(\.payload) == ["x"])
    }

    // MARK: Collect a block: NOTE and other blocks

    @Test func noteBlockIsNeitherCueNorDefinition() throws {
        let document = try parse("WEBVTT\n\nNOTE\tabout\nthis file\n\nNOTE\n\n00:00.000 --> 00:01.000\nx", options: WebVTTParseOptions(keepNotes: true))
        #expect(document.notes == ["about\nthis file", ""])
        #expect(document.cues.count == 1)
        #expect(document.warnings.isEmpty)
    }

    @Test func noteEndsBeforeALineWithAnArrow() throws {
        // Line 2 with an arrow makes NOTE an identifier; later, the arrow starts a new block.
        let early = try parse("WEBVTT\n\nNOTE\n00:00.000 --> 00:01.000\nx")
        #expect(early.cues.map(\.identifier) == ["NOTE"])
        #expect(early.noteCount == 0)
        let late = try parse("WEBVTT\n\nNOTE\nabout\n00:00.000 --> 00:01.000\nx")
        #expect(late.noteCount == 1)
        #expect(late.cues.map(\.identifier) == [nil])
    }

    @Test func anyOtherBlockIsIgnoredWithAWarning() throws {
        let document = try parse("WEBVTT\n\n1\n00:00:01,000 --> 00:00:02,000\nSRT style\n\njust text")
        #expect(document.cues.isEmpty)
        #expect(document.warnings.map(\.kind) == [.badTimestamp, .unrecognizedBlock])
        #expect(document.warnings.map(\.line) == [4, 7])
    }

    // MARK: Cues whose end is not after their start

    @Test(arguments: [("00:02.000 --> 00:01.000", "before it starts"), ("00:01.000 --> 00:01.000", "when it starts")])
    func cueWithoutDurationIsKeptWarnedAndNeverActive(timing: String, wording: String) throws {
        let text = "WEBVTT\n\n00:00.000 --> 00:03.000\nlong\n\nid\n\(timing)\nnever\n\n00:01.500 --> 00:02.500\nafter"
        let document = try parse(text)
        #expect(document.cues.map(\.payload) == ["long", "never", "after"])
        #expect(document.cues[1].identifier == "id")
        #expect(document.warnings.map(\.kind) == [.endBeforeStart])
        #expect(document.warnings.first?.line == 7)
        #expect(document.warnings.first?.message.contains(wording) == true)
        #expect(document.skippedCues.isEmpty)
        for time in [0.5, 1, 1.5, 2, 2.5] {
            #expect(!document.cues(at: time).map(\.payload).contains("never"), "at \(time)")
        }
        #expect(document.cues(at: 1.75).map(\.payload) == ["long", "after"])
        // Written back, it stays (and stays never active).
        #expect(try parse(document.serialized()).cues == document.cues)
        expectInvariants(text)
        expectFailure(text, .endBeforeStart, line: 7, options: WebVTTParseOptions(failOnSkippedCue: true))
    }

    @Test func manyCuesWithoutDurationDoNotUpsetTheIntervalIndex() throws {
        var random = SeededRandom(seed: 0x32)
        var text = "WEBVTT\n\n"
        for index in 0..<2_000 {
            let start = random.int(0...600) * 100
            let end = random.int(0...2) == 0 ? start + random.int(1...50) * 100 : random.int(0...start / 100) * 100
            text += "\(WebVTTTimestamp(milliseconds: Int64(start))) --> \(WebVTTTimestamp(milliseconds: Int64(end)))\ncue \(index)\n\n"
        }
        let document = try parse(text)
        #expect(document.cues.count == 2_000)
        for step in 0...700 {
            let time = Double(step) * 0.1 - 0.05 * Double(step % 2)
            let expected = document.cues.filter { $0.startSeconds <= time && time < $0.endSeconds }
            #expect(Set(document.cues(at: time).map(\.payload)) == Set(expected.map(\.payload)), "at \(time)")
        }
        let track = ThumbnailTrack(document: document, baseURL: nil)
        #expect(track.entries.count == 2_000)
        for step in 0...70 { _ = track.thumbnail(at: Double(step)) }
        expectInvariants(text)
    }

    @Test func theSidecarTimelineIgnoresCuesWithoutDuration() throws {
        let timed = WebVTTTimedText(try parse("WEBVTT\n\n00:05.000 --> 00:02.000\nnever\n\n00:01.000 --> 00:03.000\nshown"))
        #expect(timed.nextChange(after: .zero) == MediaTime(seconds: 1))
        #expect(timed.nextChange(after: MediaTime(seconds: 1)) == MediaTime(seconds: 3))
        #expect(timed.nextChange(after: MediaTime(seconds: 3)) == nil)
        #expect(timed.cues(at: MediaTime(seconds: 2.5)).map(\.text) == ["shown"])
        #expect(timed.cues(at: MediaTime(seconds: 4)).isEmpty)
    }
}
