import CoveText
import Testing

@Suite("NOTE, STYLE, REGION and X-TIMESTAMP-MAP")
struct BlockTests {
    @Test func notesAreCountedAndOptionallyKept() throws {
        let text = "WEBVTT\n\nNOTE one line\n\nNOTE\nfirst\n  second\n\nNOTE\n\n00:00.000 --> 00:01.000\ncue\n\nNOTE\tafter"
        let skipped = try parse(text)
        #expect(skipped.noteCount == 4)
        #expect(skipped.notes.isEmpty)
        #expect(skipped.cues.count == 1)
        let kept = try parse(text, options: WebVTTParseOptions(keepNotes: true))
        #expect(kept.notes == ["one line", "first\n  second", "", "after"])
        #expect(kept.warnings.isEmpty)
        expectInvariants(text)
    }

    @Test func wordsStartingWithNOTEAreNotNotes() throws {
        let document = try parse("WEBVTT\n\nNOTES are not notes\n\nNOTE\u{0C}neither")
        #expect(document.noteCount == 0)
        #expect(document.warnings.map(\.kind) == [.unrecognizedBlock, .unrecognizedBlock])
        #expect(document.warnings.map(\.line) == [3, 5])
    }

    @Test func styleBlocksAreKeptBeforeTheFirstCueOnly() throws {
        let document = try parse(
            """
            WEBVTT

            STYLE
            ::cue { color: white; }

            STYLE   
            /* two */
            ::cue(.loud) { font-weight: bold; }

            00:00.000 --> 00:01.000
            cue

            STYLE
            ::cue { color: red; }
            """)
        #expect(document.styleSheets == ["::cue { color: white; }", "/* two */\n::cue(.loud) { font-weight: bold; }"])
        #expect(document.warnings.count == 1)
        #expect(document.warnings.first?.kind == .unrecognizedBlock)
        #expect(document.warnings.first?.line == 13)
    }

    @Test func aLoneSTYLELineIsNotAStyleSheet() throws {
        let document = try parse("WEBVTT\n\nSTYLE\n\nSTYLE x\n::cue {}")
        #expect(document.styleSheets.isEmpty)
        #expect(document.warnings.count == 2)
    }

    @Test func regionsAreParsedWithDefaults() throws {
        let document = try parse(Fixtures.full)
        let fred = try #require(document.regions.first)
        #expect(fred.id == "fred")
        #expect(fred.width == 40)
        #expect(fred.lines == 3)
        #expect(fred.regionAnchor == WebVTTRegion.Anchor(x: 0, y: 100))
        #expect(fred.viewportAnchor == WebVTTRegion.Anchor(x: 10, y: 90))
        #expect(fred.scroll == .up)
        #expect(fred.raw == "id:fred width:40% lines:3\nregionanchor:0%,100% viewportanchor:10%,90% scroll:up")

        let plain = try parse("WEBVTT\n\nREGION\nid:bare width:200% lines:x regionanchor:5% scroll:down unknown:1")
        let bare = try #require(plain.regions.first)
        #expect(bare.width == 100)
        #expect(bare.lines == 3)
        #expect(bare.regionAnchor == WebVTTRegion.Anchor(x: 0, y: 100))
        #expect(bare.viewportAnchor == WebVTTRegion.Anchor(x: 0, y: 100))
        #expect(bare.scroll == WebVTTRegion.Scroll.none)
    }

    @Test func regionsWithoutIdAreDroppedAndLaterIdsReplaceEarlier() throws {
        let document = try parse(
            "WEBVTT\n\nREGION\nwidth:50%\n\nREGION\nid:a lines:1\n\nREGION\nid:b\n\nREGION\nid:a lines:2\n\n00:00.000 --> 00:01.000 region:a\nx")
        #expect(document.regions.map(\.id) == ["b", "a"])
        #expect(document.regions.last?.lines == 2)
        #expect(document.warnings.map(\.kind) == [.invalidRegion])
        #expect(document.warnings.first?.line == 3)
        #expect(document.cues.first?.settings.region == "a")
        #expect(try parse("WEBVTT\n\nREGION\nid:a-->b").regions.isEmpty)
    }

    @Test func timestampMapIsReadInEitherOrder() throws {
        let map = try #require(try parse(Fixtures.hls).timestampMap)
        #expect(map.localTime == WebVTTTimestamp(milliseconds: 0))
        #expect(map.mpegts == 900_000)
        #expect(map.presentationOffset == 10)

        let swapped = try parse("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:01.000, MPEGTS:180000\n\n00:01.000 --> 00:02.000\nx")
        #expect(swapped.timestampMap == WebVTTTimestampMap(localTime: WebVTTTimestamp(milliseconds: 1000), mpegts: 180_000))
        #expect(swapped.timestampMap?.presentationOffset == 1)
        #expect(swapped.warnings.isEmpty)
    }

    @Test(arguments: [
        "X-TIMESTAMP-MAP=MPEGTS:900000",
        "X-TIMESTAMP-MAP=LOCAL:00:00:00.000",
        "X-TIMESTAMP-MAP=LOCAL:0:00.000,MPEGTS:1",
        "X-TIMESTAMP-MAP=LOCAL:00:00.000,MPEGTS:-5",
        "X-TIMESTAMP-MAP=LOCAL:00:00.000,MPEGTS:99999999999999999999999",
        "X-TIMESTAMP-MAP=",
    ])
    func malformedTimestampMapIsAWarning(line: String) throws {
        let document = try parse("WEBVTT\n\(line)\n\n00:01.000 --> 00:02.000\nstill parsed")
        #expect(document.timestampMap == nil)
        #expect(document.cues.count == 1)
        #expect(document.warnings.map(\.kind) == [.invalidTimestampMap])
        #expect(document.warnings.first?.line == 2)
    }

    @Test func timestampMapOffsetAgainstAPlaybackTimeline() {
        let ticksPerSecond: Int64 = 90_000
        let modulus = WebVTTTimestampMap.mpegtsModulus
        let map = WebVTTTimestampMap(localTime: WebVTTTimestamp(milliseconds: 0), mpegts: 20 * ticksPerSecond)
        #expect(map.offset(timelineStartPTS: 10 * ticksPerSecond) == 10)
        #expect(map.offset(timelineStartPTS: 30 * ticksPerSecond) == -10)

        // The stream started one second before the 33-bit wrap; this segment is one second after it.
        let wrapped = WebVTTTimestampMap(localTime: WebVTTTimestamp(milliseconds: 0), mpegts: ticksPerSecond)
        #expect(wrapped.offset(timelineStartPTS: modulus - ticksPerSecond) == 2)
        // And the other way round: a segment just before the wrap, a start just after it.
        let before = WebVTTTimestampMap(localTime: WebVTTTimestamp(milliseconds: 0), mpegts: modulus - ticksPerSecond)
        #expect(before.offset(timelineStartPTS: ticksPerSecond) == -2)
        // LOCAL shifts the cues back: cue time LOCAL is shown at MPEGTS.
        let local = WebVTTTimestampMap(localTime: WebVTTTimestamp(milliseconds: 5_000), mpegts: 20 * ticksPerSecond)
        #expect(local.offset(timelineStartPTS: 0) == 15)
        // Packagers that write unwrapped values past 2^33 mean the same instant.
        let unwrapped = WebVTTTimestampMap(localTime: WebVTTTimestamp(milliseconds: 0), mpegts: modulus + ticksPerSecond)
        #expect(unwrapped.offset(timelineStartPTS: modulus - ticksPerSecond) == 2)
        #expect(unwrapped.presentationOffset == 1)
        // More than 13 hours in, a recent reference keeps the wrap unambiguous.
        let late = WebVTTTimestampMap(localTime: WebVTTTimestamp(milliseconds: 0), mpegts: 20 * 3600 * ticksPerSecond)
        #expect(late.offset(timelineStartPTS: 0, referencePTS: 19 * 3600 * ticksPerSecond) == 20 * 3600)
        #expect(late.offset(timelineStartPTS: 0) == Double(20 * 3600 * ticksPerSecond - modulus) / 90_000)
        // Extreme inputs give a finite answer rather than a trap.
        #expect(map.offset(timelineStartPTS: .max, referencePTS: .min).isFinite)
    }
}
