import CoveHLS
import Testing

/// Large but legitimate playlists parse completely. No timing assertions: the machine is shared.
@Suite("Scale")
struct ScaleTests {
    @Test func aFiftyThousandLinePlaylistParses() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:1000\n"
        text.reserveCapacity(1_200_000)
        for index in 0..<24_999 {
            text += "#EXTINF:2.000000,\nseg_\(index).ts\n"
        }
        text += "#EXT-X-ENDLIST\n"
        let playlist = try parseMedia(text)
        #expect(playlist.segments.count == 24_999)
        #expect(playlist.segments.last?.mediaSequence == 25_998)
        #expect(playlist.totalDuration == 49_998)
    }

    @Test func limitsCanBeRaisedForHugePlaylists() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n"
        for index in 0..<120 { text += "#EXTINF:1,\n\(index).ts\n" }
        expectFailure(text, .tooManyEntries, line: 2 + 2 * 101, limits: HLSParseLimits(maxSegments: 100))
        #expect(try parseMedia(text).segments.count == 120)
    }
}
