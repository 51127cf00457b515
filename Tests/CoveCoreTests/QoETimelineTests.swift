import Foundation
import Testing

@testable import CoveCore

/// The QoE timeline is a pure recorder: scripted events, their wall times and the engine's state in, the
/// plot's data out.
@Suite("QoE timeline")
struct QoETimelineTests {
    static let t0 = QoEMeterTests.t0
    static let s = QoEMeterTests.session

    static func status(_ position: Double, ahead: Double, estimate: Int) -> EngineStatus {
        EngineStatus(position: MediaTime(seconds: position), bufferedAhead: .milliseconds(Int64(ahead * 1000)), bandwidthEstimate: estimate, isPlaying: true)
    }

    static func record(_ events: [(Double, PlaybackEvent, EngineStatus?)], sampleInterval: Double = 0.25, maximumSamples: Int = 4000) -> QoETimeline {
        var timeline = QoETimeline(requestedAt: t0, sampleInterval: sampleInterval, maximumSamples: maximumSamples)
        for (at, event, status) in events { timeline.handle(event, at: t0.addingTimeInterval(at), status: status) }
        return timeline
    }

    /// A play with a switch up, a stall, a seek and an ad break: the plot's data, golden.
    static let scripted: [(Double, PlaybackEvent, EngineStatus?)] = [
        (0, .variantsDiscovered(s, VariantLadder(QoEMeterTests.ladder)), nil),
        (0.1, QoEMeterTests.segment(0, bandwidth: 400_000, bytes: 100_000, sentAt: 0.05, seconds: 0.05), nil),
        (0.2, .framePresented(s, FramePresentation(cause: .start, wallTime: t0.timeIntervalSince1970 + 0.2)), status(0, ahead: 2, estimate: 16_000_000)),
        (0.2, .lifecycle(s, .play), status(0, ahead: 2, estimate: 16_000_000)),
        (0.5, .variantChanged(s, VariantChange(from: QoEMeterTests.ladder[0], to: QoEMeterTests.ladder[2], reason: .adaptive)), nil),
        (0.6, QoEMeterTests.segment(2, bandwidth: 3_000_000, bytes: 750_000, sentAt: 0.5, seconds: 0.1), nil),
        (1, .progress(s, MediaTime(seconds: 0.8)), status(0.8, ahead: 3.2, estimate: 40_000_000)),
        (1.1, .progress(s, MediaTime(seconds: 0.9)), status(0.9, ahead: 3.1, estimate: 40_000_000)),
        (2, .lifecycle(s, .stalled), status(1.8, ahead: 0, estimate: 8_000_000)),
        (3.5, .lifecycle(s, .recovered), status(1.8, ahead: 2, estimate: 8_000_000)),
        (4, .adSequenceEntered(s, AdSequence(index: 0, beginTime: .seconds(2), duration: .seconds(1), contentTime: .seconds(2), ads: [])), nil),
        (5, .adSequenceExited(s, AdSequence(index: 0, beginTime: .seconds(2), duration: .seconds(1), contentTime: .seconds(2), ads: [])), nil),
        (5, .progress(s, MediaTime(seconds: 3.3)), status(3.3, ahead: 1.5, estimate: 8_000_000)),
        (5.5, .lifecycle(s, .bufferEmpty), status(20, ahead: 0, estimate: 8_000_000)),
        (5.9, .framePresented(s, FramePresentation(cause: .seek, wallTime: t0.timeIntervalSince1970 + 5.8)), status(20, ahead: 2, estimate: 8_000_000)),
        (6.9, .progress(s, MediaTime(seconds: 21)), status(21, ahead: 2.5, estimate: 9_000_000)),
        (7, .lifecycle(s, .error(PlaybackError(.downloadFailed, "segment 12 timed out"))), nil),
        (7.5, .lifecycle(s, .end), status(22, ahead: 0, estimate: 9_000_000)),
    ]

    @Test func aPlayWithAStallASeekASwitchAndAnAdBreakRecordsThePlotsData() {
        let timeline = Self.record(Self.scripted)
        #expect(abs((timeline.firstFrame ?? 0) - 0.2) < 1e-6)
        #expect(timeline.end == 7.5)
        #expect(timeline.ladder == [400_000, 1_200_000, 3_000_000])
        #expect(timeline.stalls == [.init(start: 2, end: 3.5)])
        #expect(timeline.adBreaks == [.init(start: 4, end: 5)])
        #expect(timeline.seeks.map(\.from) == [3.3] && timeline.seeks.map(\.to) == [20], "from the last playhead seen before it, to where its frame landed")
        #expect(timeline.seeks.map(\.start) == [5.5] && abs((timeline.seeks.first?.end ?? 0) - 5.8) < 1e-6)
        #expect(timeline.switches.count == 1 && timeline.switches[0].isUp)
        #expect(timeline.errors == [.init(time: 7, code: "downloadFailed", isFatal: false)])
        // The segment throughput: 750 000 bytes in 0.1 s; the 0.1 s progress after 1 s is within the sample interval.
        #expect(timeline.segments.map(\.throughput) == [16_000_000, 60_000_000])
        #expect(!timeline.samples.contains { $0.time == 1.1 }, "a sample 0.1 s after the last is skipped")
        let golden = """
            {"adBreaks":[{"end":5,"start":4}],"end":7.5,"errors":[{"code":"downloadFailed","fatal":false,"t":7}],"firstFrame":0.2,\
            "ladder":[400000,1200000,3000000],"samples":[{"bufferAhead":2,"playhead":0,"t":0.2,"throughputEstimate":16000000},\
            {"bufferAhead":3.2,"playhead":0.8,"t":1,"throughputEstimate":40000000},{"bufferAhead":0,"playhead":1.8,"t":2,"throughputEstimate":8000000},\
            {"bufferAhead":2,"playhead":1.8,"t":3.5,"throughputEstimate":8000000},{"bufferAhead":1.5,"playhead":3.3,"t":5,"throughputEstimate":8000000},\
            {"bufferAhead":0,"playhead":20,"t":5.5,"throughputEstimate":8000000},{"bufferAhead":2,"playhead":20,"t":5.9,"throughputEstimate":8000000},\
            {"bufferAhead":2.5,"playhead":21,"t":6.9,"throughputEstimate":9000000},{"bufferAhead":0,"playhead":22,"t":7.5,"throughputEstimate":9000000}],\
            "seeks":[{"end":5.8,"from":3.3,"start":5.5,"to":20}],"segments":[{"t":0.1,"throughput":16000000,"variant":400000},\
            {"t":0.6,"throughput":60000000,"variant":3000000}],"stalls":[{"end":3.5,"start":2}],\
            "switches":[{"from":400000,"reason":"adaptive","t":0.5,"to":3000000}]}
            """
        #expect(timeline.json.serialized() == golden)
    }

    /// A stall says BufferEmpty before it: that BufferEmpty began no seek.
    @Test func theBufferEmptyOfAStallIsNoSeek() {
        let timeline = Self.record([
            (0.2, .framePresented(Self.s, FramePresentation(cause: .start, wallTime: Self.t0.timeIntervalSince1970 + 0.2)), nil),
            (2, .lifecycle(Self.s, .bufferEmpty), Self.status(1.8, ahead: 0, estimate: 1)),
            (2, .lifecycle(Self.s, .stalled), Self.status(1.8, ahead: 0, estimate: 1)),
            (3, .lifecycle(Self.s, .recovered), Self.status(1.8, ahead: 1, estimate: 1)),
        ])
        #expect(timeline.seeks.isEmpty)
        #expect(timeline.stalls == [.init(start: 2, end: 3)])
    }

    /// Hours of progress keep at most `maximumSamples` samples: every other one goes and the interval doubles.
    @Test func aLongRecordingStaysBounded() {
        var timeline = QoETimeline(requestedAt: Self.t0, sampleInterval: 0.25, maximumSamples: 100)
        for tick in 0..<40_000 {
            let t = Double(tick) * 0.25
            timeline.handle(.progress(Self.s, MediaTime(seconds: t)), at: Self.t0.addingTimeInterval(t), status: Self.status(t, ahead: 2, estimate: 1_000_000))
        }
        #expect(timeline.samples.count <= 100 && timeline.samples.count >= 50)
        #expect(timeline.sampleInterval > 0.25)
        #expect(timeline.samples.first?.time == 0 && (timeline.samples.last?.time ?? 0) > 9_000, "the whole span stays covered")
    }

    /// A failure ends the recording and closes what was open.
    @Test func aFailureClosesTheOpenStallAndEnds() {
        let timeline = Self.record([
            (0.2, .framePresented(Self.s, FramePresentation(cause: .start, wallTime: Self.t0.timeIntervalSince1970 + 0.2)), nil),
            (2, .lifecycle(Self.s, .stalled), nil),
            (9, .lifecycle(Self.s, .fail(PlaybackError(.networkUnreachable, "gone"))), nil),
        ])
        #expect(timeline.stalls == [.init(start: 2, end: 9)])
        #expect(timeline.end == 9)
        #expect(timeline.errors.map(\.isFatal) == [true])
    }
}
