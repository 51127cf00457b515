import CoreMetrics
import CoveCore

/// Publishes sessions' quality of experience as swift-metrics metrics, so a fleet of probes feeds
/// whatever monitoring system the app bootstrapped (Prometheus, OpenTelemetry, StatsD, …). Every metric
/// carries the stream's label (`stream`); names are Prometheus-style (`cove_…`, base units).
///
/// Per run: counters for runs, failures (by error code), bytes fetched and wasted, media played, stalls
/// and rebuffering time; gauges for the latest run's startup, rebuffer ratio, bitrate played and
/// success; timers (histograms) for startup and seek latency.
public struct QoEMetrics: Sendable {
    private let factory: any MetricsFactory

    /// - Parameter factory: where metrics go (default: the process's bootstrapped `MetricsSystem`).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// Records one finished run of `stream`: its figures, and its error when it failed.
    public func record(_ qoe: QualityOfExperience, stream: String, failure: PlaybackError?) {
        let labels = [("stream", stream)]
        Counter(label: "cove_monitor_runs_total", dimensions: labels, factory: factory).increment()
        Meter(label: "cove_monitor_last_run_success", dimensions: labels, factory: factory).set(failure == nil ? 1 : 0)
        if let failure {
            Counter(label: "cove_monitor_failures_total", dimensions: labels + [("code", failure.code.name)], factory: factory).increment()
        }
        Counter(label: "cove_bytes_fetched_total", dimensions: labels, factory: factory).increment(by: qoe.bytesFetched)
        Counter(label: "cove_bytes_wasted_total", dimensions: labels, factory: factory).increment(by: qoe.bytesWasted)
        Counter(label: "cove_rebuffers_total", dimensions: labels, factory: factory).increment(by: qoe.rebufferCount)
        FloatingPointCounter(label: "cove_rebuffer_seconds_total", dimensions: labels, factory: factory).increment(by: MediaTime(qoe.rebufferDuration).seconds)
        FloatingPointCounter(label: "cove_media_played_seconds_total", dimensions: labels, factory: factory).increment(by: qoe.mediaPlayed)
        Meter(label: "cove_rebuffer_ratio", dimensions: labels, factory: factory).set(qoe.rebufferRatio)
        if let dropped = qoe.droppedFrames { Counter(label: "cove_dropped_frames_total", dimensions: labels, factory: factory).increment(by: dropped) }
        if let rendered = qoe.renderedFrames { Counter(label: "cove_rendered_frames_total", dimensions: labels, factory: factory).increment(by: rendered) }
        if let bitrate = qoe.averageBitrate {
            Meter(label: "cove_bitrate_played_bits_per_second", dimensions: labels, factory: factory).set(bitrate)
        }
        if let startup = qoe.startup {
            Meter(label: "cove_startup_seconds", dimensions: labels, factory: factory).set(MediaTime(startup.total).seconds)
            Timer(label: "cove_startup_duration", dimensions: labels, factory: factory).recordNanoseconds(Self.nanoseconds(startup.total))
        }
        for latency in qoe.seekLatencies {
            Timer(label: "cove_seek_duration", dimensions: labels, factory: factory).recordNanoseconds(Self.nanoseconds(latency))
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
