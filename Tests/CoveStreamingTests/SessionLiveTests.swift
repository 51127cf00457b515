import CoveStreaming
import CoveTesting
import Foundation
import Testing

/// A live playlist whose window the test moves: playback starts three target durations from the end,
/// segments appended later are fetched, times stay put while the window slides, and the seekable
/// range is the window up to the live edge. Target duration 1 s keeps reloads (one per target) fast.
@Suite("Streaming session: live")
struct SessionLiveTests {
    /// One-second segments `first…last`, no ENDLIST.
    static func window(_ range: ClosedRange<Int>) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(range.lowerBound)\n"
        for sequence in range { text += "#EXTINF:1.0,\ns\(sequence).ts\n" }
        return text
    }

    static func liveCDN(root: String, segments: ClosedRange<Int>) -> FakeCDN {
        let cdn = FakeCDN()
        for sequence in segments { cdn.set("\(root)/s\(sequence).ts", FakeMedia.ts(variant: 0, sequence: sequence)) }
        return cdn
    }

    @Test func startsAtTheLiveEdgeAndFollowsTheWindow() async throws {
        let cdn = Self.liveCDN(root: "/live", segments: 0...12)
        cdn.set("/live/index.m3u8", playlist: Self.window(0...5))
        let harness = Harness(cdn: cdn, url: FakeCDN.url("/live/index.m3u8"))
        defer { harness.session.close() }
        harness.session.start(at: nil)

        // Window 0…6 s, target 1 s: the live edge is 3 s, segment 3.
        try await waitUntil("the window's last segment") { harness.output.media.last?.sequence == 5 }
        #expect(harness.output.media.map(\.sequence) == [3, 4, 5])
        #expect(harness.output.media.map(\.start) == [3, 4, 5])
        #expect(harness.session.seekableRange == 0...3)
        #expect(harness.events.readyTimelines.count == 1)
        #expect(harness.events.readyTimelines.first?.isLive == true)

        // The encoder adds three segments; two fall off the front.
        cdn.set("/live/index.m3u8", playlist: Self.window(2...8))
        try await waitUntil("the appended segments", timeout: .seconds(3)) { harness.output.media.last?.sequence == 8 }
        #expect(harness.output.media.map(\.sequence) == [3, 4, 5, 6, 7, 8])
        // Sequence numbers keep their times across the reload: no jump back by the slide.
        #expect(harness.output.media.map(\.start) == [3, 4, 5, 6, 7, 8])
        #expect(harness.output.media.dropFirst().allSatisfy { !$0.discontinuity })
        #expect(harness.session.seekableRange == 2...6)
        #expect(harness.events.updatedTimelines.last?.segments.map(\.sequence) == Array(2...8))
        #expect(harness.output.endOfStream.isEmpty, "a live stream does not end while its playlist has no ENDLIST")
        #expect(harness.events.failures.isEmpty && harness.events.downloadFailures.isEmpty)
    }

    /// The same stream behind a master playlist with two variants: the switch to the higher variant
    /// keeps the times and the sequence, so no segment is fetched twice or skipped.
    @Test func aLiveLadderSwitchesWithoutLosingItsPlace() async throws {
        let cdn = FakeCDN()
        cdn.set(
            "/ladder/master.m3u8", playlist: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=200000\nlo/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1500000\nhi/index.m3u8\n")
        for (variant, name) in ["lo", "hi"].enumerated() {
            cdn.set("/ladder/\(name)/index.m3u8", playlist: Self.window(10...17))
            for sequence in 10...17 { cdn.set("/ladder/\(name)/s\(sequence).ts", FakeMedia.ts(variant: variant, sequence: sequence)) }
        }
        let harness = Harness(cdn: cdn, url: FakeCDN.url("/ladder/master.m3u8"))
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the window's last segment") { harness.output.media.last?.sequence == 17 }
        let media = harness.output.media
        // Window 0…8 s: edge 5 s, segment 15.
        #expect(media.map(\.sequence) == [15, 16, 17])
        #expect(media.map(\.variantIndex) == [0, 1, 1])
        #expect(media.map(\.start) == [5, 6, 7])
        #expect(media.allSatisfy { $0.data[1] == UInt8($0.variantIndex) && $0.data[2] == UInt8($0.sequence) })
    }

    /// When the encoder stops, the playlist gains an ENDLIST: the last segments are fetched and the
    /// stream ends, once.
    @Test func aLiveStreamThatEndsPushesTheEnd() async throws {
        let cdn = Self.liveCDN(root: "/ending", segments: 0...4)
        cdn.set("/ending/index.m3u8", playlist: Self.window(0...2))
        let harness = Harness(cdn: cdn, url: FakeCDN.url("/ending/index.m3u8"))
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the window's last segment") { harness.output.media.last?.sequence == 2 }
        #expect(harness.output.media.map(\.sequence) == [0, 1, 2], "a window of three targets starts at its start")
        cdn.set("/ending/index.m3u8", playlist: Self.window(1...4) + "#EXT-X-ENDLIST\n")
        try await waitUntil("the end of the stream", timeout: .seconds(3)) { !harness.output.endOfStream.isEmpty }
        #expect(harness.output.media.map(\.sequence) == [0, 1, 2, 3, 4])
        #expect(harness.output.endOfStream == [1])
        #expect(harness.output.endOfStreamAfter == [5])
        #expect(harness.session.seekableRange == 1...5, "an ended stream is seekable to its end")
    }

    /// An EVENT playlist keeps every segment: playback starts at its beginning unless told otherwise.
    @Test func anEventPlaylistStartsAtTheBeginning() async throws {
        let cdn = Self.liveCDN(root: "/event", segments: 0...5)
        cdn.set(
            "/event/index.m3u8",
            playlist: Self.window(0...5).replacingOccurrences(of: "#EXT-X-VERSION:3\n", with: "#EXT-X-VERSION:3\n#EXT-X-PLAYLIST-TYPE:EVENT\n"))
        let harness = Harness(cdn: cdn, url: FakeCDN.url("/event/index.m3u8"))
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the window's last segment") { harness.output.media.last?.sequence == 5 }
        #expect(harness.output.media.map(\.sequence) == [0, 1, 2, 3, 4, 5])
    }
}
