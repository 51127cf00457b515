import CoveTesting
import Foundation
import Testing

@testable import CoveDASH

/// Mutation fuzzing of the MPD parser and segment expansion: every input parses or throws a typed error,
/// each within a second; a crash ends the run (and fails it).
@Suite struct MPDFuzzTests {
    static let interesting: [UInt8] = Array("<>/=\"' $%0-19PTHMS.:Z+".utf8)
    static let splices: [[UInt8]] = [
        "<Period>", "</Period>", "<AdaptationSet contentType=\"video\">", "<Representation id=\"x\" bandwidth=\"1\">",
        "<SegmentTimeline><S t=\"0\" d=\"1\" r=\"-1\"/></SegmentTimeline>", "<S d=\"4294967295\" r=\"2147483647\"/>",
        "$Number%099d$", "$Time$", "$$", "timescale=\"0\"", "duration=\"PT0S\"", "start=\"-PT1S\"", "type=\"dynamic\"",
        "availabilityStartTime=\"1970-01-01T00:00:00Z\"", "<BaseURL>file:///</BaseURL>", "<SegmentBase indexRange=\"9-1\"/>",
        "<!DOCTYPE x>", "<?x?>", "\u{0}",
    ].map { Array($0.utf8) }

    static func corpus() -> [[UInt8]] {
        [timelineMPD, Self.listMPD].map { Array($0.utf8) }
    }

    static let listMPD = """
        <MPD type="static" mediaPresentationDuration="PT6S"><Period><AdaptationSet mimeType="audio/mp4" lang="en">
          <Representation id="list" bandwidth="64000"><SegmentList timescale="10" duration="30">
            <Initialization sourceURL="init.mp4" range="0-799"/><SegmentURL media="s1.mp4" mediaRange="800-1999"/><SegmentURL media="s2.mp4"/>
          </SegmentList></Representation>
          <Representation id="base" bandwidth="96000"><BaseURL>audio.mp4</BaseURL><SegmentBase indexRange="820-1023"><Initialization range="0-819"/></SegmentBase></Representation>
        </AdaptationSet></Period><Period duration="PT3S"/></MPD>
        """

    /// The fuzz budget CI gives the parser (30 s under CI=true, 5 s locally, or COVE_FUZZ_SECONDS), with a
    /// per-run seed printed for replay through COVE_FUZZ_SEED.
    @Test func fuzzForTheTimeBudget() {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["COVE_FUZZ_SECONDS"].flatMap(Double.init) ?? (environment["CI"] == "true" ? 30 : 5)
        let seed = environment["COVE_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("MPD fuzz: seed \(seed), \(seconds) s (replay with COVE_FUZZ_SEED=\(seed))")
        var random = SeededRandom(seed: seed)
        let corpus = Self.corpus()
        let mutator = ByteMutator(interesting: Self.interesting, splices: Self.splices, maxEdits: 4, maxDuplicate: 80, maxDigits: 25)
        let deadline = Date().addingTimeInterval(seconds)
        var runs = 0
        var slow = 0
        var input = corpus[0]
        while Date() < deadline && slow < 5 {
            input = mutator.mutate(random.int(0...1) == 0 ? input : random.pick(corpus), random: &random)
            if input.count > 64 * 1024 { input = random.pick(corpus) }
            let started = ContinuousClock.now
            MPDFuzz.run(input)
            if ContinuousClock.now - started > .seconds(1) {
                slow += 1
                Issue.record("seed \(seed), run \(runs): took over a second\n--- input ---\n\(String(decoding: input, as: UTF8.self))")
            }
            runs += 1
        }
        print("MPD fuzz: \(runs) inputs in \(seconds) s, \(slow) over a second")
        #expect(runs > 0)
    }
}
