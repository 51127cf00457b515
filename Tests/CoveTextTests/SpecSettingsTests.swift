import CoveText
import Testing

/// The W3C spec's "collect a WebVTT timestamp", "collect WebVTT cue timings and settings", "parse
/// the WebVTT cue settings", "collect WebVTT region settings" and "parse a percentage string", one
/// test (or argument row) per step or branch, named after it.
@Suite("Spec: timestamps, timing lines, cue settings and region settings")
struct SpecSettingsTests {
    /// The settings of a cue with `settings`, after a `REGION` with id `r` and one with id `s`.
    static func settings(_ settings: String) throws -> WebVTTCueSettings {
        let document = try parse("WEBVTT\n\nREGION\nid:r\n\nREGION\nid:s\n\n00:00.000 --> 00:01.000 \(settings)\nx")
        #expect(document.warnings.isEmpty)
        return try #require(document.cues.first).settings
    }

    static func region(_ lines: String) throws -> WebVTTRegion {
        try #require(try parse("WEBVTT\n\nREGION\nid:x \(lines)").regions.first)
    }

    // MARK: Collect a WebVTT timestamp

    @Test(
        arguments: [
            ("00:01.500", 1_500),  // two fields: minutes and seconds
            ("59:59.999", 3_599_999),  // a two-digit first field of at most 59 is minutes
            ("1:00:00.000", 3_600_000),  // a first field not of two digits is hours
            ("60:00:00.000", 216_000_000),  // a two-digit first field above 59 is hours
            ("00:00:00.001", 1),  // hours given though not needed
            ("0123:00:00.000", 442_800_000),  // hours of any length
        ] as [(String, Int64)])
    func timestampBranchesThatSucceed(text: String, milliseconds: Int64) throws {
        #expect(WebVTTTimestamp(text)?.milliseconds == milliseconds)
        #expect(try parse("WEBVTT\n\n\(text) --> \(text)\nx").cues.first?.start.milliseconds == milliseconds)
    }

    @Test(arguments: [
        "",  // past the end
        "a0:00.000",  // not a digit first
        "0000.000",  // no colon after the first field
        "00:0.000", "00:000.000",  // the second field not exactly two digits
        "1:00.000",  // hours, so a third field is required
        "00:00:0.000",  // the third field not exactly two digits
        "00:00", "00:00,000",  // no full stop
        "00:00.00", "00:00.0000",  // the fraction not exactly three digits
        "00:60.000", "00:00:60.000", "00:60:00.000",  // minutes or seconds above 59
        "60:00.000",  // 60 is hours, and then a third field is missing
    ])
    func timestampBranchesThatFail(text: String) throws {
        #expect(WebVTTTimestamp(text) == nil)
        let document = try parse("WEBVTT\n\n\(text) --> 00:01.000\nx\n\n00:00.000 --> \(text)\ny")
        #expect(document.cues.isEmpty)
        #expect(document.skippedCues.count == 2)
    }

    // MARK: Collect WebVTT cue timings and settings

    @Test(arguments: [
        " \t00:00.000 --> 00:01.000",  // whitespace skipped before the start
        "00:00.000-->00:01.000",  // and around the arrow, which needs none
        "00:00.000\t-->\t00:01.000\t",  // tabs anywhere
        "00:00.000 \u{0C}-->\u{0C} 00:01.000",  // form feeds are whitespace too
    ])
    func timingLineWhitespaceIsSkipped(line: String) throws {
        let cue = try #require(try parse("WEBVTT\n\n\(line)\nx").cues.first)
        #expect(cue.startSeconds == 0 && cue.endSeconds == 1)
        #expect(cue.settings.raw.isEmpty)
    }

    @Test(arguments: [
        "00:00.000 -- > 00:01.000 -->",  // the arrow is three characters in a row
        "00:00.000 00:01.000 -->",  // the arrow must follow the start
        "00:00.000 --> ",  // no end
        "00:00.000 ==> 00:01.000 -->",
    ])
    func timingLineWithoutArrowAfterTheStartFails(line: String) throws {
        let document = try parse("WEBVTT\n\n\(line)\nx")
        #expect(document.cues.isEmpty)
        #expect(document.skippedCues.map(\.line) == [3])
    }

    @Test func timingLineRemainderIsTheSettingsEvenWithoutASpace() throws {
        let cue = try #require(try parse("WEBVTT\n\n00:00.000 --> 00:01.000align:end\tsize:10% -->\nx").cues.first)
        #expect(cue.settings.align == .end && cue.settings.size == 10)
        #expect(cue.settings.raw == "align:end\tsize:10% -->")
    }

    // MARK: Parse the WebVTT cue settings

    @Test func settingsAreSplitOnSpacesTabsAndFormFeeds() throws {
        let settings = try Self.settings("align:start\tsize:50%\u{0C}vertical:rl")
        #expect(settings.align == .start && settings.size == 50 && settings.vertical == .rl)
    }

    @Test(arguments: ["align", ":start", "align:", "ALIGN:start", "align:START", "Align:start", "align=start"])
    func settingWithoutNameColonValueOrWithOtherCaseIsIgnored(token: String) throws {
        #expect(try Self.settings(token).align == nil)
    }

    @Test func settingValueRunsToTheTokenEndPastFurtherColons() throws {
        #expect(try Self.settings("region:r:s").region == nil)
        #expect(try Self.settings("align:end:x").align == nil)
    }

    @Test func verticalTakesRlOrLrAndTheLastValidOne() throws {
        #expect(try Self.settings("vertical:rl").vertical == .rl)
        #expect(try Self.settings("vertical:lr vertical:up").vertical == .lr)
        #expect(try Self.settings("vertical:rl vertical:lr").vertical == .lr)
        #expect(try Self.settings("vertical:RL").vertical == nil)
    }

    @Test(
        arguments: [
            ("line:0", WebVTTCueSettings.LinePosition.lineNumber(0)),
            ("line:-1", .lineNumber(-1)),
            ("line:-0", .lineNumber(0)),
            ("line:2.5", .lineNumber(2.5)),
            ("line:007", .lineNumber(7)),
            ("line:0%", .percentage(0)),
            ("line:33.25%", .percentage(33.25)),
            ("line:100%", .percentage(100)),
        ] as [(String, WebVTTCueSettings.LinePosition)])
    func lineAcceptsANumberOrAPercentage(token: String, expected: WebVTTCueSettings.LinePosition) throws {
        #expect(try Self.settings(token).line == WebVTTCueSettings.Line(position: expected))
    }

    @Test(arguments: [
        "line:abc",  // no digit
        "line:-",  // no digit
        "line:1-", "line:--1", "line:1-1",  // a minus other than first
        "line:1.2.3",  // two dots
        "line:.5", "line:5.", "line:-.5",  // a dot without digits on both sides
        "line:1e3", "line:+1", "line:0x1",  // other characters
        "line:101%", "line:-1%", "line:5.%", "line:%5",  // not a percentage from 0 to 100
        "line:1,middle", "line:1,", "line:1,START",  // an alignment that is not start, center or end
    ])
    func lineIgnoredWhenInvalid(token: String) throws {
        #expect(try Self.settings(token).line == nil)
        #expect(try Self.settings("line:3 " + token).line == WebVTTCueSettings.Line(position: .lineNumber(3)))
    }

    @Test func lineAlignmentSurvivesALaterLineWithoutOne() throws {
        #expect(try Self.settings("line:1,end line:2").line == WebVTTCueSettings.Line(position: .lineNumber(2), alignment: .end))
        #expect(try Self.settings("line:1,end line:2,center").line?.alignment == .center)
        // An invalid line setting changes neither part.
        #expect(try Self.settings("line:1,end line:x,start").line == WebVTTCueSettings.Line(position: .lineNumber(1), alignment: .end))
    }

    @Test(
        arguments: [
            ("position:0%", 0.0, nil),
            ("position:12.5%,line-left", 12.5, .lineLeft),
            ("position:50%,center", 50, .center),
            ("position:100%,line-right", 100, .lineRight),
        ] as [(String, Double, WebVTTCueSettings.PositionAlignment?)])
    func positionTakesAPercentageAndAnAlignment(token: String, percentage: Double, alignment: WebVTTCueSettings.PositionAlignment?) throws {
        #expect(try Self.settings(token).position == WebVTTCueSettings.Position(percentage: percentage, alignment: alignment))
    }

    @Test(arguments: ["position:50", "position:101%", "position:50%,left", "position:50%,", "position:,center", "position:50%%"])
    func positionIgnoredWhenInvalid(token: String) throws {
        #expect(try Self.settings(token).position == nil)
    }

    @Test func positionAlignmentSurvivesALaterPositionWithoutOne() throws {
        #expect(try Self.settings("position:10%,line-left position:20%").position == WebVTTCueSettings.Position(percentage: 20, alignment: .lineLeft))
    }

    @Test func sizeTakesAPercentageAndTheLastValidOne() throws {
        #expect(try Self.settings("size:40%").size == 40)
        #expect(try Self.settings("size:40% size:120% size:40 size:-1%").size == 40)
        #expect(try Self.settings("size:40% size:60.5%").size == 60.5)
    }

    @Test(arguments: ["start", "center", "end", "left", "right"])
    func alignTakesItsFiveKeywords(value: String) throws {
        #expect(try Self.settings("align:\(value)").align?.rawValue == value)
        #expect(try Self.settings("align:\(value) align:middle").align?.rawValue == value)
    }

    @Test func regionNamesTheLastRegionWithThatIdOrNone() throws {
        #expect(try Self.settings("region:r").region == "r")
        #expect(try Self.settings("region:r region:s").region == "s")
        // An unknown id is no region, and it replaces a known one.
        #expect(try Self.settings("region:r region:nowhere").region == nil)
    }

    @Test(
        arguments: [
            ("region:r vertical:lr", nil),  // no vertical regions
            ("vertical:lr region:r", "r"),  // only a region set before is dropped
            ("vertical:rl region:r vertical:up", nil),  // the step runs once the direction is vertical
            ("region:r vertical:up", "r"),  // an invalid first vertical leaves the direction horizontal
            ("region:r line:1", nil),  // explicitly positioned
            ("region:r line:x", "r"),  // an invalid line sets nothing
            ("line:1 region:r", "r"),
            ("region:r size:50%", nil),  // explicitly sized
            ("region:r size:100%", "r"),  // the default size keeps it
            ("region:r position:10% align:start", "r"),  // position and align apply within the region
        ] as [(String, String?)])
    func regionIsDroppedByVerticalLineOrSizeAfterIt(settings: String, region: String?) throws {
        #expect(try Self.settings(settings).region == region)
    }

    @Test func settingsAreKeptAsWrittenWhateverWasRead() throws {
        let raw = "bogus line:x align:end:\u{FFFD} region:nowhere"
        #expect(try Self.settings(raw).raw == raw)
    }

    // MARK: Parse a percentage string

    @Test(arguments: [("0%", 0.0), ("100%", 100), ("100.000%", 100), ("0.5%", 0.5), ("007.50%", 7.5)] as [(String, Double)])
    func percentageOfDigitsAndOptionalFractionFrom0To100(text: String, value: Double) throws {
        #expect(try Self.settings("size:\(text)").size == value)
        #expect(try Self.region("width:\(text)").width == value)
    }

    @Test(arguments: ["100.001%", "-0%", "+5%", ".5%", "5.%", "%", "5", "5 %", "1e2%", "5%%", "five%"])
    func percentageAnythingElseFails(text: String) throws {
        #expect(try Self.settings("size:\(text)").size == nil)
        #expect(try Self.region("width:\(text)").width == 100)
    }

    // MARK: Collect WebVTT region settings

    @Test func regionSettingsAcrossLinesAndTheirDefaults() throws {
        let region = try #require(try parse("WEBVTT\n\nREGION\nwidth:25%\tlines:5\nid:a\u{0C}scroll:up\n").regions.first)
        #expect(region.id == "a" && region.width == 25 && region.lines == 5 && region.scroll == .up)
        #expect(region.regionAnchor == WebVTTRegion.Anchor(x: 0, y: 100))
        #expect(region.viewportAnchor == WebVTTRegion.Anchor(x: 0, y: 100))
    }

    @Test func regionIdIsTheValueAsWrittenAndTheLastOneWins() throws {
        #expect(try Self.region("id:y:z").id == "y:z")
        #expect(try Self.region("id:later").id == "later")
        // Names are case-sensitive.
        #expect(try Self.region("ID:upper").id == "x")
    }

    @Test func regionLinesIsDigitsOnly() throws {
        #expect(try Self.region("lines:0").lines == 0)
        #expect(try Self.region("lines:7 lines:-1 lines:2.5 lines:+3 lines:x").lines == 7)
        // Any run of digits is a number; one too large to hold is the largest there is.
        #expect(try Self.region("lines:99999999999999999999999").lines == .max)
    }

    @Test(arguments: ["regionanchor", "viewportanchor"])
    func regionAnchorsNeedACommaAndTwoPercentages(name: String) throws {
        let anchor = { (value: String) throws -> WebVTTRegion.Anchor in
            let region = try Self.region("\(name):\(value)")
            return name == "regionanchor" ? region.regionAnchor : region.viewportAnchor
        }
        #expect(try anchor("10%,90%") == WebVTTRegion.Anchor(x: 10, y: 90))
        #expect(try anchor("0.5%,100%") == WebVTTRegion.Anchor(x: 0.5, y: 100))
        for invalid in ["10%", "10%,", ",90%", "10,90", "10%,90%,5%", "101%,0%", "10% ,90%"] {
            #expect(try anchor(invalid) == WebVTTRegion.Anchor(x: 0, y: 100), "\(name):\(invalid)")
        }
    }

    @Test func regionScrollOnlyUpChangesIt() throws {
        #expect(try Self.region("scroll:up").scroll == .up)
        #expect(try Self.region("scroll:up scroll:none scroll:down").scroll == .up)
        #expect(try Self.region("scroll:UP").scroll == WebVTTRegion.Scroll.none)
    }
}
