import CoveHLS
import CoveStreaming
import Foundation
import Testing

/// A live playlist restarts its own clock at its first segment on every reload. The session's timeline
/// must not: once a media sequence number has a time, every reload and every variant gives it the
/// same time, or the playhead jumps back by the window's slide and a variant switch lands elsewhere.
@Suite("Sequence clock and timelines")
struct SequenceClockTests {
    static let url = URL(string: "https://cdn.example.com/live/v0/index.m3u8")!

    /// A live window of `count` segments of `duration` seconds from `first`.
    static func window(first: Int, count: Int, duration: Double = 2, target: Int = 2, prefix: String = "s") throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for sequence in first..<(first + count) { text += "#EXTINF:\(duration),\n\(prefix)\(sequence).ts\n" }
        return try HLSPresentationReader.readMediaPlaylist(Array(text.utf8), url: url)
    }

    static func starts(_ timeline: MediaTimeline) -> [Int: Double] {
        Dictionary(uniqueKeysWithValues: timeline.segments.map { ($0.sequence, $0.start) })
    }

    @Test func reloadAfterTheWindowSlidKeepsEachSequencesTime() throws {
        var clock = SequenceClock()
        let first = HLSPresentationReader.timeline(from: try Self.window(first: 0, count: 6), url: Self.url, clock: &clock)
        #expect(Self.starts(first)[5] == 10.0)
        // Two segments fell off the front, two were added.
        let second = HLSPresentationReader.timeline(from: try Self.window(first: 2, count: 6), url: Self.url, clock: &clock)
        #expect(second.segments.map(\.sequence) == Array(2...7))
        #expect(Self.starts(second)[5] == 10.0)
        for (sequence, start) in Self.starts(first) where sequence >= 2 {
            #expect(Self.starts(second)[sequence] == start, "sequence \(sequence) moved")
        }
        #expect(second.start == 4.0)
        #expect(second.end == 16.0)
    }

    /// Without the clock the reload would start at 0 again: this is the failure the clock prevents.
    @Test func withoutSharedClockTheReloadStartsAtZero() throws {
        var fresh = SequenceClock()
        let alone = HLSPresentationReader.timeline(from: try Self.window(first: 2, count: 6), url: Self.url, clock: &fresh)
        #expect(alone.start == 0)
    }

    @Test func anotherVariantWithTheSameSequencesGetsTheSameTimes() throws {
        var clock = SequenceClock()
        let low = HLSPresentationReader.timeline(from: try Self.window(first: 40, count: 5), url: Self.url, clock: &clock)
        let otherURL = URL(string: "https://cdn.example.com/live/v1/index.m3u8")!
        let high = HLSPresentationReader.timeline(from: try Self.window(first: 40, count: 5, prefix: "hi"), url: otherURL, clock: &clock)
        #expect(high.segments.map(\.start) == low.segments.map(\.start))
        #expect(high.segments[0].url.absoluteString == "https://cdn.example.com/live/v1/hi40.ts")
    }

    /// Variant playlists of a live stream are rarely updated at the same instant: one is often a
    /// segment behind, so it does not contain the newest known segment. It must still line up by the
    /// sequence numbers it shares — with real-world durations (6.006 s under a 7 s target) an estimate
    /// from the target duration would be seconds off.
    @Test func aVariantOneSegmentBehindLinesUpBySharedSequences() throws {
        var clock = SequenceClock()
        let leading = HLSPresentationReader.timeline(from: try Self.window(first: 40, count: 5, duration: 6.006, target: 7), url: Self.url, clock: &clock)
        let otherURL = URL(string: "https://cdn.example.com/live/v1/index.m3u8")!
        let lagging = HLSPresentationReader.timeline(from: try Self.window(first: 39, count: 5, duration: 6.006, target: 7), url: otherURL, clock: &clock)
        for sequence in 40...43 {
            #expect(abs(Self.starts(lagging)[sequence, default: -100] - Self.starts(leading)[sequence, default: 100]) < 1e-9, "sequence \(sequence)")
        }
        #expect(abs(lagging.start - (leading.start - 6.006)) < 1e-9)
        // And the leading variant, reloaded after the lagging one, keeps its times too.
        let again = HLSPresentationReader.timeline(from: try Self.window(first: 41, count: 5, duration: 6.006, target: 7), url: Self.url, clock: &clock)
        #expect(abs(Self.starts(again)[44, default: -100] - Self.starts(leading)[44, default: 100]) < 1e-9)
    }

    /// After a long stall the reload may share nothing with what is known: it belongs after it, by
    /// sequence distance, not back at 0.
    @Test func reloadWithoutOverlapIsPlacedAfterTheKnownSegments() throws {
        var clock = SequenceClock()
        let first = HLSPresentationReader.timeline(from: try Self.window(first: 0, count: 5), url: Self.url, clock: &clock)
        #expect(first.end == 10)
        let later = HLSPresentationReader.timeline(from: try Self.window(first: 20, count: 3), url: Self.url, clock: &clock)
        #expect(later.start >= first.end)
        // Sequences 5…19 were missed, 2 s each: 20 starts at 40.
        #expect(later.start == 40)
        #expect(later.segments.map(\.start) == [40, 42, 44])
    }

    /// Segments shorter than the target duration: the segment right after the known ones starts where
    /// they end (the known end is exact; only missed segments need the target-duration estimate).
    @Test func reloadStartingRightAfterTheKnownSegmentsStartsAtTheirEnd() throws {
        var clock = SequenceClock()
        let first = HLSPresentationReader.timeline(from: try Self.window(first: 0, count: 5, duration: 2, target: 4), url: Self.url, clock: &clock)
        #expect(first.end == 10)
        let next = HLSPresentationReader.timeline(from: try Self.window(first: 5, count: 3, duration: 2, target: 4), url: Self.url, clock: &clock)
        #expect(next.start == 10, "no hole or overlap between sequence 4 and 5")
    }

    // MARK: MediaTimeline

    static func timeline(_ durations: [Double], firstSequence: Int = 10, start: Double = 0, target: Double = 4, live: Bool = false) -> MediaTimeline {
        var segments: [SegmentReference] = []
        var time = start
        for (offset, duration) in durations.enumerated() {
            segments.append(
                SegmentReference(sequence: firstSequence + offset, start: time, duration: duration, url: URL(string: "https://cdn.example.com/\(offset).ts")!))
            time += duration
        }
        return MediaTimeline(segments: segments, targetDuration: target, isLive: live)
    }

    @Test func indexContainingTime() {
        let timeline = Self.timeline([4, 4, 2, 4], start: 100)
        #expect(timeline.index(containing: 100) == 0)
        #expect(timeline.index(containing: 103.99) == 0)
        #expect(timeline.index(containing: 104) == 1)
        #expect(timeline.index(containing: 109.5) == 2)
        #expect(timeline.index(containing: 110) == 3)
        // Before the start: the first; at or past the end: the last.
        #expect(timeline.index(containing: 0) == 0)
        #expect(timeline.index(containing: 114) == 3)
        #expect(timeline.index(containing: 1_000) == 3)
        #expect(Self.timeline([]).index(containing: 0) == nil)
    }

    @Test func indexOfSequence() {
        let timeline = Self.timeline([4, 4, 4], firstSequence: 10)
        #expect(timeline.index(ofSequence: 10) == 0)
        #expect(timeline.index(ofSequence: 12) == 2)
        #expect(timeline.index(ofSequence: 9) == nil)
        #expect(timeline.index(ofSequence: 13) == nil)
        #expect(Self.timeline([]).index(ofSequence: 0) == nil)
        // Sequence numbers with a hole (segments skipped by a reader) are still found.
        let url = URL(string: "https://cdn.example.com/a.ts")!
        let holey = MediaTimeline(
            segments: [
                SegmentReference(sequence: 1, start: 0, duration: 2, url: url),
                SegmentReference(sequence: 3, start: 4, duration: 2, url: url),
                SegmentReference(sequence: 4, start: 6, duration: 2, url: url),
            ], targetDuration: 2, isLive: true)
        #expect(holey.index(ofSequence: 3) == 1)
        #expect(holey.index(ofSequence: 4) == 2)
        #expect(holey.index(ofSequence: 2) == nil)
    }

    @Test func liveEdgeIsThreeTargetDurationsFromTheEnd() {
        let timeline = Self.timeline(Array(repeating: 4, count: 10), start: 20, target: 4, live: true)
        #expect(timeline.end == 60)
        #expect(timeline.liveEdge == 48)
        // A window shorter than three targets: the edge is its start, never before.
        let short = Self.timeline([4, 4], start: 20, target: 4, live: true)
        #expect(short.liveEdge == 20)
    }
}
