import CoveText
import Testing

/// Large but legitimate files parse completely. No timing assertion (the machine is shared and
/// benchmarks live elsewhere); the time is printed for a human to read.
@Suite("Scale")
struct ScaleTests {
    /// About 10 MB: 100 000 cues with identifiers, settings, tags, entities and two lines each.
    static func tenMegabytes() -> [UInt8] {
        var text = "WEBVTT - generated\n\n"
        text.reserveCapacity(10_600_000)
        var index = 0
        while text.utf8.count < 10_000_000 {
            let start = WebVTTTimestamp(milliseconds: Int64(index) * 1_500)
            let end = WebVTTTimestamp(milliseconds: Int64(index) * 1_500 + 2_000)
            text += "cue-\(index)\n\(start) --> \(end) line:85% align:center\n"
            text += "<v Speaker \(index % 7)>Line number \(index) of a generated file &amp; more</v>\n"
            text += "<i>second line</i> with some ordinary subtitle words in it.\n\n"
            index += 1
        }
        return Array(text.utf8)
    }

    @Test func tenMegabyteFileParses() throws {
        let bytes = Self.tenMegabytes()
        let clock = ContinuousClock()
        var document: WebVTTDocument?
        let elapsed = try clock.measure {
            document = try WebVTT.parse(bytes)
        }
        let parsed = try #require(document)
        print("CoveText: parsed \(bytes.count) bytes, \(parsed.cues.count) cues in \(elapsed)")
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.cues.count > 50_000)
        let last = try #require(parsed.cues.last)
        #expect(last.identifier == "cue-\(parsed.cues.count - 1)")
        #expect(parsed.cues[10].text == "Line number 10 of a generated file & more\nsecond line with some ordinary subtitle words in it.")
        // Cues overlap by half a second, so the boundary has two active cues.
        #expect(parsed.cues(at: 1_500 * 40 / 1000 + 0.25).map(\.identifier) == ["cue-39", "cue-40"])
        let lookups = clock.measure {
            for step in 0..<100_000 { _ = parsed.cues(at: Double(step) * 1.37) }
        }
        print("CoveText: 100 000 cues(at:) lookups in \(lookups)")
    }
}
