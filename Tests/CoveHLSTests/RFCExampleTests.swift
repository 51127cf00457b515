import CoveHLS
import Testing

/// The example playlists of RFC 8216 section 8, read field by field.
@Suite("RFC 8216 examples")
struct RFCExampleTests {
    @Test func simpleMediaPlaylist() throws {
        let playlist = try parseMedia(Fixtures.rfcSimpleMedia)
        #expect(playlist.version == 3)
        #expect(playlist.targetDuration == 10)
        #expect(playlist.hasEndList)
        #expect(!playlist.isLive)
        #expect(
            playlist.segments.map(\.uri) == [
                "http://media.example.com/first.ts", "http://media.example.com/second.ts", "http://media.example.com/third.ts",
            ])
        #expect(playlist.segments.map(\.duration) == [9.009, 9.009, 3.003])
        #expect(playlist.segments.map(\.startTime) == [0, 9.009, 9.009 + 9.009])
        #expect(playlist.segments.map(\.mediaSequence) == [0, 1, 2])
        #expect(playlist.segments.allSatisfy { $0.title == nil && !$0.isEncrypted && $0.map == nil })
        #expect(abs(playlist.totalDuration - 21.021) < 1e-9)
    }

    @Test func liveMediaPlaylist() throws {
        let playlist = try parseMedia(Fixtures.rfcLiveMedia)
        #expect(playlist.isLive)
        #expect(playlist.mediaSequence == 2680)
        #expect(playlist.segments.map(\.mediaSequence) == [2680, 2681, 2682])
        #expect(playlist.playlistType == nil)
    }

    @Test func encryptedMediaPlaylistAppliesEachKeyToTheSegmentsAfterIt() throws {
        let playlist = try parseMedia(Fixtures.rfcEncryptedMedia)
        #expect(playlist.targetDuration == 15)
        #expect(playlist.segments.count == 4)
        let first = EncryptionKey(method: .aes128, uri: "https://priv.example.com/key.php?r=52")
        let second = EncryptionKey(method: .aes128, uri: "https://priv.example.com/key.php?r=53")
        #expect(playlist.segments.map(\.keys) == [[first], [first], [first], [second]])
        #expect(playlist.segments[3].mediaSequence == 7797)
        #expect(playlist.segments[0].key?.iv == nil)
        #expect(playlist.segments[0].key?.effectiveKeyFormat == "identity")
    }

    @Test func masterPlaylist() throws {
        let playlist = try parseMaster(Fixtures.rfcMaster)
        #expect(playlist.variants.map(\.bandwidth) == [1_280_000, 2_560_000, 7_680_000, 65_000])
        #expect(playlist.variants.map(\.averageBandwidth) == [1_000_000, 2_000_000, 6_000_000, nil])
        #expect(playlist.variants[3].codecs == ["mp4a.40.5"])
        #expect(playlist.variants[0].uri == "http://example.com/low.m3u8")
        #expect(playlist.iFrameVariants.isEmpty && playlist.renditions.isEmpty)
    }

    @Test func masterPlaylistWithIFrames() throws {
        let playlist = try parseMaster(Fixtures.rfcMasterWithIFrames)
        #expect(playlist.variants.map(\.uri) == ["low/audio-video.m3u8", "mid/audio-video.m3u8", "hi/audio-video.m3u8", "audio-only.m3u8"])
        #expect(playlist.iFrameVariants.map(\.uri) == ["low/iframe.m3u8", "mid/iframe.m3u8", "hi/iframe.m3u8"])
        #expect(playlist.iFrameVariants.map(\.bandwidth) == [86_000, 150_000, 550_000])
    }

    @Test func alternativeAudio() throws {
        let playlist = try parseMaster(Fixtures.rfcAlternativeAudio)
        let audio = playlist.renditions(ofType: .audio, inGroup: "aac")
        #expect(audio.map(\.name) == ["English", "Deutsch", "Commentary"])
        #expect(audio.map(\.language) == ["en", "de", "en"])
        #expect(audio.map(\.isDefault) == [true, false, false])
        #expect(audio.map(\.isAutoselect) == [true, true, false])
        #expect(audio[1].uri == "main/german-audio.m3u8")
        #expect(playlist.variants.allSatisfy { $0.audioGroup == "aac" })
        #expect(playlist.variants[0].codecs == ["..."])
    }

    @Test func alternativeVideoKeepsGroupsAndTheVariantOrder() throws {
        let playlist = try parseMaster(Fixtures.rfcAlternativeVideo)
        #expect(playlist.renditions.count == 9)
        #expect(playlist.renditions(ofType: .video, inGroup: "mid").map(\.name) == ["Main", "Centerfield", "Dugout"])
        #expect(playlist.variants.map(\.videoGroup) == ["low", "mid", "hi", nil])
        #expect(playlist.variants.first?.uri == "low/main/audio-video.m3u8")
    }

    @Test(arguments: Fixtures.all.map(\.name))
    func everyExampleRoundTrips(_ name: String) throws {
        let text = try #require(Fixtures.all.first { $0.name == name }?.text)
        expectRoundTrip(try HLSPlaylist.parse(text))
    }
}
