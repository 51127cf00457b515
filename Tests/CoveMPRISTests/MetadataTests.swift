import CoveCore
import Foundation
import Testing

@testable import CoveMPRIS

/// What each Metadata key holds, from a video alone: no bus.
@Suite("MPRIS metadata")
struct MetadataTests {
    @Test func aCatalogVideoMapsToEveryKey() throws {
        let video = Video(
            url: URL(string: "https://cdn.example.com/v/master.m3u8?token=secret123&x=1")!,
            properties: ["id": "6140448705001", "name": "Sintel", "poster": "https://cdn.example.com/p.jpg", "duration": 52_209])
        let metadata = MediaPlayer2Metadata(video: video, sourceURL: nil, sessionID: 7, duration: nil)
        #expect(metadata.trackID == "/org/cove/Video/6140448705001/7")
        #expect(metadata.title == "Sintel")
        #expect(metadata.artURL == "https://cdn.example.com/p.jpg")
        #expect(metadata.videoID == "6140448705001")
        // The catalog's duration stands in until the engine knows better.
        #expect(metadata.lengthMicroseconds == 52_209_000)
        // The source URL is published redacted: any client on the bus reads it.
        let url = try #require(metadata.url)
        #expect(url.contains("cdn.example.com/v/master.m3u8") && !url.contains("secret123"), "\(url)")
    }

    @Test func theEnginesDurationWinsAndLiveHasNoLength() {
        let video = Video(url: URL(string: "https://example.com/a.m3u8")!, properties: ["duration": 10_000])
        #expect(MediaPlayer2Metadata(video: video, sourceURL: nil, sessionID: 1, duration: .milliseconds(12_345)).lengthMicroseconds == 12_345_000)
        let live = Video(url: URL(string: "https://example.com/live.m3u8")!)
        let metadata = MediaPlayer2Metadata(video: live, sourceURL: nil, sessionID: 1, duration: nil)
        #expect(metadata.length == nil)
        #expect(metadata.title == nil && metadata.artURL == nil && metadata.videoID == nil)
        #expect(metadata.trackID == "/org/cove/Session/1")
    }

    @Test func trackIDsAreObjectPathsAndNeverCollide() {
        let ids = ["abc", "a-b", "a_b", "a_2db", "ref:42", "é", "a b", "_", "A"]
        let paths = ids.map { MediaPlayer2Metadata.trackID(videoID: $0, sessionID: 3) }
        #expect(Set(paths).count == ids.count, "\(paths)")
        for path in paths {
            let elements = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            #expect(path.hasPrefix("/org/cove/Video/"))
            #expect(
                elements.allSatisfy {
                    !$0.isEmpty
                        && $0.utf8.allSatisfy { b in b == UInt8(ascii: "_") || (b < 128 && Character(Unicode.Scalar(b)).isLetter) || (b >= 48 && b <= 57) }
                }, "\(path)")
        }
        #expect(MediaPlayer2Metadata.trackID(videoID: "a-b", sessionID: 3) == "/org/cove/Video/a_2db/3")
        #expect(MediaPlayer2Metadata.trackID(videoID: "a_b", sessionID: 3) == "/org/cove/Video/a_5fb/3")
        // The same video played twice in a queue is two tracks.
        #expect(MediaPlayer2Metadata.trackID(videoID: "abc", sessionID: 3) != MediaPlayer2Metadata.trackID(videoID: "abc", sessionID: 4))
    }

    @Test func microsecondsRoundTowardZeroAndClamp() {
        #expect(MediaPlayer2Metadata.microseconds(.seconds(1.5)) == 1_500_000)
        #expect(MediaPlayer2Metadata.microseconds(.nanoseconds(1_999)) == 1)
        #expect(MediaPlayer2Metadata.microseconds(.seconds(Int64.max)) == .max)
    }
}
