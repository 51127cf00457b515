import CoveHLS
import Foundation
import Testing

/// Shapes real packagers write: Apple fMP4 byte ranges, ffmpeg, SSAI date ranges, LL-HLS tags.
@Suite("Real-world playlists")
struct RealWorldShapeTests {
    @Test func appleFragmentedMP4InheritsByteRangeOffsetsAndTheMap() throws {
        let playlist = try parseMedia(Fixtures.appleFragmentedMP4)
        #expect(playlist.version == 7)
        #expect(playlist.playlistType == .vod)
        #expect(playlist.hasIndependentSegments)
        let map = MediaInitializationSection(uri: "main.mp4", byteRange: ByteRange(length: 719, offset: 0))
        #expect(playlist.segments.allSatisfy { $0.map == map })
        #expect(
            playlist.segments.map(\.byteRange) == [
                ByteRange(length: 1_508_000, offset: 719),
                ByteRange(length: 1_510_244, offset: 1_508_719),
                ByteRange(length: 1_480_000, offset: 3_018_963),
                ByteRange(length: 610_000, offset: 4_498_963),
            ])
        #expect(playlist.segments.map(\.mediaSequence) == [1, 2, 3, 4])
        #expect(playlist.totalDuration == 20.5)
    }

    @Test func ffmpegMaster() throws {
        let playlist = try parseMaster(Fixtures.ffmpegMaster)
        #expect(playlist.version == 3)
        #expect(playlist.variants.map(\.uri) == ["v0/index.m3u8", "v1/index.m3u8", "v2/index.m3u8"])
        #expect(playlist.variants[0].resolution == Resolution(width: 426, height: 240))
        #expect(playlist.variants[0].codecs == ["avc1.42c015", "mp4a.40.2"])
        #expect(playlist.variants.map(\.bandwidth) == [1_210_000, 2_340_000, 5_640_000])
    }

    @Test func ffmpegMedia() throws {
        let playlist = try parseMedia(Fixtures.ffmpegMedia)
        #expect(playlist.targetDuration == 2)
        #expect(playlist.segments.map(\.uri) == ["seg_000.ts", "seg_001.ts", "seg_002.ts", "seg_003.ts"])
        #expect(playlist.segments.map(\.duration) == [2, 2, 2, 1.48])
        #expect(playlist.segments.map(\.startTime) == [0, 2, 4, 6])
        #expect(playlist.segments.allSatisfy { $0.title == nil })
    }

    @Test func crlfLineEndingsAndAByteOrderMarkAreAccepted() throws {
        let text = Fixtures.ffmpegMedia.replacingOccurrences(of: "\n", with: "\r\n")
        let playlist = try HLSPlaylist.parse([0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(playlist == (try HLSPlaylist.parse(Fixtures.ffmpegMedia)))
    }

    @Test func masterTagsAreAllRead() throws {
        let playlist = try parseMaster(
            """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Big Buck Bunny",LANGUAGE="en"
            #EXT-X-SESSION-DATA:DATA-ID="com.example.meta",URI="meta.json"
            #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1/2"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English 5.1",LANGUAGE="en",ASSOC-LANGUAGE="en-US",CHANNELS="6",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Forced",LANGUAGE="fr",FORCED=YES,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog, public.easy-to-read",URI="subs/fr.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English CC",INSTREAM-ID="CC1",LANGUAGE="en"
            #EXT-X-STREAM-INF:BANDWIDTH=6000000,AVERAGE-BANDWIDTH=5000000,CODECS="hvc1.2.4.L123.B0, ec-3",RESOLUTION=1920x1080,FRAME-RATE=29.970,HDCP-LEVEL=TYPE-0,VIDEO-RANGE=PQ,AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS="cc",PROGRAM-ID=1,PATHWAY-ID="CDN-A"
            hdr/1080p.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CLOSED-CAPTIONS=NONE
            sdr/360p.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=120000,RESOLUTION=640x360,CODECS="avc1.4d401e",VIDEO-RANGE=SDR,URI="sdr/iframes.m3u8"
            """)
        #expect(playlist.version == 6)
        #expect(playlist.hasIndependentSegments)
        #expect(playlist.start == StartPoint(timeOffset: -12.5, isPrecise: true))
        #expect(
            playlist.sessionData == [
                SessionData(dataID: "com.example.title", content: .value("Big Buck Bunny"), language: "en"),
                SessionData(dataID: "com.example.meta", content: .uri("meta.json")),
            ])
        let key = try #require(playlist.sessionKeys.first)
        #expect(key.method == .sampleAES && key.uri == "skd://key-1" && key.keyFormatVersionList == [1, 2])
        let audio = playlist.renditions[0]
        #expect(audio.channelCount == 6 && audio.associatedLanguage == "en-US")
        let subtitles = playlist.renditions[1]
        #expect(subtitles.type == .subtitles && subtitles.isForced)
        #expect(subtitles.characteristics == ["public.accessibility.transcribes-spoken-dialog", "public.easy-to-read"])
        let captions = playlist.renditions[2]
        #expect(captions.type == .closedCaptions && captions.instreamID == "CC1" && captions.uri == nil)
        let hdr = playlist.variants[0]
        #expect(hdr.codecs == ["hvc1.2.4.L123.B0", "ec-3"])
        #expect(hdr.frameRate == 29.97)
        #expect(hdr.hdcpLevel == .type0 && hdr.videoRange == .pq)
        #expect(hdr.audioGroup == "aud" && hdr.subtitlesGroup == "subs" && hdr.closedCaptions == .group("cc"))
        #expect(
            hdr.otherAttributes == [
                HLSAttribute(name: "PROGRAM-ID", value: .unquoted("1")),
                HLSAttribute(name: "PATHWAY-ID", value: .quoted("CDN-A")),
            ])
        #expect(playlist.variants[1].closedCaptions == .disabled)
        #expect(playlist.iFrameVariants.first?.videoRange == .sdr)
        expectRoundTrip(.master(playlist))
    }

    @Test func mediaTagsAreAllRead() throws {
        let playlist = try parseMedia(
            """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-START:TIME-OFFSET=10
            #EXT-X-DATERANGE:ID="ad-1",CLASS="com.example.ad",START-DATE="2024-05-01T10:00:06.000Z",DURATION=30.0,PLANNED-DURATION=30,SCTE35-OUT=0xFC302000,X-AD-ID="abc",X-COUNT=3
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://one",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",IV=0x0102
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00.000+02:00
            #EXTINF:6.006,Opening titles
            a.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-GAP
            #EXTINF:6,
            b.m4s
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-MAP:URI="init2.mp4",BYTERANGE="500"
            #EXT-X-PROGRAM-DATE-TIME:not a date
            #EXTINF:4.5,
            c.m4s
            #EXT-X-ENDLIST
            """)
        #expect(playlist.mediaSequence == 100 && playlist.discontinuitySequence == 7)
        #expect(playlist.playlistType == .event && playlist.hasEndList)
        #expect(playlist.start == StartPoint(timeOffset: 10))
        let segments = playlist.segments
        #expect(segments.map(\.mediaSequence) == [100, 101, 102])
        #expect(segments.map(\.discontinuitySequence) == [7, 8, 8])
        #expect(segments.map(\.isDiscontinuity) == [false, true, false])
        #expect(segments.map(\.isGap) == [false, true, false])
        #expect(segments[0].title == "Opening titles")
        #expect(segments[0].keys.map(\.uri) == ["skd://one", "data:text/plain;base64,AAAA"])
        #expect(segments[0].keys[1].iv == [UInt8](repeating: 0, count: 14) + [1, 2])
        #expect(segments[1].keys == segments[0].keys)
        #expect(segments[2].keys.isEmpty)
        #expect(segments[0].map?.uri == "init.mp4" && segments[1].map?.uri == "init.mp4")
        #expect(segments[2].map == MediaInitializationSection(uri: "init2.mp4", byteRange: ByteRange(length: 500, offset: 0)))
        let date = try #require(segments[0].programDateTime?.date)
        #expect(date.timeIntervalSince1970 == 1_714_550_400)
        #expect(segments[1].programDateTime == nil)
        #expect(segments[2].programDateTime?.text == "not a date" && segments[2].programDateTime?.date == nil)
        let range = try #require(playlist.dateRanges.first)
        #expect(range.id == "ad-1" && range.rangeClass == "com.example.ad" && range.duration == 30 && range.plannedDuration == 30)
        #expect(range.startDate.date?.timeIntervalSince1970 == 1_714_557_606)
        #expect(range.scte35Out == [0xFC, 0x30, 0x20, 0x00])
        #expect(range.clientAttribute("X-AD-ID") == .quoted("abc"))
        #expect(range.clientAttribute("X-COUNT") == .unquoted("3"))
        expectRoundTrip(.media(playlist))
    }

    @Test func keyRotationReplacesTheKeyOfTheSameFormatOnly() throws {
        let playlist = try parseMedia(
            media(
                """
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a1",KEYFORMAT="com.apple.streamingkeydelivery"
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="wv-1",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"
                #EXTINF:4,
                1.ts
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://a2",KEYFORMAT="com.apple.streamingkeydelivery"
                #EXTINF:4,
                2.ts
                """))
        #expect(playlist.segments[1].keys.map(\.uri) == ["skd://a2", "wv-1"])
        expectRoundTrip(.media(playlist))
    }

    @Test func lowLatencyAndOtherUnknownTagsAreKeptInOrder() throws {
        let text = media(
            """
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0
            #EXT-X-PART-INF:PART-TARGET=0.33334
            # a plain comment, dropped
            #EXTINF:4,
            #EXT-X-BITRATE:1200
            1.ts
            #EXT-X-PART:DURATION=0.33334,URI="2.part0.mp4",INDEPENDENT=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="2.part1.mp4"
            #EXT-X-RENDITION-REPORT:URI="../alt/index.m3u8",LAST-MSN=2
            """)
        let playlist = try parseMedia(text)
        #expect(
            playlist.segments[0].unknownTags == [
                "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0", "#EXT-X-PART-INF:PART-TARGET=0.33334", "#EXT-X-BITRATE:1200",
            ])
        #expect(
            playlist.unknownTags == [
                "#EXT-X-PART:DURATION=0.33334,URI=\"2.part0.mp4\",INDEPENDENT=YES",
                "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"2.part1.mp4\"",
                "#EXT-X-RENDITION-REPORT:URI=\"../alt/index.m3u8\",LAST-MSN=2",
            ])
        let written = expectRoundTrip(.media(playlist))
        #expect(!written.contains("plain comment"))
    }

    @Test func unknownMasterTagsAttachToTheNextVariant() throws {
        let playlist = try parseMaster(
            """
            #EXTM3U
            #EXT-X-CONTENT-STEERING:SERVER-URI="/steer",PATHWAY-ID="A"
            #EXT-X-STREAM-INF:BANDWIDTH=1
            a.m3u8
            #EXT-X-DEFINE:NAME="x",VALUE="y"
            """)
        #expect(playlist.variants[0].unknownTags == [#"#EXT-X-CONTENT-STEERING:SERVER-URI="/steer",PATHWAY-ID="A""#])
        #expect(playlist.unknownTags == [#"#EXT-X-DEFINE:NAME="x",VALUE="y""#])
        expectRoundTrip(.master(playlist))
    }

    @Test func segmentTagsAfterTheLastSegmentAreKept() throws {
        let playlist = try parseMedia(
            media(
                """
                #EXTINF:4,
                1.ts
                #EXT-X-DISCONTINUITY
                #EXT-X-KEY:METHOD=AES-128,URI="k2"
                """))
        #expect(playlist.segments.count == 1)
        #expect(playlist.unknownTags == ["#EXT-X-DISCONTINUITY", #"#EXT-X-KEY:METHOD=AES-128,URI="k2""#])
        expectRoundTrip(.media(playlist))
    }
}
