import CoveCore
import Testing

/// The stream's cues as they arrive: sorted, bounded, and each cue held once however often it is delivered.
@Suite("Text cue index")
struct TextCueIndexTests {
    static func cue(_ text: String, _ start: Int64, _ end: Int64, id: String? = nil, settings: String = "") -> TextCue {
        TextCue(identifier: id, start: .milliseconds(start), end: .milliseconds(end), text: text, settings: settings)
    }

    /// The same cue delivered again exactly, or by a rebuilt pipeline a few milliseconds off, is held once;
    /// a cue with other text, settings or identifier, or the same text a real gap later, is another cue.
    @Test func aCueDeliveredAgainNearbyIsHeldOnce() {
        var index = TextCueIndex()
        let inserted1 = index.insert(Self.cue("Cue 2 at 2s", 2_000, 3_900))
        #expect(inserted1)
        let inserted2 = index.insert(Self.cue("Cue 2 at 2s", 2_000, 3_900))
        #expect(!inserted2, "identical")
        let inserted3 = index.insert(Self.cue("Cue 2 at 2s", 2_022, 3_922))
        #expect(!inserted3, "a rebuilt pipeline's placement, 22 ms later")
        let inserted4 = index.insert(Self.cue("Cue 2 at 2s", 1_950, 3_850))
        #expect(!inserted4, "or earlier")
        #expect(index.cues(at: .milliseconds(2_500)).count == 1)
        let inserted5 = index.insert(Self.cue("Cue 2 at 2s", 2_022, 5_000))
        #expect(inserted5, "another end: another cue")
        let inserted6 = index.insert(Self.cue("Cue 2 bis", 2_022, 3_922))
        #expect(inserted6)
        let inserted7 = index.insert(Self.cue("Cue 2 at 2s", 2_010, 3_910, settings: "line:10%"))
        #expect(inserted7)
        let inserted8 = index.insert(Self.cue("Cue 2 at 2s", 2_010, 3_910, id: "b"))
        #expect(inserted8)
        let inserted9 = index.insert(Self.cue("Cue 2 at 2s", 2_200, 4_100))
        #expect(inserted9, "200 ms later is a repeat, not a copy")
        #expect(index.cues.map(\.start) == index.cues.map(\.start).sorted())
    }

    @Test func theEarliestCuesGoPastTheCapacity() {
        var index = TextCueIndex(capacity: 2)
        for k in 0..<4 { index.insert(Self.cue("c\(k)", Int64(k) * 1_000, Int64(k) * 1_000 + 500)) }
        #expect(index.cues.map(\.text) == ["c2", "c3"])
        #expect(index.nextChange(after: .milliseconds(2_100)) == .milliseconds(2_500))
    }
}
