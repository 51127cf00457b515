import CoveTesting
import CoveText
import Foundation
import Testing

/// Byte-level mutations of valid files: each must parse or throw, never trap or hang, and
/// whatever parses must satisfy `WebVTTFuzz.check` (sane cues, lookup agreeing with a scan,
/// markup and plain parses agreeing, write → parse unchanged, sane thumbnails). Failures are
/// recorded as issues rather than traps so one bad case does not hide the others.
@Suite("Mutations")
struct MutationTests {
    static let interesting: [UInt8] =
        Array("-->:.\n\r <>&;#%,0159 NOTESTYLEREGIONxywh=".utf8)
        + [0x00, 0x09, 0x0C, 0x7F, 0x80, 0xC3, 0xFF, 0xEF, 0xBB, 0xBF]
    static let splices: [[UInt8]] = [
        "-->", "\n\n", "\r\n", "NOTE", "STYLE\n", "REGION\nid:x\n", "00:00.000", "99:59:59.999", "&amp;", "&#x1F600;",
        "<v A>", "</c>", "line:-1 ", "region:x ", "#xywh=1,2,3,4", "X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0\n",
    ].map { Array($0.utf8) }

    static func corpus() -> [[UInt8]] {
        var corpus = Fixtures.all.map { Array($0.text.utf8) }
        corpus.append(Array(Fixtures.full.replacing("\n", with: "\r\n").utf8))
        corpus.append([0xEF, 0xBB, 0xBF] + Array(Fixtures.simple.replacing("\n", with: "\r").utf8))
        return corpus
    }

    static func mutate(_ input: [UInt8], random: inout SeededRandom) -> [UInt8] {
        ByteMutator(interesting: interesting, splices: splices, maxEdits: 4, maxDuplicate: 80, maxDigits: 25).mutate(input, random: &random)
    }

    /// The fuzz budget CI gives the parser (issue 6: 60 s, 0 crashes), time-bound rather than
    /// count-bound, with a seed that changes per run (printed, so a failure can be replayed with
    /// `COVE_FUZZ_SEED`). Locally 5 s unless `COVE_FUZZ_SECONDS` says otherwise.
    @Test func fuzzForTheTimeBudget() {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["COVE_FUZZ_SECONDS"].flatMap(Double.init) ?? (environment["CI"] == "true" ? 60 : 5)
        let seed = environment["COVE_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("WebVTT fuzz: seed \(seed), \(seconds) s (replay with COVE_FUZZ_SEED=\(seed))")
        var random = SeededRandom(seed: seed)
        let corpus = Self.corpus()
        let deadline = Date().addingTimeInterval(seconds)
        var runs = 0
        var violations = 0
        var input = corpus[0]
        while Date() < deadline && violations < 5 {
            // Mutate further from the last input half the time, so mutations stack up.
            input = Self.mutate(random.int(0...1) == 0 ? input : random.pick(corpus), random: &random)
            if input.count > 64 * 1024 { input = random.pick(corpus) }
            if let violation = WebVTTFuzz.check(input) {
                violations += 1
                Issue.record("seed \(seed), run \(runs): \(violation)\n--- input ---\n\(String(decoding: input, as: UTF8.self))")
            }
            runs += 1
        }
        print("WebVTT fuzz: \(runs) inputs in \(seconds) s, \(violations) violations")
        #expect(runs > 0)
    }

    @Test func twentyThousandMutationsParseOrThrow() async {
        var random = SeededRandom(seed: 0x00C0_7E17)
        let corpus = Self.corpus()
        var parsed = 0
        let total = 20_000
        for index in 0..<total {
            if index.isMultiple(of: 100) { await Task.yield() }
            let input = Self.mutate(corpus[index % corpus.count], random: &random)
            if let violation = WebVTTFuzz.check(input) {
                Issue.record("mutation \(index): \(violation)\n--- input ---\n\(String(decoding: input, as: UTF8.self))")
            }
            if (try? WebVTT.parse(input)) != nil { parsed += 1 }
        }
        print("WebVTT mutations: \(total), still parsed: \(parsed)")
        #expect(parsed > total / 4 && parsed < total)
    }

    @Test func everyTruncationOfTheFixturesParsesOrThrows() {
        for (name, text) in Fixtures.all {
            let bytes = Array(text.utf8)
            for length in 0...bytes.count {
                if let violation = WebVTTFuzz.check(Array(bytes[..<length])) {
                    Issue.record("\(name) cut at \(length): \(violation)")
                }
            }
        }
    }

    @Test func theFuzzEntryPointAcceptsAnything() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<500 {
            let length = random.int(0...300)
            WebVTTFuzz.run(random.bytes(length))
            WebVTTFuzz.run(Array("WEBVTT\n".utf8) + (0..<length).map { _ in random.pick(Self.interesting) })
        }
        for (_, text) in Fixtures.all { WebVTTFuzz.run(Array(text.utf8)) }
    }
}
