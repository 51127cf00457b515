import CoveText
import Testing

@Suite("Thumbnail tracks")
struct ThumbnailTests {
    static let base = "https://cdn.example.com/videos/42/thumbs/track.vtt?sig=abc"

    @Test func spriteTilesResolveAgainstTheTrackURL() throws {
        let track = try ThumbnailTrack.parse(Array(Fixtures.thumbnails.utf8), baseURL: Self.base)
        #expect(
            track.entries.map(\.imageURL) == [
                "https://cdn.example.com/videos/42/thumbs/sprite.jpg",
                "https://cdn.example.com/videos/42/thumbs/sprite.jpg",
                "https://cdn.example.com/videos/42/images/big.jpg",
            ])
        #expect(
            track.entries.map(\.rect) == [
                ThumbnailRect(x: 0, y: 0, width: 160, height: 90),
                ThumbnailRect(x: 160, y: 0, width: 160, height: 90),
                nil,
            ])
        #expect(track.warnings.isEmpty)
        #expect(track.thumbnail(at: 0)?.rect?.x == 0)
        #expect(track.thumbnail(at: 7.5)?.rect?.x == 160)
        #expect(track.thumbnail(at: 12)?.rect == nil)
        #expect(track.thumbnail(at: 12)?.imageURL.hasSuffix("big.jpg") == true)
        #expect(track.thumbnail(at: 15) == nil)
        #expect(track.thumbnail(at: -1) == nil)
    }

    @Test func absoluteAndSchemeRelativeURLs() throws {
        let text = """
            WEBVTT

            00:00.000 --> 00:01.000
            https://other.example/a/./b/../c.png?x=1&y=2#xywh=pixel:1,2,3,4

            00:01.000 --> 00:02.000
            //img.example/t.jpg

            00:02.000 --> 00:03.000
            /root.jpg#t=5

            00:03.000 --> 00:04.000
              padded.jpg#xywh=percent:0,0,50,50  
            """
        let track = try ThumbnailTrack.parse(Array(text.utf8), baseURL: Self.base)
        #expect(
            track.entries.map(\.imageURL) == [
                "https://other.example/a/c.png?x=1&y=2",
                "https://img.example/t.jpg",
                "https://cdn.example.com/root.jpg",
                "https://cdn.example.com/videos/42/thumbs/padded.jpg",
            ])
        #expect(track.entries[0].rect == ThumbnailRect(x: 1, y: 2, width: 3, height: 4))
        // A fragment without xywh means the whole image.
        #expect(track.entries[2].rect == nil)
        #expect(track.entries[3].rect == ThumbnailRect(x: 0, y: 0, width: 50, height: 50, unit: .percent))
    }

    @Test func withoutABaseRelativeURLsAreKeptAsWritten() throws {
        let track = try ThumbnailTrack.parse(Array(Fixtures.thumbnails.utf8), baseURL: nil)
        #expect(track.entries.map(\.imageURL) == ["sprite.jpg", "sprite.jpg", "../images/big.jpg"])
    }

    @Test func malformedFragmentsSkipTheEntryWithAWarning() throws {
        let fragments = [
            "xywh=1,2,3", "xywh=1,2,3,4,5", "xywh=a,b,c,d", "xywh=-1,0,10,10", "xywh=0,0,0,10", "xywh=0,0,10,0",
            "xywh=", "xywh=1,,3,4", "xywh=1234567890,0,1,1", "xywh=em:1,2,3,4", "xywh=percent:60,0,50,10", "xywh= 1,2,3,4",
        ]
        var text = "WEBVTT\n\n00:00.000 --> 00:01.000\ngood.jpg#xywh=0,0,10,10\n"
        for (index, fragment) in fragments.enumerated() {
            text += "\n00:0\(index % 10).000 --> 00:0\(index % 10).500\nbad\(index).jpg#\(fragment)\n"
        }
        text += "\n00:09.000 --> 00:10.000\n\n"
        let document = try parse(text)
        let track = ThumbnailTrack(document: document, baseURL: nil)
        #expect(track.entries.map(\.imageURL) == ["good.jpg"])
        #expect(track.warnings.count == fragments.count + 1)
        #expect(track.warnings.allSatisfy { $0.kind == .invalidThumbnail && $0.kind.skipsCue })
        #expect(track.warnings.first?.line == 6)
        #expect(track.warnings.last?.line == 6 + 3 * fragments.count)
    }

    @Test func overlappingEntriesPreferTheLatestStart() throws {
        let text = "WEBVTT\n\n00:00.000 --> 01:00.000\nwhole.jpg\n\n00:10.000 --> 00:20.000\ndetail.jpg\n\n00:10.000 --> 00:30.000\nsame-start.jpg"
        let track = try ThumbnailTrack.parse(Array(text.utf8), baseURL: nil)
        #expect(track.thumbnail(at: 5)?.imageURL == "whole.jpg")
        #expect(track.thumbnail(at: 15)?.imageURL == "detail.jpg")
        #expect(track.thumbnail(at: 25)?.imageURL == "same-start.jpg")
        #expect(track.thumbnail(at: 45)?.imageURL == "whole.jpg")
    }

    @Test func documentWarningsComeFirst() throws {
        let text = "WEBVTT\n\nbroken\n00:01 --> 00:02\nx.jpg\n\n00:02.000 --> 00:03.000\ny.jpg#xywh=1"
        let track = try ThumbnailTrack.parse(Array(text.utf8), baseURL: nil)
        #expect(track.warnings.map(\.kind) == [.badTimestamp, .invalidThumbnail])
        #expect(track.entries.isEmpty)
    }
}
