import CoveHLS
import CoveTesting
import Testing

/// Thousands of byte-level mutations of valid playlists: each must parse or throw, never trap
/// or hang, and whatever parses must round-trip. This is `HLSFuzz.run` with failures recorded
/// as test issues instead of traps, so one bad case does not hide the others.
@Suite("Mutations")
struct MutationTests {
    static let interesting: [UInt8] = Array(",\"=\n\r#@x-.:09AZ ".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xFF, 0xEF, 0xBB, 0xBF]

    static func corpus() -> [[UInt8]] {
        var corpus = Fixtures.all.map { Array($0.text.utf8) }
        var generator = PlaylistGenerator(seed: 0xF022)
        for index in 0..<24 {
            let output = index.isMultiple(of: 2) ? generator.mediaPlaylist() : generator.masterPlaylist()
            corpus.append(Array(output.text.utf8))
        }
        return corpus
    }

    static func mutate(_ input: [UInt8], random: inout SeededRandom) -> [UInt8] {
        ByteMutator(interesting: interesting, maxEdits: 4, maxDuplicate: 60, maxDigits: 30).mutate(input, random: &random)
    }

    /// Returns whether the input parsed.
    @discardableResult
    static func check(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let playlist: HLSPlaylist
        do {
            playlist = try HLSPlaylist.parse(bytes)
        } catch {
            #expect(!error.description.isEmpty)
            return false
        }
        expectRoundTrip(playlist, source: String(decoding: bytes, as: UTF8.self), sourceLocation: sourceLocation)
        return true
    }

    @Test func mutatedPlaylistsParseOrThrow() async {
        var random = SeededRandom(seed: 0xBAD_5EED)
        let corpus = Self.corpus()
        var parsed = 0
        var total = 0
        for input in corpus {
            for _ in 0..<120 {
                if total.isMultiple(of: 50) { await Task.yield() }
                if Self.check(Self.mutate(input, random: &random)) { parsed += 1 }
                total += 1
            }
        }
        print("mutations: \(total), still parsed: \(parsed)")
        #expect(total >= 4000)
        #expect(parsed > 0 && parsed < total)
    }

    @Test func everyTruncationOfTheExamplesParsesOrThrows() {
        for (_, text) in Fixtures.all.prefix(4) {
            let bytes = Array(text.utf8)
            for length in 0...bytes.count { Self.check(Array(bytes[..<length])) }
        }
    }

    @Test func theFuzzEntryPointAcceptsAnything() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<300 {
            let length = random.int(0...200)
            HLSFuzz.run((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            HLSFuzz.run(Array("#EXTM3U\n".utf8) + (0..<length).map { _ in random.pick(Self.interesting) })
        }
        for (_, text) in Fixtures.all { HLSFuzz.run(Array(text.utf8)) }
    }
}
