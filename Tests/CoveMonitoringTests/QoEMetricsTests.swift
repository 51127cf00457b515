import CoveCore
import CoveMonitoring
import Foundation
import MetricsTestKit
import Testing

/// What one run's figures become as metrics, labelled by stream.
@Suite("QoE metrics")
struct QoEMetricsTests {
    static func qoe(bytes: Int, wasted: Int, rebuffers: Int, startup: Duration?) -> QualityOfExperience {
        QualityOfExperience(
            startup: startup.map { .init(total: $0, catalog: nil, manifest: nil, firstSegment: nil, decode: nil) },
            rebufferCount: rebuffers, rebufferDuration: .milliseconds(1_500 * rebuffers), playingDuration: .seconds(20), mediaPlayed: 20,
            averageBitrate: 1_200_000, timeAtVariant: [], upSwitches: 1, downSwitches: 0, seekLatencies: [.milliseconds(250)],
            bytesFetched: bytes, bytesWasted: wasted, droppedFrames: nil, errors: []
        )
    }

    @Test func aRunAndAFailedRunAreCountedPerStream() throws {
        let metrics = TestMetrics()
        let recorder = QoEMetrics(factory: metrics)
        recorder.record(Self.qoe(bytes: 1_000, wasted: 100, rebuffers: 1, startup: .milliseconds(300)), stream: "a", failure: nil)
        recorder.record(Self.qoe(bytes: 2_000, wasted: 0, rebuffers: 0, startup: .milliseconds(200)), stream: "a", failure: nil)
        recorder.record(Self.qoe(bytes: 0, wasted: 0, rebuffers: 0, startup: nil), stream: "b", failure: PlaybackError(.notFound, "gone"))
        let a = [("stream", "a")], b = [("stream", "b")]
        #expect(try metrics.expectCounter("cove_monitor_runs_total", a).totalValue == 2)
        #expect(try metrics.expectCounter("cove_bytes_fetched_total", a).totalValue == 3_000)
        #expect(try metrics.expectCounter("cove_bytes_wasted_total", a).totalValue == 100)
        #expect(try metrics.expectCounter("cove_rebuffers_total", a).totalValue == 1)
        #expect(try metrics.expectMeter("cove_startup_seconds", a).lastValue == 0.2)
        #expect(try metrics.expectMeter("cove_monitor_last_run_success", a).lastValue == 1)
        #expect(try metrics.expectTimer("cove_startup_duration", a).values == [300_000_000, 200_000_000])
        #expect(try metrics.expectTimer("cove_seek_duration", a).values.count == 2)
        #expect(try metrics.expectCounter("cove_monitor_runs_total", b).totalValue == 1)
        #expect(try metrics.expectCounter("cove_monitor_failures_total", b + [("code", "notFound")]).totalValue == 1)
        #expect(try metrics.expectMeter("cove_monitor_last_run_success", b).lastValue == 0)
        #expect(throws: (any Error).self) { try metrics.expectCounter("cove_monitor_failures_total", a + [("code", "notFound")]) }
    }
}
