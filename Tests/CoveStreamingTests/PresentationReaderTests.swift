import CoveCore
import CoveHLS
import Foundation
import Testing

@testable import CoveStreaming

/// HLS into the presentation model: what a master playlist says becomes variants and renditions with
/// absolute URLs, and a media playlist's tags (maps, byte ranges, discontinuities, keys, gaps) reach
/// every segment they apply to — the session fetches exactly what these values say.
@Suite("HLS presentation reader")
struct PresentationReaderTests {
    static let masterURL = URL(string: "https://cdn.example.com/show/master.m3u8?token=abc")!

    static let master = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-START:TIME-OFFSET=12.5
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",AUTOSELECT=YES,URI="audio/de.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Muxed",LANGUAGE="fr"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English CC",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI="subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Forced",LANGUAGE="en",AUTOSELECT=YES,FORCED=YES,URI="subs/forced.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2500000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2",FRAME-RATE=29.970,AUDIO="aud",SUBTITLES="subs"
        hi/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="aud",SUBTITLES="subs"
        /abs/lo.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=1500000,RESOLUTION=1280x720,AUDIO="aud"
        https://other.example.net/mid.m3u8

        """

    static func entry(_ text: String, url: URL = masterURL) throws -> HLSPresentationReader.Entry {
        try HLSPresentationReader.readEntry(Array(text.utf8), url: url)
    }

    static func presentation(_ text: String, url: URL = masterURL) throws -> Presentation {
        guard case .presentation(let presentation) = try entry(text, url: url) else {
            Issue.record("expected a master playlist to give a presentation")
            throw StreamingError(.invalidManifest, "not a presentation")
        }
        return presentation
    }

    // MARK: Master playlists

    @Test func variantsKeepListedOrderWithTheirAttributes() throws {
        let presentation = try Self.presentation(Self.master)
        #expect(presentation.manifestURL == Self.masterURL)
        #expect(presentation.variants.map(\.index) == [0, 1, 2])
        #expect(presentation.variants.map(\.bandwidth) == [3_000_000, 800_000, 1_500_000])
        let hi = presentation.variants[0]
        #expect(hi.averageBandwidth == 2_500_000)
        #expect(hi.width == 1920 && hi.height == 1080)
        #expect(hi.codecs == ["avc1.640028", "mp4a.40.2"])
        #expect(abs((hi.frameRate ?? 0) - 29.97) < 0.001)
        #expect(hi.audioGroup == "aud")
        #expect(hi.subtitlesGroup == "subs")
        #expect(presentation.variants[2].codecs.isEmpty)
        #expect(presentation.variants[2].subtitlesGroup == nil)
        // The ladder CoveCore sees is the same order; lowest-first ordering is a separate reading.
        #expect(presentation.ladder.map(\.bandwidth) == [3_000_000, 800_000, 1_500_000])
        #expect(presentation.indexesByBandwidth == [1, 2, 0])
    }

    /// Relative, root-relative and absolute URIs all resolve against where the master came from
    /// (the master's own query string is not carried over: RFC 3986 resolution).
    @Test func variantURLsResolveAgainstTheMasterURL() throws {
        let presentation = try Self.presentation(Self.master)
        #expect(
            presentation.variants.map(\.playlistURL.absoluteString) == [
                "https://cdn.example.com/show/hi/index.m3u8",
                "https://cdn.example.com/abs/lo.m3u8",
                "https://other.example.net/mid.m3u8",
            ])
    }

    @Test func audioAndSubtitleRenditions() throws {
        let presentation = try Self.presentation(Self.master)
        #expect(presentation.audioRenditions.map(\.name) == ["English", "Deutsch", "Muxed"])
        #expect(presentation.audioRenditions.allSatisfy { $0.kind == .audio && $0.groupID == "aud" })
        #expect(presentation.audioRenditions.map(\.language) == ["en", "de", "fr"])
        #expect(presentation.audioRenditions.map(\.isDefault) == [true, false, false])
        #expect(presentation.audioRenditions[0].playlistURL?.absoluteString == "https://cdn.example.com/show/audio/en.m3u8")
        // Without a URI the rendition is inside the variant's segments.
        #expect(presentation.audioRenditions[2].playlistURL == nil)

        // Closed captions are in the video stream: not a text rendition with a playlist.
        #expect(presentation.textRenditions.map(\.name) == ["English CC", "Forced"])
        #expect(presentation.textRenditions.allSatisfy { $0.kind == .text && $0.groupID == "subs" })
        #expect(presentation.textRenditions.map(\.isForced) == [false, true])
        #expect(presentation.textRenditions[1].playlistURL?.absoluteString == "https://cdn.example.com/show/subs/forced.m3u8")
    }

    @Test func startOffsetComesFromEXTXSTART() throws {
        #expect(try Self.presentation(Self.master).startOffset == 12.5)
        let withoutStart = Self.master.replacingOccurrences(of: "#EXT-X-START:TIME-OFFSET=12.5\n", with: "")
        #expect(try Self.presentation(withoutStart).startOffset == nil)
        let negative = Self.master.replacingOccurrences(of: "TIME-OFFSET=12.5", with: "TIME-OFFSET=-20")
        #expect(try Self.presentation(negative).startOffset == -20)
    }

    /// An `EXT-X-SESSION-KEY` of sample encryption under a key system's format is declared protection,
    /// its `data:` URI read as the system's `pssh` (so the first licence names its keys); an identity key
    /// (fetched from its URI) and AES-128 declare nothing, and a URI that is no `pssh` gives no header.
    @Test func sessionKeysDeclareProtectionWithTheirPSSH() throws {
        let kid: [UInt8] = Array(0..<16)
        let systemID: [UInt8] = [0x10, 0x77, 0xef, 0xec, 0xc0, 0xb2, 0x4d, 0x02, 0xac, 0xe3, 0x3c, 0x1e, 0x52, 0xe2, 0xfb, 0x4b]
        let payload: [UInt8] = [1, 0, 0, 0] + systemID + [0, 0, 0, 1] + kid + [0, 0, 0, 0]
        let box: [UInt8] = [0, 0, 0, UInt8(8 + payload.count)] + Array("pssh".utf8) + payload
        let dataURI = "data:text/plain;base64," + Data(box).base64EncodedString()
        let clearKey = "urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e"
        let text = Self.master.replacingOccurrences(
            of: "#EXT-X-INDEPENDENT-SEGMENTS\n",
            with: """
                #EXT-X-INDEPENDENT-SEGMENTS
                #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="\(dataURI)",KEYFORMAT="\(clearKey)",KEYFORMATVERSIONS="1"
                #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://asset-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
                #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="keys/identity.bin"
                #EXT-X-SESSION-KEY:METHOD=AES-128,URI="keys/aes.bin"

                """)
        let declared = try Self.presentation(text).contentProtection
        #expect(declared.map(\.keySystem) == [.clearKey, .fairPlay])
        #expect(declared.map(\.name) == [clearKey, "com.apple.streamingkeydelivery"])
        #expect(declared[0].systemHeader?.keyIDs == [KeyID(kid)!])
        #expect(declared[0].defaultKeyID == KeyID(kid)!)
        #expect(declared[1].systemHeader == nil && declared[1].defaultKeyID == nil)
        #expect(try Self.presentation(Self.master).contentProtection.isEmpty)
    }

    /// A master whose variant is the master itself would load it forever.
    @Test func masterListingItselfIsInvalid() {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nlo.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=900000\nmaster.m3u8\n"
        let url = URL(string: "https://cdn.example.com/show/master.m3u8")!
        let error = StreamingError.caught { () throws(StreamingError) in try HLSPresentationReader.readEntry(Array(text.utf8), url: url) }
        #expect(error?.code == .invalidManifest)
        #expect(error?.message.contains("itself") == true)
    }

    @Test func masterWithoutVariantsIsInvalid() {
        let text = "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",URI=\"en.m3u8\"\n"
        let error = StreamingError.caught { () throws(StreamingError) in try HLSPresentationReader.readEntry(Array(text.utf8), url: Self.masterURL) }
        #expect(error?.code == .invalidManifest)
        // The URL in the error is redacted (the master URL carries a token).
        #expect(error?.url?.contains("abc") == false)
    }

    /// The reader's own check, for a master whose variants all have URIs that do not resolve.
    @Test func masterWithOnlyUnresolvableVariantsIsInvalid() {
        let master = MasterPlaylist(variants: [VariantStream(uri: "a\u{1}b.m3u8", bandwidth: 1), VariantStream(uri: "", bandwidth: 2)])
        let error = StreamingError.caught { () throws(StreamingError) in try HLSPresentationReader.presentation(from: master, url: Self.masterURL) }
        #expect(error?.code == .invalidManifest)
        #expect(error?.message.contains("no playable variant") == true)
    }

    @Test func unparsableBytesAreInvalidManifest() {
        let error = StreamingError.caught { () throws(StreamingError) in
            try HLSPresentationReader.readEntry(Array("<html>nope</html>".utf8), url: Self.masterURL)
        }
        #expect(error?.code == .invalidManifest)
    }

    @Test func variantPlaylistThatIsAMasterIsInvalid() {
        let error = StreamingError.caught { () throws(StreamingError) in
            try HLSPresentationReader.readMediaPlaylist(Array(Self.master.utf8), url: Self.masterURL)
        }
        #expect(error?.code == .invalidManifest)
    }

    // MARK: A lone media playlist

    @Test func loneMediaPlaylistIsOneVariant() throws {
        let url = URL(string: "https://cdn.example.com/show/index.m3u8")!
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-START:TIME-OFFSET=2\n#EXTINF:4,\na.ts\n#EXTINF:4,\nb.ts\n#EXT-X-ENDLIST\n"
        guard case .singleVariant(let presentation, let playlist) = try Self.entry(text, url: url) else {
            Issue.record("a media playlist must read as a single variant")
            return
        }
        #expect(presentation.variants.count == 1)
        #expect(presentation.variants[0].playlistURL == url)
        #expect(presentation.variants[0].index == 0)
        #expect(presentation.manifestURL == url)
        #expect(presentation.startOffset == 2)
        #expect(playlist.segments.map(\.uri) == ["a.ts", "b.ts"])
    }

    // MARK: Segments

    static let mediaURL = URL(string: "https://cdn.example.com/show/hi/index.m3u8")!

    static func timeline(_ text: String, url: URL = mediaURL) throws -> MediaTimeline {
        let playlist = try HLSPresentationReader.readMediaPlaylist(Array(text.utf8), url: url)
        var clock = SequenceClock()
        return HLSPresentationReader.timeline(from: playlist, url: url, clock: &clock)
    }

    @Test func segmentsAreTimedAndResolved() throws {
        let timeline = try Self.timeline(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:100
            #EXTINF:6.0,
            s100.ts
            #EXTINF:5.5,
            ../other/s101.ts
            #EXTINF:4,
            https://edge.example.org/s102.ts
            #EXT-X-ENDLIST

            """)
        #expect(timeline.segments.map(\.sequence) == [100, 101, 102])
        #expect(timeline.segments.map(\.start) == [0, 6, 11.5])
        #expect(timeline.segments.map(\.duration) == [6, 5.5, 4])
        #expect(
            timeline.segments.map(\.url.absoluteString) == [
                "https://cdn.example.com/show/hi/s100.ts", "https://cdn.example.com/show/other/s101.ts", "https://edge.example.org/s102.ts",
            ])
        #expect(timeline.end == 15.5)
        #expect(timeline.targetDuration == 6)
        #expect(!timeline.isLive)
        #expect(!timeline.isEvent)
    }

    @Test func initSectionsApplyUntilTheNextMap() throws {
        let timeline = try Self.timeline(
            """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="init-a.mp4"
            #EXTINF:2,
            a0.m4s
            #EXTINF:2,
            a1.m4s
            #EXT-X-MAP:URI="both.mp4",BYTERANGE="720@0"
            #EXTINF:2,
            b0.m4s
            #EXT-X-ENDLIST

            """)
        let sections = timeline.segments.map(\.initSection)
        #expect(sections[0] == InitSection(url: URL(string: "https://cdn.example.com/show/hi/init-a.mp4")!))
        #expect(sections[1] == sections[0])
        #expect(sections[2] == InitSection(url: URL(string: "https://cdn.example.com/show/hi/both.mp4")!, byteRange: ByteSpan(offset: 0, length: 720)))
    }

    @Test func byteRangesAreResolvedToOffsets() throws {
        let timeline = try Self.timeline(
            """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:4
            #EXT-X-BYTERANGE:1000@0
            #EXTINF:4,
            all.ts
            #EXT-X-BYTERANGE:2000
            #EXTINF:4,
            all.ts
            #EXT-X-BYTERANGE:500@9000
            #EXTINF:4,
            all.ts
            #EXTINF:4,
            whole.ts
            #EXT-X-ENDLIST

            """)
        #expect(
            timeline.segments.map(\.byteRange) == [
                ByteSpan(offset: 0, length: 1000), ByteSpan(offset: 1000, length: 2000), ByteSpan(offset: 9000, length: 500), nil,
            ])
        #expect(timeline.segments[1].byteRange?.rangeHeader == "bytes=1000-2999")
    }

    @Test func discontinuitiesCountUp() throws {
        let timeline = try Self.timeline(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXTINF:4,
            a.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            ad.ts
            #EXTINF:4,
            ad2.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            b.ts
            #EXT-X-ENDLIST

            """)
        #expect(timeline.segments.map(\.discontinuity) == [7, 8, 8, 9])
        // Times continue across discontinuities: the timeline is the presentation's, not the encoder's.
        #expect(timeline.segments.map(\.start) == [0, 4, 8, 12])
    }

    @Test func keysApplyUntilMethodNone() throws {
        let timeline = try Self.timeline(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            clear.ts
            #EXT-X-KEY:METHOD=AES-128,URI="keys/k1.bin"
            #EXTINF:4,
            enc1.ts
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k2",IV=0x000102030405060708090A0B0C0D0E0F
            #EXTINF:4,
            enc2.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:4,
            clear2.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://asset",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:4,
            fps.ts
            #EXT-X-ENDLIST

            """)
        let keys = timeline.segments.map(\.key)
        #expect(keys[0] == nil)
        #expect(keys[1] == SegmentKey(method: .aes128, keyURL: URL(string: "https://cdn.example.com/show/hi/keys/k1.bin"), iv: nil))
        #expect(keys[2]?.method == .aes128)
        #expect(keys[2]?.keyURL?.absoluteString == "https://keys.example.com/k2")
        #expect(keys[2]?.iv == Array(0x00...0x0F))
        #expect(keys[2]?.keyFormat == "identity")
        #expect(keys[3] == nil, "METHOD=NONE clears the key")
        #expect(keys[4]?.method == .sampleAES)
        #expect(keys[4]?.keyFormat == "com.apple.streamingkeydelivery")
    }

    @Test func gapsAreMarked() throws {
        let timeline = try Self.timeline(
            """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            a.ts
            #EXT-X-GAP
            #EXTINF:4,
            missing.ts
            #EXTINF:4,
            b.ts
            #EXT-X-ENDLIST

            """)
        #expect(timeline.segments.map(\.isGap) == [false, true, false])
        #expect(timeline.segments[2].start == 8)
    }

    @Test func liveAndEventPlaylists() throws {
        let live = try Self.timeline("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n")
        #expect(live.isLive && !live.isEvent)
        let event = try Self.timeline("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:2,\na.ts\n")
        #expect(event.isLive && event.isEvent)
    }
}
