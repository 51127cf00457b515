import CoveText
import Testing

@Suite("Cues, timestamps and settings")
struct CueTests {
    @Test func identifiersAndMultiLinePayloads() throws {
        let document = try parse(
            """
            WEBVTT

            first cue
            00:00:01.000 --> 00:00:02.000
            line one
            line two

            00:00:03.000 --> 00:00:04.000
            no id

            3
            00:00:05.000 --> 00:00:06.000

            """)
        #expect(document.cues.map(\.identifier) == ["first cue", nil, "3"])
        #expect(document.cues.map(\.payload) == ["line one\nline two", "no id", ""])
        #expect(document.cues[0].start == WebVTTTimestamp(milliseconds: 1000))
        #expect(document.cues[0].endSeconds == 2)
        #expect(document.warnings.isEmpty)
    }

    @Test(
        arguments: [
            ("00:00.000", 0),
            ("01:02.003", 62_003),
            ("59:59.999", 3_599_999),
            ("00:00:01.500", 1_500),
            ("01:00:00.000", 3_600_000),
            ("123:04:05.006", 443_045_006),
            ("99999999999:00:00.000", 359_999_999_996_400_000),
        ] as [(String, Int64)])
    func validTimestamps(text: String, milliseconds: Int64) throws {
        let time = try #require(WebVTTTimestamp(text))
        #expect(time.milliseconds == milliseconds)
        #expect(WebVTTTimestamp(time.description) == time)
        let document = try parse("WEBVTT\n\n\(text) --> \(text)\nx")
        #expect(document.cues.first?.start.milliseconds == milliseconds)
    }

    @Test(arguments: [
        "0:00.000", "00:0.000", "00:00.00", "00:00.0000", "00:00:00,000", "00:60.000", "00:00:60.000",
        "60:00.000", "00:00", "00:00.", ":00.000", "-00:01.000", "+00:01.000", "00:00.-01", "1e3:00.000",
        "99999999999999999999:00:00.000", "9999999999999:00:00.000", " 00:00.000", "00:00.000 ",
    ])
    func invalidTimestamps(text: String) {
        #expect(WebVTTTimestamp(text) == nil)
    }

    @Test func timestampDescriptionAlwaysHasHours() {
        #expect(WebVTTTimestamp(milliseconds: 0).description == "00:00:00.000")
        #expect(WebVTTTimestamp(milliseconds: 62_003).description == "00:01:02.003")
        #expect(WebVTTTimestamp(milliseconds: 360_000_000).description == "100:00:00.000")
    }

    @Test func timingLineWhitespaceAndMissingSpaces() throws {
        let document = try parse("WEBVTT\n\n  00:01.000\t-->\t00:02.000   \nA\n\n00:03.000-->00:04.000\nB\n\n00:05.000 --> 00:06.000align:end\nC")
        #expect(document.cues.map(\.text) == ["A", "B", "C"])
        #expect(document.cues[0].settings == .none)
        // Settings glued to the end time are still read, as the spec's parser does.
        #expect(document.cues[2].settings.raw == "align:end")
        #expect(document.cues[2].settings.align == .end)
    }

    @Test func allSettingsTyped() throws {
        let document = try parse(
            """
            WEBVTT

            REGION
            id:r1

            00:00.000 --> 00:01.000 vertical:lr line:-2 position:10%,line-left size:50% align:start foo:bar
            A

            00:00.000 --> 00:01.000 line:50%,center position:100% align:right region:r1
            B

            00:00.000 --> 00:01.000 region:r1 align:center
            C

            00:00.000 --> 00:01.000 line:0,end position:0%,line-right align:left
            D
            """)
        let a = document.cues[0].settings
        #expect(a.vertical == .lr)
        #expect(a.line == WebVTTCueSettings.Line(position: .lineNumber(-2), alignment: nil))
        #expect(a.position == WebVTTCueSettings.Position(percentage: 10, alignment: .lineLeft))
        #expect(a.size == 50)
        #expect(a.align == .start)
        #expect(a.region == nil)
        #expect(a.raw == "vertical:lr line:-2 position:10%,line-left size:50% align:start foo:bar")

        let b = document.cues[1].settings
        #expect(b.line == WebVTTCueSettings.Line(position: .percentage(50), alignment: .center))
        #expect(b.position?.percentage == 100)
        #expect(b.align == .right)
        // Issue 32: `region:` comes after `line:` here, so the spec's settings parser keeps it (a
        // line setting only drops a region set before it; see SpecSettingsTests).
        #expect(b.region == "r1")

        #expect(document.cues[2].settings.region == "r1")
        #expect(document.cues[2].settings.align == .center)

        let d = document.cues[3].settings
        #expect(d.line == WebVTTCueSettings.Line(position: .lineNumber(0), alignment: .end))
        #expect(d.position == WebVTTCueSettings.Position(percentage: 0, alignment: .lineRight))
        #expect(d.align == .left)
    }

    @Test func invalidAndUnknownSettingsAreIgnored() throws {
        let raw = "vertical:up line:abc line:5- line:1.5.2 line:.5 line:- size:150% size:50 position:10%,bogus align:middle region:nowhere :x y: z bold"
        let document = try parse("WEBVTT\n\n00:00.000 --> 00:01.000 \(raw)\nA")
        let settings = document.cues[0].settings
        #expect(settings.vertical == nil)
        #expect(settings.line == nil)
        #expect(settings.size == nil)
        #expect(settings.position == nil)
        #expect(settings.align == nil)
        #expect(settings.region == nil)
        #expect(settings.raw == raw)
        #expect(document.warnings.isEmpty)
    }

    @Test func laterSettingsReplaceEarlierOnes() throws {
        let document = try parse("WEBVTT\n\n00:00.000 --> 00:01.000 align:start align:end size:10% size:bad line:1.5\nA")
        let settings = document.cues[0].settings
        #expect(settings.align == .end)
        #expect(settings.size == 10)
        #expect(settings.line?.position == .lineNumber(1.5))
    }

    @Test func overlappingAndOutOfOrderCuesAreKeptInDocumentOrder() throws {
        let document = try parse(
            """
            WEBVTT

            00:10.000 --> 00:20.000
            late

            00:00.000 --> 00:30.000
            long

            00:05.000 --> 00:06.000
            early
            """)
        #expect(document.cues.map(\.text) == ["late", "long", "early"])
        #expect(document.cues(at: 5.5).map(\.text) == ["long", "early"])
        #expect(document.cues(at: 15).map(\.text) == ["long", "late"])
    }

    @Test func aLineWithAnArrowEndsTheCueBeforeIt() throws {
        // No blank line between cues: the spec starts a new cue at the timing line.
        let document = try parse("WEBVTT\n\n00:01.000 --> 00:02.000\none\n00:02.000 --> 00:03.000\ntwo\nid?\n00:03.000 --> 00:04.000\nthree")
        #expect(document.cues.map(\.payload) == ["one", "two\nid?", "three"])
    }

    @Test func zeroLengthCueIsKeptButNeverActive() throws {
        let document = try parse("WEBVTT\n\n00:01.000 --> 00:01.000\nflash")
        #expect(document.cues.count == 1)
        #expect(document.cues(at: 1).isEmpty)
        // Issue 32: kept as before, but now reported, since it can never be shown.
        #expect(document.warnings.map(\.kind) == [.endBeforeStart])
        #expect(document.skippedCues.isEmpty)
    }

    @Test func identifierThatLooksLikeAKeywordIsStillAnIdentifier() throws {
        let document = try parse("WEBVTT\n\nNOTE\n00:00.000 --> 00:01.000\na\n\nSTYLE\n00:01.000 --> 00:02.000\nb")
        #expect(document.cues.map(\.identifier) == ["NOTE", "STYLE"])
        #expect(document.noteCount == 0)
        #expect(document.styleSheets.isEmpty)
    }

    @Test func fullFixture() throws {
        let document = try parse(Fixtures.full)
        #expect(document.cues.count == 4)
        #expect(document.cues[0].identifier == "intro")
        #expect(document.cues[0].settings.region == "fred")
        #expect(document.cues[0].text == "Hi, my name is Fred")
        #expect(document.cues[2].identifier == "2")
        #expect(document.warnings.isEmpty)
        expectInvariants(Fixtures.full)
    }
}
