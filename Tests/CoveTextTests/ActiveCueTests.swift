import CoveTesting
import CoveText
import Testing

@Suite("Active-cue lookup")
struct ActiveCueTests {
    @Test func startIsInclusiveEndIsExclusive() throws {
        let document = try parse(Fixtures.simple)
        #expect(document.cues(at: 0).map(\.text) == ["Hello"])
        #expect(document.cues(at: 1.999).map(\.text) == ["Hello"])
        #expect(document.cues(at: 2).isEmpty)
        #expect(document.cues(at: 2.25).isEmpty)
        #expect(document.cues(at: 2.5).map(\.text) == ["World"])
        #expect(document.cues(at: 4).isEmpty)
        #expect(document.cues(at: -1).isEmpty)
        #expect(document.cues(at: .nan).isEmpty)
        #expect(document.cues(at: .infinity).isEmpty)
        #expect(document.cues(at: -.infinity).isEmpty)
    }

    @Test func spanningCueAndTextTrackCueOrder() throws {
        let document = try parse(
            """
            WEBVTT

            00:00:05.000 --> 00:00:07.000
            b-short

            00:00:00.000 --> 01:00:00.000
            copyright

            00:00:05.000 --> 00:00:09.000
            b-long

            00:00:05.000 --> 00:00:07.000
            b-short-again
            """)
        // By start, then latest end first, then document order.
        #expect(document.cues(at: 6).map(\.text) == ["copyright", "b-long", "b-short", "b-short-again"])
        #expect(document.cues(at: 8).map(\.text) == ["copyright", "b-long"])
        #expect(document.cues(at: 3_599.999).map(\.text) == ["copyright"])
    }

    @Test func randomDocumentsAgreeWithALinearScan() throws {
        var random = SeededRandom(seed: 0xC0E)
        for round in 0..<20 {
            var text = "WEBVTT\n\n"
            let count = random.int(0...400)
            for index in 0..<count {
                // Coarse times so that many cues share boundaries; some long, some zero-length.
                let start = random.int(0...200) * 250
                let length = random.pick([0, 250, 500, 1_000, 5_000, 60_000, random.int(0...20_000)])
                text += "\(WebVTTTimestamp(milliseconds: Int64(start))) --> \(WebVTTTimestamp(milliseconds: Int64(start + length)))\ncue \(index)\n\n"
            }
            let document = try parse(text)
            #expect(document.cues.count == count)
            for step in 0...260 {
                let time = Double(step) * 0.25 - 0.125 * Double(round % 2)
                let found = document.cues(at: time)
                let expected = document.cues.filter { $0.isActive(at: time) }
                #expect(found.count == expected.count, "round \(round) at \(time)")
                #expect(Set(found.map(\.payload)) == Set(expected.map(\.payload)), "round \(round) at \(time)")
            }
        }
    }
}
