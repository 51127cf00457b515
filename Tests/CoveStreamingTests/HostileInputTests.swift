import CoveHLS
import CoveStreaming
import CoveTesting
import Foundation
import Testing

/// Whatever a server sends as a playlist, the reader must return a value or a `StreamingError` —
/// never trap. Seeded byte-level mutations of a valid master and media playlist (every failure can be
/// replayed from its seed), fed through `readEntry` and on into timelines.
@Suite("Hostile playlists")
struct HostileInputTests {
    static let url = URL(string: "https://cdn.example.com/show/master.m3u8")!

    static let master = Array(PresentationReaderTests.master.utf8)

    static let media = Array(
        """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:4
        #EXT-X-MEDIA-SEQUENCE:2147483640
        #EXT-X-DISCONTINUITY-SEQUENCE:3
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="800@0"
        #EXT-X-KEY:METHOD=AES-128,URI="k.bin",IV=0x0123456789ABCDEF0123456789ABCDEF
        #EXTINF:4.004,
        #EXT-X-BYTERANGE:1000@800
        all.m4s
        #EXT-X-BYTERANGE:1200
        #EXTINF:3.5,
        all.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-KEY:METHOD=NONE
        #EXT-X-GAP
        #EXTINF:4,
        gap.m4s
        #EXTINF:4,
        ../up/../x.m4s?token=abc
        #EXT-X-ENDLIST

        """.utf8)

    static let interesting: [UInt8] = Array(",\"=\n\r#@x-.:09AZ /?%".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xFF, 0xEF, 0xBB, 0xBF]

    static func mutate(_ input: [UInt8], random: inout SeededRandom) -> [UInt8] {
        ByteMutator(interesting: interesting, maxEdits: 6, maxDuplicate: 80, maxDigits: 25).mutate(input, random: &random)
    }

    /// Reads `bytes` all the way to timelines; returns whether it was accepted.
    static func read(_ bytes: [UInt8]) -> Bool {
        do {
            switch try HLSPresentationReader.readEntry(bytes, url: url) {
            case .presentation(let presentation):
                #expect(!presentation.variants.isEmpty)
                #expect(presentation.variants.enumerated().allSatisfy { $0.offset == $0.element.index })
                #expect(!presentation.variants.contains { $0.playlistURL == url })
            case .singleVariant(let presentation, let playlist):
                #expect(presentation.variants.count == 1)
                var clock = SequenceClock()
                let timeline = HLSPresentationReader.timeline(from: playlist, url: url, clock: &clock)
                // Twice, as a reload would: the clock must cope with whatever the first gave it.
                let again = HLSPresentationReader.timeline(from: playlist, url: url, clock: &clock)
                #expect(again.segments.map(\.start) == timeline.segments.map(\.start))
                _ = timeline.index(containing: timeline.liveEdge)
                _ = timeline.segments.first.map { timeline.index(ofSequence: $0.sequence) }
            }
            return true
        } catch {
            #expect(!error.message.isEmpty)
            #expect(error.code == .invalidManifest)
            return false
        }
    }

    @Test func mutatedPlaylistsReadOrThrowStreamingError() async {
        #expect(Self.read(Self.master))
        #expect(Self.read(Self.media))
        var random = SeededRandom(seed: 0x5EED_C0DE)
        var accepted = 0
        var rejected = 0
        for iteration in 0..<1_500 {
            if iteration.isMultiple(of: 25) { await Task.yield() }
            let source = iteration.isMultiple(of: 2) ? Self.master : Self.media
            if Self.read(Self.mutate(source, random: &random)) { accepted += 1 } else { rejected += 1 }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        #expect(accepted > 100)
        #expect(rejected > 100)
    }

    @Test func randomBytesAreRejected() {
        var random = SeededRandom(seed: 42)
        for length in [0, 1, 7, 64, 1_000] {
            #expect(!Self.read(random.bytes(length)))
        }
        #expect(!Self.read(Array("#EXTM3U".utf8) + random.bytes(300)))
    }
}
