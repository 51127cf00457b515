import CoveHLS
import Testing

/// parse → write → parse gives back the same value, for the examples and for generated playlists.
@Suite("Round trip")
struct RoundTripTests {
    /// 300 generated playlists of each kind, each from its own seed.
    @Test(arguments: [true, false])
    func generatedPlaylistsRoundTrip(isMaster: Bool) {
        var generator = PlaylistGenerator(seed: isMaster ? 0x5EED_0002 : 0x5EED_0001)
        for _ in 0..<300 {
            let output = isMaster ? generator.masterPlaylist() : generator.mediaPlaylist()
            let playlist: HLSPlaylist
            do {
                playlist = try HLSPlaylist.parse(output.text)
            } catch {
                Issue.record("generated playlist did not parse: \(error)\n\(output.text)")
                continue
            }
            #expect((isMaster ? playlist.master?.variants.count : playlist.media?.segments.count) == output.entryCount)
            let written = expectRoundTrip(playlist, source: output.text)
            #expect(written.hasPrefix("#EXTM3U\n"))
        }
    }

    @Test func writingIsStable() throws {
        var generator = PlaylistGenerator(seed: 0x5EED_0003)
        for index in 0..<100 {
            let output = index.isMultiple(of: 2) ? generator.mediaPlaylist() : generator.masterPlaylist()
            let once = try HLSPlaylist.parse(output.text).serialized()
            let twice = try HLSPlaylist.parse(once).serialized()
            #expect(once == twice)
        }
    }

    @Test func constructedValuesRoundTrip() {
        let key = EncryptionKey(method: .aes128, uri: "https://keys.example/k1", iv: Array(0..<16))
        let map = MediaInitializationSection(uri: "init.mp4", byteRange: ByteRange(length: 700, offset: 0))
        let playlist = MediaPlaylist(
            version: 7, targetDuration: 6, mediaSequence: 42, discontinuitySequence: 3, playlistType: .vod, hasEndList: true,
            hasIndependentSegments: true, start: StartPoint(timeOffset: -0.000001, isPrecise: true),
            segments: [
                MediaSegment(uri: "a.mp4", duration: 1e-7, title: "tiny", byteRange: ByteRange(length: 10, offset: 700), keys: [key], map: map),
                MediaSegment(
                    uri: "a.mp4", duration: 6.006, byteRange: ByteRange(length: 20, offset: 710), isDiscontinuity: true, keys: [key], map: map,
                    programDateTime: HLSDateTime(text: "2024-01-01T00:00:00Z")),
                MediaSegment(uri: "b.mp4", duration: 123_456_789.125, map: map, isGap: true, unknownTags: ["#EXT-X-BITRATE:5"]),
            ],
            dateRanges: [DateRange(id: "d", startDate: HLSDateTime(text: "2024-01-01T00:00:00Z"), duration: 1e20, scte35Out: [0xFC, 0x00])]
        )
        #expect(playlist.segments.map(\.mediaSequence) == [42, 43, 44])
        #expect(playlist.segments.map(\.discontinuitySequence) == [3, 4, 4])
        #expect(playlist.segments[2].startTime == 1e-7 + 6.006)
        let written = playlist.serialized()
        #expect(!written.contains("e-"), "no exponents: \(written)")
        #expect(written.contains("#EXTINF:0.0000001,tiny"))
        #expect(written.contains("#EXT-X-KEY:METHOD=NONE"))
        expectRoundTrip(.media(playlist))

        let master = MasterPlaylist(
            variants: [VariantStream(uri: "v.m3u8", bandwidth: 1, codecs: ["a", "b"], frameRate: 23.976, closedCaptions: .disabled)],
            renditions: [Rendition(type: .closedCaptions, groupID: "cc", name: "CC", instreamID: "CC1")]
        )
        expectRoundTrip(.master(master))
    }

    /// HLS cannot say "no initialisation section from here on", so a map, once set, stays.
    @Test func aMapCannotBeRemovedOnceSet() throws {
        let map = MediaInitializationSection(uri: "init.mp4")
        let playlist = MediaPlaylist(
            targetDuration: 4,
            segments: [
                MediaSegment(uri: "a.mp4", duration: 4, map: map),
                MediaSegment(uri: "b.ts", duration: 4),
            ])
        let reparsed = try parseMedia(playlist.serialized())
        #expect(reparsed.segments.map(\.map) == [map, map])
    }

    @Test func theWriterNeutralisesCharactersHLSCannotCarry() throws {
        let master = MasterPlaylist(variants: [
            VariantStream(uri: "a\nb.m3u8", bandwidth: 1, audioGroup: "say \"hi\"", otherAttributes: [HLSAttribute(name: "X-Y", value: .unquoted("1,2"))])
        ])
        let reparsed = try parseMaster(master.serialized())
        #expect(reparsed.variants[0].uri == "a b.m3u8")
        #expect(reparsed.variants[0].audioGroup == "say 'hi'")
        #expect(reparsed.variants[0].otherAttributes == [HLSAttribute(name: "X-Y", value: .unquoted("12"))])
    }
}
