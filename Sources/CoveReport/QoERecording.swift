import CoveCore
import Foundation
import Synchronization

/// One session recorded for its report: the figures (`QoEMeter`) and the timeline (`QoETimeline`) fed
/// from the same events. An app keeps one per video and hands each controller event to `handle`.
public struct QoERecording: Sendable {
    public private(set) var meter: QoEMeter
    public private(set) var timeline: QoETimeline

    /// - Parameters:
    ///   - requestedAt: when the app asked to play (startup and the timeline count from here).
    ///   - paced: false for playback not paced by the clock (a probe's fast mode; see `QoEMeter.maximumRate`).
    public init(requestedAt: Date, paced: Bool = true) {
        meter = QoEMeter(requestedAt: requestedAt, maximumRate: paced ? 4 : nil)
        timeline = QoETimeline(requestedAt: requestedAt)
    }

    /// Records an event seen at `now`; the engine's state is read from the event's session.
    public mutating func handle(_ event: PlaybackEvent, at now: Date) {
        let status = event.session?.player?.status
        meter.handle(event, at: now, status: status)
        timeline.handle(event, at: now, status: status)
    }

    /// The Playback API lookup that came before the play (startup's `catalog` part).
    public mutating func noteCatalog(_ duration: Duration) {
        meter.noteCatalog(duration)
    }

    public func summary(at now: Date) -> QualityOfExperience { meter.summary(at: now) }

    public func report(title: String, source: String, outcome: String, at now: Date = Date()) -> QoEReport {
        QoEReport(title: title, source: source, qoe: summary(at: now), timeline: timeline, outcome: outcome, generatedAt: now)
    }
}

extension QoEReport {
    /// Writes the page to `htmlPath` and the chart as a PNG to `pngPath` (either may be nil).
    public func write(htmlPath: String?, pngPath: String?) async throws(ReportError) {
        if let htmlPath { try ReportFile.write(Data(try html().utf8), to: htmlPath) }
        if let pngPath { try ReportFile.write(try await PNGRasterizer().png(fromSVG: chart.svg), to: pngPath) }
    }
}

/// Records a controller's first session as it plays, for its report: it listens to the controller's
/// events from its creation until the controller shuts down. Make it before `setVideos` so the startup
/// counts from the request.
public final class QoERecorder: Sendable {
    private final class Box: Sendable {
        let recording: Mutex<QoERecording>
        init(_ recording: QoERecording) { self.recording = Mutex(recording) }
    }

    private let box: Box
    private let listener: Task<Void, Never>

    public init(controller: PlaybackController, paced: Bool = true, requestedAt: Date = Date()) {
        let box = Box(QoERecording(requestedAt: requestedAt, paced: paced))
        self.box = box
        let events = controller.events
        listener = Task {
            var sessionID: Int?
            for await event in events {
                guard let session = event.session else { continue }
                if sessionID == nil { sessionID = session.id }
                guard session.id == sessionID else { continue }
                let now = Date()
                box.recording.withLock { $0.handle(event, at: now) }
            }
        }
    }

    /// The figures so far.
    public func summary(at now: Date = Date()) -> QualityOfExperience {
        box.recording.withLock { $0.summary(at: now) }
    }

    /// The report, once the controller has shut down and its last event is recorded.
    public func finish(title: String, source: String, outcome: String) async -> QoEReport {
        await listener.value
        return box.recording.withLock { $0.report(title: title, source: source, outcome: outcome) }
    }
}
