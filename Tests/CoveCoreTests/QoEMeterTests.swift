import Foundation
import Testing

@testable import CoveCore

/// The QoE meter is a pure state machine: scripted events with their wall times in, figures out.
@Suite("QoE meter")
struct QoEMeterTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let session = PlaybackSession(
        id: 1, video: Video(url: URL(string: "https://cdn.example.com/v.m3u8")!), source: nil, player: nil, providerExtension: nil, send: { _ in })
    static let ladder = [400_000, 1_200_000, 3_000_000].enumerated().map { index, bandwidth in
        Variant(bandwidth: bandwidth, height: [240, 480, 720][index], url: "https://cdn.example.com/v\(index)/index.m3u8")
    }

    static func segment(_ start: Double, bandwidth: Int, bytes: Int, status: Int = 200, sentAt: Double = 0, seconds: Double = 0.1) -> PlaybackEvent {
        .mediaTransferred(
            session,
            MediaTransfer(
                kind: .segment, url: "https://cdn.example.com/seg", status: status, bytes: bytes, startedAt: t0.timeIntervalSince1970 + sentAt,
                duration: .milliseconds(Int64(seconds * 1000)), variantBandwidth: bandwidth, span: .init(start: start, duration: 2, stream: .main)
            ))
    }

    /// Feeds (wall second, event) pairs and returns the summary at the last one.
    static func run(_ events: [(Double, PlaybackEvent)], maximumRate: Double? = 4) -> QualityOfExperience {
        var meter = QoEMeter(requestedAt: t0, maximumRate: maximumRate)
        for (at, event) in events { meter.handle(event, at: t0.addingTimeInterval(at)) }
        return meter.summary(at: t0.addingTimeInterval(events.last?.0 ?? 0))
    }

    /// Playing 0–6 s while segments of three variants arrive: one download cut off and fetched again
    /// lower, one fetched ahead and never played. The bitrate is weighted by what played; the waste is
    /// exactly the cut-off and the unplayed bytes.
    @Test func bitratePlayedAndBytesWastedComeFromTheSegmentsThatPlayed() {
        let s = Self.session
        let q = Self.run([
            (0, .variantsDiscovered(s, VariantLadder(Self.ladder))),
            (
                0.01,
                .mediaTransferred(
                    s,
                    MediaTransfer(
                        kind: .manifest, url: "m", status: 200, bytes: 300, startedAt: Self.t0.timeIntervalSince1970 + 0.01, duration: .milliseconds(20)))
            ),
            (0.1, Self.segment(0, bandwidth: 400_000, bytes: 100_000, sentAt: 0.05, seconds: 0.1)),
            (0.2, .framePresented(s, FramePresentation(cause: .start, wallTime: Self.t0.timeIntervalSince1970 + 0.2))),
            (0.2, .lifecycle(s, .play)),
            (0.3, Self.segment(2, bandwidth: 3_000_000, bytes: 750_000)),
            (1, .progress(s, MediaTime(seconds: 0.8))),
            (1.5, Self.segment(4, bandwidth: 3_000_000, bytes: 5_000, status: 0)),
            (1.6, Self.segment(4, bandwidth: 1_200_000, bytes: 300_000)),
            (2, .progress(s, MediaTime(seconds: 1.8))), (3, .progress(s, MediaTime(seconds: 2.8))), (4, .progress(s, MediaTime(seconds: 3.8))),
            (4.5, Self.segment(6, bandwidth: 3_000_000, bytes: 750_000)),
            (5, .progress(s, MediaTime(seconds: 4.8))), (6.2, .progress(s, MediaTime(seconds: 6))),
            (6.2, .lifecycle(s, .pause)),
        ])
        #expect(q.bytesFetched == 300 + 100_000 + 750_000 + 5_000 + 300_000 + 750_000)
        #expect(q.bytesWasted == 5_000 + 750_000, "the cut-off download and the segment never played")
        #expect(abs(q.mediaPlayed - 6) < 0.001)
        #expect(q.timeAtVariant.map(\.bandwidth) == [400_000, 1_200_000, 3_000_000])
        #expect(q.timeAtVariant.map(\.height) == [240, 480, 720])
        #expect(q.timeAtVariant.map { ($0.played * 10).rounded() / 10 } == [2, 2, 2])
        #expect(q.averageBitrate == (400_000 + 1_200_000 + 3_000_000) / 3)
        let startup = try! #require(q.startup)
        #expect(startup.total == .milliseconds(200))
        #expect(startup.manifest == .milliseconds(20))
        #expect(startup.firstSegment == .milliseconds(100))
        #expect(startup.decode == .milliseconds(50), "first segment's last byte at 0.15 s, first frame at 0.2 s")
        #expect(q.playingDuration == .seconds(6))
    }

    /// A stall counts once with its wall time; a seek's latency runs from its BufferEmpty to its frame,
    /// and the media it skipped is not counted as played.
    @Test func stallsAndSeeksAreTimedAndSkippedMediaIsNotPlayed() {
        let s = Self.session
        let q = Self.run([
            (0.2, .framePresented(s, FramePresentation(cause: .start, wallTime: Self.t0.timeIntervalSince1970 + 0.2))),
            (0.2, .lifecycle(s, .play)),
            (1, .progress(s, MediaTime(seconds: 0.8))), (2, .progress(s, MediaTime(seconds: 1.8))),
            (2, .lifecycle(s, .stalled)), (3.5, .lifecycle(s, .recovered)),
            (4, .progress(s, MediaTime(seconds: 2.3))),
            (5, .lifecycle(s, .bufferEmpty)),
            (5.3, .framePresented(s, FramePresentation(cause: .seek, wallTime: Self.t0.timeIntervalSince1970 + 5.3))),
            (5.4, .progress(s, MediaTime(seconds: 20))), (6.4, .progress(s, MediaTime(seconds: 21))),
            (6.4, .lifecycle(s, .end)),
        ])
        #expect(q.rebufferCount == 1)
        #expect(q.rebufferDuration == .milliseconds(1_500))
        #expect(q.seekLatencies == [.milliseconds(300)])
        #expect(abs(q.mediaPlayed - (2.3 + 1)) < 0.001, "0–2.3 s and 20–21 s: \(q.mediaPlayed)")
        #expect(q.playingDuration == .milliseconds(4_700), "0.2–2 s and 3.5–6.4 s")
        #expect(abs(q.rebufferRatio - 1.5 / 6.2) < 0.0001)
        #expect(q.errors.isEmpty)
    }

    /// In fast (unsynchronised) playback the playhead outruns the clock: with no rate bound that is
    /// still one stretch, not a series of jumps. It starts where the app saw the playhead at the first
    /// frame (the first report comes seconds of media later) and the end plays it to the duration.
    @Test func unpacedPlaybackIsOneStretchFromTheFirstFrameToTheEnd() {
        let s = Self.session
        var meter = QoEMeter(requestedAt: Self.t0, maximumRate: nil)
        meter.handle(.durationChanged(s, .seconds(20)), at: Self.t0)
        meter.notePlayhead(0)
        for (at, event) in [
            (0.0, PlaybackEvent.lifecycle(s, .play)), (0.2, .progress(s, MediaTime(seconds: 8))), (0.3, .progress(s, MediaTime(seconds: 16))),
            (0.4, .lifecycle(s, .end)),
        ] { meter.handle(event, at: Self.t0.addingTimeInterval(at)) }
        #expect(meter.summary(at: Self.t0.addingTimeInterval(0.4)).mediaPlayed == 20)
    }

    /// The output's frame counts run per pipeline: a rebuilt one starts again from zero, and the earlier
    /// pipeline's counts are kept.
    @Test func frameCountsAddUpAcrossARebuiltPipeline() {
        var meter = QoEMeter(requestedAt: Self.t0)
        #expect(meter.summary(at: Self.t0).droppedFrames == nil, "not reported until the output counts")
        meter.noteFrames(rendered: 100, dropped: 2)
        meter.noteFrames(rendered: 240, dropped: 3)
        meter.noteFrames(rendered: 10, dropped: 0)
        meter.noteFrames(rendered: 50, dropped: 1)
        let q = meter.summary(at: Self.t0)
        #expect(q.renderedFrames == 290 && q.droppedFrames == 4)
        #expect(q.json["renderedFrames"] == 290 && q.json["droppedFrames"] == 4)
    }
}
