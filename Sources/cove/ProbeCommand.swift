import ArgumentParser
import CoveCore
import CovePlayerControls
import CoveReport
import Foundation

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Play a URL headless and report what happened: a JSON document (--json) or a live event trace (--trace).",
        discussion: """
            --trace prints one line per event as it happens, flushed: `<unix-epoch-seconds> <name> [key=value ...]`
            with the names play, firstFrame, stallBegin, stallEnd, variant, retry, error, end, seek and seekFrame.
            It plays until the end or until killed (the peer-bench contract).
            --json plays for --duration seconds (or to the end) and prints one JSON document.
            --report writes a self-contained HTML page (summary figures, a timeline of buffer ahead, bitrate against
            the throughput estimate, stalls, seeks, variant switches and ad breaks); --plot writes the timeline as a
            PNG (needs rsvg-convert, Debian's librsvg2-bin). Either can go with --json or --trace, or alone.
            """
    )

    @Argument(help: "Media URL or file path.")
    var url: String

    @Flag(help: "Print one JSON document at the end.")
    var json = false

    @Flag(help: "Print a flushed line per event as it happens.")
    var trace = false

    @Option(help: ArgumentHelp("Write the QoE report (self-contained HTML) here when playback ends.", valueName: "file.html"))
    var report: String?

    @Option(help: ArgumentHelp("Write the QoE timeline as a PNG here when playback ends (needs rsvg-convert).", valueName: "file.png"))
    var plot: String?

    @Option(help: "Stop after this many seconds of wall-clock time (default: play to the end).")
    var duration: Double?

    @Option(name: .customLong("seek-at"), help: "Seconds after the first frame at which to seek (with --seek-to).")
    var seekAt: Double?

    @Option(name: .customLong("seek-to"), help: "Media time to seek to, in seconds.")
    var seekTo: Double?

    @OptionGroup var player: PlayerOptions

    func validate() throws {
        if (seekAt == nil) != (seekTo == nil) { throw ValidationError("--seek-at and --seek-to go together") }
        if !json && !trace && report == nil && plot == nil { throw ValidationError("choose --json, --trace, --report or --plot") }
        if plot != nil && PNGRasterizer().executable == nil { throw ValidationError(ReportError.rasterizerMissing.description) }
    }

    func run() async throws {
        let media = try mediaURL(url)
        // Through the SSAI plugin: a VMAP URL plays its stitched stream with ad breaks (shaded in --report).
        let controller = await player.makeController(provider: ssaiProvider())
        let report = ProbeReport(url: Redaction.redact(url: media), paced: !player.fast)
        let events = controller.events
        let stop = Interrupt.install { [controller] in controller.shutdown() }
        defer { stop.cancel() }
        if let duration {
            Task {
                try? await Task.sleep(for: .seconds(duration))
                controller.shutdown()
            }
        }
        controller.setVideos([Video(url: media)])
        let playCall = Date().timeIntervalSince1970
        report.mark("play", at: playCall)
        if trace { traceLine(playCall, "play") }
        controller.play()

        for await event in events {
            let now = Date().timeIntervalSince1970
            let position = event.session?.player?.position?.seconds
            report.record(event, at: now, position: position)
            if trace { traceLines(for: event, at: now) }
            switch event {
            case .framePresented(_, let frame) where frame.cause == .start:
                if let seekAt, let seekTo {
                    Task {
                        try? await Task.sleep(for: .seconds(seekAt))
                        let issued = Date().timeIntervalSince1970
                        if trace { traceLine(issued, "seek", ["to": String(format: "%.3f", seekTo)]) }
                        report.mark("seek", at: issued)
                        controller.seek(to: .seconds(seekTo), tolerance: .zero)
                    }
                }
            case .lifecycle(let session, .end):
                report.finish(position: session.player?.position?.seconds, bytes: session.player?.status.bytesRead, outcome: "ended")
                controller.shutdown()
            case .lifecycle(let session, .fail(let error)), .lifecycle(let session, .failedToPlayToEndTime(let error)):
                report.fail(error)
                report.finish(position: session.player?.position?.seconds, bytes: session.player?.status.bytesRead, outcome: "failed")
                controller.shutdown()
            case .lifecycle(let session, .terminate):
                report.finish(position: session.player?.position?.seconds, bytes: session.player?.status.bytesRead, outcome: "stopped")
            default: break
            }
        }
        if json { Terminal.line(report.json(playCall: playCall)) }
        if self.report != nil || plot != nil {
            let page = report.qoeReport(title: media.lastPathComponent.isEmpty ? report.url : media.lastPathComponent)
            try await page.write(htmlPath: self.report, pngPath: plot)
            if !json && !trace { Terminal.line("QoE report: " + [self.report, plot].compactMap { $0 }.joined(separator: ", ")) }
        }
        if report.outcome == "failed" { throw ExitCode(1) }
    }

    private func traceLines(for event: PlaybackEvent, at now: Double) {
        switch event {
        case .framePresented(_, let frame):
            // The event's own name, lower-camel: firstFrame, seekFrame, bumperFrame, resumeFrame, transitionFrame.
            traceLine(frame.wallTime, event.name.prefix(1).lowercased() + event.name.dropFirst())
        case .lifecycle(_, .stalled): traceLine(now, "stallBegin")
        case .lifecycle(_, .recovered): traceLine(now, "stallEnd")
        case .lifecycle(_, .end): traceLine(now, "end")
        case .lifecycle(_, let e) where e.error != nil:
            traceLine(now, "error", ["event": e.name, "code": e.error!.code.name])
        case .variantChanged(_, let v):
            var fields = ["bandwidth": String(v.bandwidth), "reason": v.reason.rawValue]
            if let from = v.from { fields["from"] = String(from.bandwidth) }
            if let height = v.to.height { fields["height"] = String(height) }
            traceLine(now, "variant", fields)
        case .retry(_, let r):
            traceLine(
                now, "retry",
                ["kind": r.kind.rawValue, "attempt": String(r.attempt), "delay": String(format: "%.3f", MediaTime(r.delay).seconds), "code": r.error.code.name])
        case .forwardBufferChanged(_, let d): traceLine(now, "forwardBuffer", ["seconds": String(format: "%.1f", MediaTime(d).seconds)])
        case .lifecycle(_, .ready): traceLine(now, "ready")
        case .mediaTransferred(_, let t) where t.kind == .segment || t.kind == .initSegment:
            var fields = [
                "bytes": String(t.bytes), "ms": String(Int(MediaTime(t.duration).seconds * 1000)), "status": String(t.status), "kind": t.kind.rawValue,
            ]
            if let bandwidth = t.variantBandwidth { fields["variant"] = String(bandwidth) }
            traceLine(t.startedAt + MediaTime(t.duration).seconds, "segment", fields)
        default: break
        }
    }

    private func traceLine(_ time: Double, _ name: String, _ fields: [String: String] = [:]) {
        let extra = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.replacingOccurrences(of: " ", with: "_"))" }
        Terminal.line(([String(format: "%.6f", time), name] + extra).joined(separator: " "))
    }
}

/// What `cove probe --json` collects.
final class ProbeReport: @unchecked Sendable {
    private let lock = NSLock()
    let url: String
    private var events: [[String: JSONValue]] = []
    private var marks: [String: Double] = [:]
    private var firstFrame: Double?
    private var stalls: [(start: Double, end: Double?)] = []
    private var switches: [[String: JSONValue]] = []
    private var error: PlaybackError?
    private var finalPosition: Double?
    /// The latest progress report: the final position when the player is already closed.
    private var lastProgress: Double?
    private var bytes: Int?
    private var duration: Double?
    private(set) var outcome: String?
    /// The session's quality of experience and its timeline, from the play call on.
    private var recording: QoERecording?
    private var finishedAt: Double?
    /// Real-time pacing (the playhead's rate bounds what counts as watching); fast mode is not paced.
    private let paced: Bool

    init(url: String, paced: Bool) {
        self.url = url
        self.paced = paced
    }

    func mark(_ name: String, at time: Double) {
        lock.withLock {
            marks[name] = time
            if name == "play", recording == nil { recording = QoERecording(requestedAt: Date(timeIntervalSince1970: time), paced: paced) }
        }
    }

    func record(_ event: PlaybackEvent, at now: Double, position: Double?) {
        lock.withLock {
            recording?.handle(event, at: Date(timeIntervalSince1970: now))
            if case .progress(_, let time) = event {
                lastProgress = time.seconds
                return
            }
            var entry: [String: JSONValue] = ["name": .string(event.name), "wallTime": .double(now)]
            if let position, position.isFinite { entry["mediaTime"] = .double(position) }
            switch event {
            case .framePresented(_, let frame):
                entry["wallTime"] = .double(frame.wallTime)
                if frame.cause == .start { firstFrame = frame.wallTime }
            case .lifecycle(_, .stalled): stalls.append((now, nil))
            case .lifecycle(_, .recovered):
                if let last = stalls.indices.last, stalls[last].end == nil { stalls[last].end = now }
            case .variantChanged(_, let v):
                var change: [String: JSONValue] = [
                    "wallTime": .double(now), "bandwidth": .int(Int64(v.bandwidth)), "url": .string(v.url), "reason": .string(v.reason.rawValue),
                ]
                if let from = v.from { change["from"] = .int(Int64(from.bandwidth)) }
                switches.append(change)
                entry["bandwidth"] = .int(Int64(v.bandwidth))
            case .durationChanged(_, let d):
                duration = d.map { MediaTime($0).seconds }
            case .lifecycle(_, let e) where e.error != nil:
                entry["error"] = .string(e.error!.description)
            default: break
            }
            events.append(entry)
        }
    }

    func fail(_ error: PlaybackError) {
        lock.withLock { self.error = error }
    }

    func finish(position: Double?, bytes: Int?, outcome: String) {
        lock.withLock {
            guard self.outcome == nil else { return }
            self.finishedAt = Date().timeIntervalSince1970
            self.finalPosition = position ?? lastProgress
            self.bytes = bytes
            self.outcome = outcome
        }
    }

    /// The QoE report of what was recorded.
    func qoeReport(title: String) -> QoEReport {
        lock.withLock {
            let at = Date(timeIntervalSince1970: finishedAt ?? Date().timeIntervalSince1970)
            let recording = recording ?? QoERecording(requestedAt: at)
            return recording.report(title: title, source: url, outcome: outcome ?? "stopped", at: at)
        }
    }

    func json(playCall: Double) -> String {
        lock.withLock {
            var document: JSONObject = [
                "url": .string(url),
                "engine": "gstreamer",
                "sdkVersion": .string(PlayerSDKManager.version),
                "sdkSessionID": .string(PlayerSDKManager.shared.sessionID),
                "playCalledAt": .double(playCall),
                "events": .array(events.map { .object($0) }),
                "stalls": .array(
                    stalls.map { s in
                        var o: JSONObject = ["start": .double(s.start)]
                        if let end = s.end { o["end"] = .double(end); o["duration"] = .double(end - s.start) }
                        return .object(o)
                    }),
                "bitrateSwitches": .array(switches.map { .object($0) }),
                "outcome": .string(outcome ?? "stopped"),
            ]
            if let firstFrame { document["timeToFirstFrame"] = .double(firstFrame - playCall) }
            if let finalPosition { document["finalPosition"] = .double(finalPosition) }
            if let bytes { document["bytesFetched"] = .int(Int64(bytes)) }
            if let duration { document["duration"] = .double(duration) }
            if let recording { document["qoe"] = recording.summary(at: Date(timeIntervalSince1970: finishedAt ?? Date().timeIntervalSince1970)).json }
            if let error {
                var e: JSONObject = ["code": .string(error.code.name), "codeValue": .int(Int64(error.code.rawValue)), "message": .string(error.message)]
                if let url = error.url { e["url"] = .string(url) }
                if let status = error.httpStatus { e["httpStatus"] = .int(Int64(status)) }
                document["error"] = .object(e)
            }
            return JSONValue.object(document).serialized(pretty: true)
        }
    }
}
