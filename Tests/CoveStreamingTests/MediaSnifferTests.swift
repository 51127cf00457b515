import CoveStreaming
import Foundation
import Testing

/// A captive portal's page, an empty 200 or junk must become a typed `notMedia` error the moment it
/// arrives, with a message that says what came instead — not a parser error, not a decoder waiting
/// forever for a sync byte.
@Suite("Media sniffer")
struct MediaSnifferTests {
    static let url = URL(string: "https://cdn.example.com/a/seg1.ts?token=SECRET")!

    static func notMedia(_ body: Data, contentType: String? = nil, playlist: Bool = false) -> StreamingError? {
        if playlist {
            return StreamingError.caught { () throws(StreamingError) in try MediaSniffer.checkPlaylist(body, contentType: contentType, url: url) }
        }
        return StreamingError.caught { () throws(StreamingError) in try MediaSniffer.checkSegment(body, contentType: contentType, url: url) }
    }

    // MARK: Recognised

    @Test func transportStream() {
        #expect(MediaSniffer.segmentFormat(FakeMedia.ts(variant: 0, sequence: 0, packets: 3)) == .mpegTS)
        // A single packet is enough to recognise.
        #expect(MediaSniffer.segmentFormat(FakeMedia.ts(variant: 0, sequence: 0, packets: 1)) == .mpegTS)
        // 0x47 at 0 but not at 188: not a transport stream.
        var broken = [UInt8](FakeMedia.ts(variant: 0, sequence: 0, packets: 2))
        broken[188] = 0x00
        #expect(MediaSniffer.segmentFormat(Data(broken)) == nil)
    }

    @Test(arguments: ["ftyp", "styp", "moof", "moov", "sidx"])
    func isoBMFFBoxes(type: String) throws {
        #expect(MediaSniffer.segmentFormat(FakeMedia.box(type, size: 64)) == .isoBMFF)
        #expect(try MediaSniffer.checkSegment(FakeMedia.box(type, size: 64), contentType: "video/mp4", url: Self.url) == .isoBMFF)
    }

    @Test func packedAudio() {
        let id3 = Data(Array("ID3".utf8) + [0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3F] + [UInt8](repeating: 0, count: 64))
        #expect(MediaSniffer.segmentFormat(id3) == .packedAudio)
        let adts = Data([0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + [UInt8](repeating: 0x21, count: 64))
        #expect(MediaSniffer.segmentFormat(adts) == .packedAudio)
        let ac3 = Data([0x0B, 0x77, 0x00, 0x00] + [UInt8](repeating: 0, count: 32))
        #expect(MediaSniffer.segmentFormat(ac3) == .packedAudio)
    }

    @Test func webVTT() {
        #expect(MediaSniffer.segmentFormat(Data("WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n".utf8)) == .webVTT)
        #expect(MediaSniffer.segmentFormat(Data([0xEF, 0xBB, 0xBF] + Array("\n\nWEBVTT\n".utf8))) == .webVTT)
    }

    @Test func playlistsWithBOMAndBlankLines() throws {
        try MediaSniffer.checkPlaylist(Data("#EXTM3U\n".utf8), contentType: nil, url: Self.url)
        try MediaSniffer.checkPlaylist(Data([0xEF, 0xBB, 0xBF] + Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n".utf8)), contentType: nil, url: Self.url)
        try MediaSniffer.checkPlaylist(Data("\r\n\n  \t\n#EXTM3U\n".utf8), contentType: "text/plain", url: Self.url)
        try MediaSniffer.checkPlaylist(Data([0xEF, 0xBB, 0xBF] + Array("\n\n#EXTM3U".utf8)), contentType: nil, url: Self.url)
    }

    // MARK: Rejected

    @Test func htmlPagesAreNotMedia() throws {
        for page in [
            "<!DOCTYPE html><html><body>Sign in to Wi-Fi</body></html>", "\n  <html><head><title>503</title></head></html>", "<HTML>Gateway Timeout</HTML>",
        ] {
            let segment = try #require(Self.notMedia(Data(page.utf8)))
            #expect(segment.code == .notMedia)
            #expect(segment.message.contains("an HTML page"), "\(segment.message)")
            let playlist = try #require(Self.notMedia(Data(page.utf8), playlist: true))
            #expect(playlist.code == .notMedia)
            #expect(playlist.message.contains("an HTML page"))
            #expect(playlist.message.contains("playlist"))
        }
        // A page that does not look like one by its first bytes is still called one by its Content-Type.
        let typed = try #require(Self.notMedia(Data("Please log in".utf8), contentType: "text/html; charset=utf-8", playlist: true))
        #expect(typed.message.contains("an HTML page"))
    }

    @Test func emptyBodiesAreNotMedia() throws {
        let segment = try #require(Self.notMedia(Data()))
        #expect(segment.code == .notMedia)
        #expect(segment.message.contains("an empty body"))
        let blank = try #require(Self.notMedia(Data("\n\n  \n".utf8), playlist: true))
        #expect(blank.message.contains("an empty body"))
    }

    @Test func jsonIsNotMedia() throws {
        let error = try #require(Self.notMedia(Data("{\"error\":\"geo blocked\"}".utf8), contentType: "application/json", playlist: true))
        #expect(error.code == .notMedia)
        #expect(error.message.contains("a JSON document"))
        let segment = try #require(Self.notMedia(Data("[1,2,3]".utf8)))
        #expect(segment.message.contains("a JSON document"))
    }

    /// Unknown binary bytes are damaged media (`corruptMedia`); text in their place is a server answering
    /// wrongly (`notMedia`).
    @Test func randomBytesAreCorruptMedia() throws {
        // Bytes chosen to match no signature (no 0x47, 0xFF, 0x0B, box type or text header).
        let junk = Data((0..<600).map { UInt8(0x10 + ($0 * 7) % 0x30) })
        let error = try #require(Self.notMedia(junk, contentType: "application/octet-stream"))
        #expect(error.code == .corruptMedia)
        #expect(error.playbackError.code == .corruptMedia)
        #expect(error.message.contains("neither a playlist nor media"))
        #expect(error.message.contains("application/octet-stream"))
        // A segment is not a playlist and a playlist is not a segment.
        #expect(Self.notMedia(FakeMedia.ts(variant: 0, sequence: 0), playlist: true)?.code == .notMedia)
        #expect(Self.notMedia(Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n".utf8))?.code == .notMedia)
    }

    /// A short text answer that happens to start with "G" (0x47, the TS sync byte) is not a transport
    /// stream: a TS segment is at least one whole 188-byte packet.
    @Test func shortTextStartingWithTheSyncByteIsNotMedia() throws {
        for text in ["Gateway Timeout", "GONE", "Geo-blocked: this content is not available in your region."] {
            let error = try #require(Self.notMedia(Data(text.utf8), contentType: "text/plain"), "\(text)")
            #expect(error.code == .notMedia)
        }
    }

    @Test func errorsCarryARedactedURL() throws {
        let error = try #require(Self.notMedia(Data("<html></html>".utf8)))
        #expect(error.url?.contains("SECRET") == false)
        #expect(error.url?.contains("REDACTED") == true)
        #expect(!error.description.contains("SECRET"))
        #expect(error.playbackError.code == .notMedia)
    }
}
