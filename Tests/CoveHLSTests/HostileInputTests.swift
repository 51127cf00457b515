import CoveHLS
import CoveTesting
import Foundation
import Testing

/// Broken and hostile input: every case must fail with the specific kind, on the right line,
/// with a message — never a crash, a hang or a silent drop.
@Suite("Hostile input")
struct HostileInputTests {
    // MARK: Not a playlist

    @Test func emptyData() {
        expectFailure([UInt8](), .notAPlaylist, line: nil)
    }

    @Test func missingHeader() {
        expectFailure("#EXT-X-TARGETDURATION:10\n#EXTINF:1,\na.ts\n", .notAPlaylist, line: 1)
        expectFailure("\n#EXTM3U\n", .notAPlaylist, line: 1)
        expectFailure("#EXTM3U8\n", .notAPlaylist, line: 1)
        expectFailure("<html><body>404</body></html>", .notAPlaylist, line: 1)
    }

    @Test func binaryJunk() {
        var random = SeededRandom(seed: 7)
        let junk = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        expectFailure(junk, .notAPlaylist, line: 1)
        expectFailure([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .notAPlaylist, line: 1)
        expectFailure([0x47, 0x40, 0x00, 0x10] + [UInt8](repeating: 0xFF, count: 184), .notAPlaylist, line: 1)
        // UTF-16 with a byte-order mark is not UTF-8.
        expectFailure([0xFF, 0xFE] + Array("#EXTM3U\n".utf8).flatMap { [$0, 0] }, .notAPlaylist, line: 1)
    }

    @Test func headerOnly() {
        expectFailure("#EXTM3U\n", .missingTargetDuration, line: nil)
        expectFailure("#EXTM3U", .missingTargetDuration, line: nil)
        expectFailure("#EXTM3U\n#EXT-X-VERSION:3\n", .missingTargetDuration, line: nil)
    }

    // MARK: Bytes and characters

    @Test func nulBytesAreRefusedWithTheirOffset() {
        let prefix = Array("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\nseg".utf8)
        let error = expectFailure(prefix + [0] + Array(".ts\n".utf8), .invalidCharacter, line: 4)
        #expect(error?.byteOffset == prefix.count)
        expectFailure([UInt8]("#EXTM3U".utf8) + [0, 0, 0, 0], .notAPlaylist, line: 1)
    }

    @Test func invalidUTF8NamesTheByteOffset() {
        let prefix = Array("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,caf".utf8)
        let error = expectFailure(prefix + [0xE9] + Array("\na.ts\n".utf8), .invalidUTF8, line: 3)
        #expect(error?.byteOffset == prefix.count)
        #expect(error?.description.contains("offset \(prefix.count)") == true)
    }

    @Test(arguments: [
        [0xC0, 0xAF] as [UInt8],  // overlong "/"
        [0xED, 0xA0, 0x80],  // UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0xE2, 0x82],  // truncated at the end of the data
        [0x80],  // lone continuation byte
        [0xFF],
    ])
    func malformedUTF8Sequences(_ sequence: [UInt8]) {
        let prefix = Array("#EXTM3U\n#EXT-X-TARGETDURATION:10\nseg".utf8)
        let error = expectFailure(prefix + sequence, .invalidUTF8, line: 3)
        #expect(error?.byteOffset == prefix.count)
    }

    @Test func validMultibyteUTF8IsAccepted() throws {
        let playlist = try parseMedia(media("#EXTINF:1,Café 🎬 東京\nvidéo/片段.ts"))
        #expect(playlist.segments[0].title == "Café 🎬 東京")
        #expect(playlist.segments[0].uri == "vidéo/片段.ts")
    }

    @Test func loneCarriageReturnsAreRefused() {
        expectFailure("#EXTM3U\r#EXT-X-TARGETDURATION:10\r", .notAPlaylist, line: 1)
        expectFailure("#EXTM3U\n#EXT-X-TARGETDURATION:10\r#EXTINF:1,\n", .invalidCharacter, line: 2)
    }

    @Test func otherControlCharactersAreRefused() {
        expectFailure(media("#EXTINF:1,\na\u{1B}[31m.ts"), .invalidCharacter, line: 4)
    }

    // MARK: Size limits

    @Test func tooLarge() {
        let limits = HLSParseLimits(maxBytes: 100)
        expectFailure(Fixtures.rfcAlternativeVideo, .tooLarge, line: nil, limits: limits)
    }

    @Test func aOneMegabyteLineHitsTheLineLimit() {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1," + String(repeating: "x", count: 1_000_000) + "\na.ts\n"
        expectFailure(text, .lineTooLong, line: 3)
        let uri = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n" + String(repeating: "a", count: 70_000)
        expectFailure(uri, .lineTooLong, line: 4)
    }

    @Test func aMillionTinyLinesHitTheLineLimitFast() {
        var bytes = Array("#EXTM3U\n".utf8)
        bytes.reserveCapacity(2_000_010)
        for _ in 0..<1_000_000 { bytes.append(UInt8(ascii: "#")); bytes.append(0x0A) }
        let clock = ContinuousClock()
        let started = clock.now
        expectFailure(bytes, .tooManyLines, line: 250_001)
        let elapsed = clock.now - started
        print("a million tiny lines refused in \(elapsed)")
    }

    @Test func theLineLimitCountsLinesNotLineFeeds() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\na.ts\n"
        #expect(try parseMedia(text).segments.count == 1)
        _ = try HLSPlaylist.parse(text, limits: HLSParseLimits(maxLines: 4))
        expectFailure(text + "\n", .tooManyLines, line: 5, limits: HLSParseLimits(maxLines: 4))
    }

    @Test func tooManySegmentsVariantsAndAttributes() {
        var segments = media("")
        for index in 0..<11 { segments += "#EXTINF:1,\n\(index).ts\n" }
        expectFailure(segments, .tooManyEntries, line: 25, limits: HLSParseLimits(maxSegments: 10))

        var master = "#EXTM3U\n"
        for index in 0..<4 { master += "#EXT-X-STREAM-INF:BANDWIDTH=\(index)\n\(index).m3u8\n" }
        expectFailure(master, .tooManyEntries, line: 9, limits: HLSParseLimits(maxVariants: 3))

        let attributes = (0..<200).map { "X-A\($0)=1" }.joined(separator: ",")
        expectFailure(media("#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2024-01-01T00:00:00Z\",\(attributes)"), .tooManyAttributes, line: 3)
    }

    // MARK: Numbers

    @Test func bandwidthOverflow() {
        let error = expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=99999999999999999999999\na.m3u8\n", .numberOutOfRange, line: 2)
        #expect(error?.attribute == "BANDWIDTH")
        #expect(error?.tag == "EXT-X-STREAM-INF")
        let huge = "BANDWIDTH=" + String(repeating: "9", count: 60_000)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:\(huge)\na.m3u8\n", .numberOutOfRange, line: 2)
    }

    @Test(arguments: ["-1", "-0.5", "nan", "NaN", "inf", "-inf", "infinity", "1e3", "0x10", "+4", "", "abc", "1.2.3", " "])
    func invalidSegmentDurations(_ duration: String) {
        expectFailure(media("#EXTINF:\(duration),\na.ts"), .invalidTagValue, line: 3)
    }

    @Test func aDurationTooLargeForADouble() {
        expectFailure(media("#EXTINF:1" + String(repeating: "0", count: 400) + ",\na.ts"), .numberOutOfRange, line: 3)
    }

    @Test func sequenceNumbersThatWouldOverflow() throws {
        let last = try parseMedia(media("#EXT-X-MEDIA-SEQUENCE:\(Int.max)\n#EXTINF:1,\na.ts"))
        #expect(last.segments.map(\.mediaSequence) == [Int.max])
        expectFailure(media("#EXT-X-MEDIA-SEQUENCE:\(Int.max)\n#EXTINF:1,\na.ts\n#EXTINF:1,\nb.ts"), .numberOutOfRange, line: 7)
        expectFailure(media("#EXT-X-DISCONTINUITY-SEQUENCE:\(Int.max)\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\na.ts"), .numberOutOfRange, line: 6)
        expectFailure(media("#EXT-X-MEDIA-SEQUENCE:9223372036854775808"), .numberOutOfRange, line: 3)
    }

    @Test func negativeAndFractionalIntegers() {
        expectFailure("#EXTM3U\n#EXT-X-TARGETDURATION:-1\n", .invalidTagValue, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-TARGETDURATION:6.5\n", .invalidTagValue, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=-5\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=1920*1080\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,FRAME-RATE=-30\na.m3u8\n", .invalidAttribute, line: 2)
    }

    // MARK: Attribute lists

    @Test func unterminatedQuotes() {
        let error = expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.42c015\na.m3u8\n", .unterminatedQuotedString, line: 2)
        #expect(error?.attribute == "CODECS")
        expectFailure(media("#EXT-X-KEY:METHOD=AES-128,URI=\"k"), .unterminatedQuotedString, line: 3)
    }

    @Test func attributesWithoutValues() {
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH\na.m3u8\n", .attributeWithoutValue, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\na.m3u8\n", .attributeWithoutValue, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS\na.m3u8\n", .attributeWithoutValue, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=,CODECS=\"a\"\na.m3u8\n", .attributeWithoutValue, line: 2)
    }

    @Test func malformedAttributeLists() {
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,,CODECS=\"a\"\na.m3u8\n", .malformedAttributeList, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:=1\na.m3u8\n", .malformedAttributeList, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:bandwidth=1\na.m3u8\n", .malformedAttributeList, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"a\"b\na.m3u8\n", .malformedAttributeList, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=a\"b\"\na.m3u8\n", .malformedAttributeList, line: 2)
    }

    @Test func duplicateAttributes() {
        let error = expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,BANDWIDTH=2\na.m3u8\n", .duplicateAttribute, line: 2)
        #expect(error?.attribute == "BANDWIDTH")
    }

    @Test func toleratedAttributeListSpacing() throws {
        let playlist = try parseMaster("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1, RESOLUTION=2x3 ,\na.m3u8\n")
        #expect(playlist.variants[0].resolution == Resolution(width: 2, height: 3))
    }

    @Test func wronglyQuotedOrUnquotedValues() {
        expectFailure("#EXTM3U\n#EXT-X-MEDIA:TYPE=\"AUDIO\",GROUP-ID=\"a\",NAME=\"n\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=aac\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\"1\"\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=cc1\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure(
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\",DEFAULT=yes\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .invalidAttribute, line: 2)
    }

    // MARK: Master playlist structure

    @Test func streamInfAtTheEndWithoutURI() {
        let error = expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n# comment\n\n#EXT-X-STREAM-INF:BANDWIDTH=2\n\n", .missingURI, line: 6)
        #expect(error?.tag == "EXT-X-STREAM-INF")
    }

    @Test func streamInfFollowedByATag() {
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\na.m3u8\n", .missingURI, line: 2)
    }

    @Test func commentsBetweenStreamInfAndItsURIAreSkipped() throws {
        let playlist = try parseMaster("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n# note\n\na.m3u8\n")
        #expect(playlist.variants.map(\.uri) == ["a.m3u8"])
    }

    @Test func missingRequiredAttributes() {
        let bandwidth = expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8\n", .missingAttribute, line: 2)
        #expect(bandwidth?.attribute == "BANDWIDTH")
        expectFailure("#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .missingAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME=\"n\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .missingAttribute, line: 2)
        expectFailure(
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"n\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .missingAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .missingAttribute, line: 2)
        expectFailure(media("#EXT-X-KEY:METHOD=AES-128"), .missingAttribute, line: 3)
        expectFailure(media("#EXT-X-MAP:BYTERANGE=\"1@0\""), .missingAttribute, line: 3)
        expectFailure(media("#EXT-X-DATERANGE:ID=\"x\""), .missingAttribute, line: 3)
        expectFailure(media("#EXT-X-START:PRECISE=YES"), .missingAttribute, line: 3)
    }

    @Test func forbiddenAttributeCombinations() {
        expectFailure(
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"n\",INSTREAM-ID=\"CC1\",URI=\"cc.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n",
            .invalidAttribute, line: 2)
        expectFailure(
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\",INSTREAM-ID=\"CC1\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .invalidAttribute,
            line: 2)
        expectFailure("#EXTM3U\n#EXT-X-MEDIA:TYPE=TEXT,GROUP-ID=\"a\",NAME=\"n\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"x\",VALUE=\"v\",URI=\"u\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure("#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=NONE\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", .invalidAttribute, line: 2)
        expectFailure(media("#EXT-X-KEY:METHOD=NONE,URI=\"k\""), .invalidAttribute, line: 3)
        expectFailure(media("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x000102030405060708090A0B0C0D0E0F10"), .invalidAttribute, line: 3)
        expectFailure(media("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ"), .invalidAttribute, line: 3)
        expectFailure(media("#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"d\",END-ON-NEXT=YES"), .missingAttribute, line: 3)
        expectFailure(media("#EXT-X-START:TIME-OFFSET=1,PRECISION=YES"), .invalidAttribute, line: 3)
    }

    @Test func masterWithoutVariants() {
        expectFailure("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\"\n", .noVariants, line: nil)
    }

    @Test func uriWithoutStreamInf() {
        expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\nb.m3u8\n", .unexpectedURI, line: 4)
    }

    @Test func mixedPlaylistKinds() {
        let error = expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXT-X-TARGETDURATION:10\n", .mixedPlaylistKinds, line: 4)
        #expect(error?.description.contains("line 2") == true)
        expectFailure(media("#EXTINF:1,\na.ts\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\""), .mixedPlaylistKinds, line: 5)
    }

    // MARK: Media playlist structure

    @Test func missingTargetDuration() {
        expectFailure("#EXTM3U\n#EXTINF:1,\na.ts\n#EXT-X-ENDLIST\n", .missingTargetDuration, line: nil)
        expectFailure("#EXTM3U\na.ts\n", .missingTargetDuration, line: 2)
    }

    @Test func segmentURIWithoutExtinf() {
        expectFailure(media("#EXTINF:1,\na.ts\nb.ts"), .unexpectedURI, line: 5)
    }

    @Test func extinfWithoutURI() {
        expectFailure(media("#EXTINF:1,\na.ts\n#EXTINF:1,\n#EXT-X-ENDLIST"), .missingURI, line: 5)
        expectFailure(media("#EXTINF:1,\n#EXTINF:2,\na.ts"), .missingURI, line: 3)
    }

    @Test func duplicateAndMisplacedTags() {
        expectFailure(media("#EXT-X-TARGETDURATION:4"), .duplicateTag, line: 3)
        expectFailure(media("#EXT-X-VERSION:3\n#EXT-X-VERSION:4"), .duplicateTag, line: 4)
        expectFailure(media("#EXTINF:1,\na.ts\n#EXTM3U"), .duplicateTag, line: 5)
        expectFailure(media("#EXTINF:1,\n#EXT-X-BYTERANGE:1@0\n#EXT-X-BYTERANGE:1@1\na.ts"), .duplicateTag, line: 5)
        expectFailure(media("#EXTINF:1,\na.ts\n#EXT-X-MEDIA-SEQUENCE:4"), .misplacedTag, line: 5)
        expectFailure(media("#EXTINF:1,\n#EXT-X-DISCONTINUITY-SEQUENCE:4\na.ts"), .misplacedTag, line: 4)
    }

    @Test func flagTagsWithValuesAndValueTagsWithout() {
        expectFailure(media("#EXT-X-ENDLIST:YES"), .invalidTagValue, line: 3)
        expectFailure(media("#EXT-X-PLAYLIST-TYPE:LIVE"), .invalidTagValue, line: 3)
        expectFailure(media("#EXT-X-MEDIA-SEQUENCE"), .invalidTagValue, line: 3)
        expectFailure(media("#EXTINF"), .invalidTagValue, line: 3)
        expectFailure(media("#EXTINF:1,\n#EXT-X-PROGRAM-DATE-TIME:\na.ts"), .invalidTagValue, line: 4)
    }

    @Test func byteRangesThatCannotBeResolved() {
        expectFailure(media("#EXTINF:1,\n#EXT-X-BYTERANGE:100\na.mp4"), .invalidByteRange, line: 4)
        expectFailure(media("#EXTINF:1,\n#EXT-X-BYTERANGE:100@0\na.mp4\n#EXTINF:1,\n#EXT-X-BYTERANGE:100\nb.mp4"), .invalidByteRange, line: 7)
        expectFailure(media("#EXTINF:1,\na.mp4\n#EXTINF:1,\n#EXT-X-BYTERANGE:100\na.mp4"), .invalidByteRange, line: 6)
        expectFailure(media("#EXTINF:1,\n#EXT-X-BYTERANGE:100@x\na.mp4"), .invalidTagValue, line: 4)
        expectFailure(media("#EXTINF:1,\n#EXT-X-BYTERANGE:\(Int.max)@1\na.mp4"), .numberOutOfRange, line: 4)
    }

    @Test func everyErrorDescriptionSaysWhereAndWhat() {
        let error = expectFailure("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=99999999999999999999999\na.m3u8\n", .numberOutOfRange, line: 2)
        let description = error?.description ?? ""
        #expect(description.contains("line 2"))
        #expect(description.contains("BANDWIDTH"))
        #expect(description.contains("64 bits"))
        print(description)
    }

    @Test func errorMessagesDoNotEchoURIs() {
        let error = expectFailure(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhttps://cdn.example/a.m3u8?token=SECRET\nhttps://cdn.example/b.m3u8?token=SECRET\n", .unexpectedURI,
            line: 4)
        #expect(error?.description.contains("SECRET") == false)
    }
}
