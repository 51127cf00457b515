import CoveCore
import Foundation

/// Plays streams headless on a schedule and measures every run with a `QoEMeter`, publishing the figures
/// through `QoEMetrics`: what `cove monitor` does, for a probe that watches streams the way viewers would.
/// Each run is a fresh controller torn down at its end, so hours of runs keep no state but the metrics.
/// A failing stream is a failed run (counted, with its error code), never a crash.
public final class StreamMonitor: Sendable {
    public struct Target: Sendable, Hashable {
        public let url: URL
        /// The `stream` label of its metrics (default: the URL, redacted).
        public let label: String

        public init(url: URL, label: String? = nil) {
            self.url = url
            self.label = label ?? Redaction.redact(url: url)
        }
    }

    public struct Configuration: Sendable {
        /// From the start of one round of runs to the start of the next (a round plays every target once).
        public var interval: Duration
        /// How long a run plays at most (a VOD that ends sooner ends the run; a live stream plays this long).
        public var playFor: Duration
        /// Real-time playback (false: unsynchronised, as fast as it decodes).
        public var paced: Bool

        public init(interval: Duration = .seconds(60), playFor: Duration = .seconds(20), paced: Bool = true) {
            self.interval = max(interval, .zero)
            self.playFor = max(playFor, .milliseconds(100))
            self.paced = paced
        }
    }

    /// One finished run.
    public struct Run: Sendable {
        public let target: Target
        public let startedAt: Date
        public let qoe: QualityOfExperience
        /// Why it failed; nil when it played (to its end or for `playFor`).
        public let failure: PlaybackError?
    }

    public let targets: [Target]
    public let configuration: Configuration
    private let metrics: QoEMetrics
    private let makeController: @Sendable () async -> PlaybackController

    /// - Parameters:
    ///   - targets: the streams to play, each with the label its metrics carry.
    ///   - configuration: how often, how long and how fast each stream plays.
    ///   - metrics: where the figures go (default: the process's bootstrapped metrics system).
    ///   - makeController: a fresh controller for each run (its engine and output are the app's choice).
    public init(
        targets: [Target], configuration: Configuration = Configuration(), metrics: QoEMetrics = QoEMetrics(),
        makeController: @escaping @Sendable () async -> PlaybackController
    ) {
        self.targets = targets
        self.configuration = configuration
        self.metrics = metrics
        self.makeController = makeController
    }

    /// Plays every target once per round, rounds `interval` apart, until the task is cancelled or
    /// `rounds` are done; `onRun` hears each run as it finishes.
    public func run(rounds: Int? = nil, onRun: @Sendable (Run) -> Void = { _ in }) async {
        var round = 0
        while !Task.isCancelled, rounds.map({ round < $0 }) ?? true {
            let started = ContinuousClock.now
            for target in targets {
                guard !Task.isCancelled else { return }
                onRun(await measure(target))
            }
            round += 1
            guard rounds.map({ round < $0 }) ?? true else { return }
            let next = started + configuration.interval
            if next > ContinuousClock.now { try? await Task.sleep(until: next, clock: .continuous) }
        }
    }

    /// One run of `target`: play until its end, a failure or `playFor`, then record it.
    public func measure(_ target: Target) async -> Run {
        let controller = await makeController()
        let events = controller.events
        let startedAt = Date()
        var meter = QoEMeter(requestedAt: startedAt, maximumRate: configuration.paced ? 4 : nil)
        let limit = configuration.playFor
        let deadline = Task {
            try? await Task.sleep(for: limit)
            controller.shutdown()
        }
        controller.setVideos([Video(url: target.url)])
        controller.play()
        var failure: PlaybackError?
        // Cancelling the monitor ends the run in flight (its figures so far are still recorded).
        await withTaskCancellationHandler {
            for await event in events {
                meter.handle(event, at: Date(), status: event.session?.player?.status)
                switch event {
                case .lifecycle(_, .end):
                    controller.shutdown()
                case .lifecycle(_, .fail(let error)), .lifecycle(_, .failedToPlayToEndTime(let error)):
                    failure = failure ?? error
                    controller.shutdown()
                case .noPlayableVideosFound:
                    failure = failure ?? PlaybackError(.noPlayableSource, "No playable source for \(target.label)")
                    controller.shutdown()
                default:
                    break
                }
            }
        } onCancel: {
            controller.shutdown()
        }
        deadline.cancel()
        let qoe = meter.summary(at: Date())
        metrics.record(qoe, stream: target.label, failure: failure)
        return Run(target: target, startedAt: startedAt, qoe: qoe, failure: failure)
    }
}
