import CoveCore
import CoveServer
import Foundation
import Logging
import Synchronization

/// A seeded, reproducible randomised operation test ("chaos") against the app's controllers and streams:
/// several controllers at once, each driven by its own random sequence of public commands at random
/// moments (back to back included; `ChaosSchedule`), over an origin serving faults from the same seed
/// (`ChaosFaults`, installed on the given servers), with the invariants checked at every step:
/// - no hang: after each burst of commands, within `hangBound`, playback moves again (when it was asked
///   to play), the item ends or a typed error arrives; the loop answers `settle()`, every seek is
///   answered, a new video becomes a session that reaches `Ready` or `Fail`, shutdown ends the events;
/// - the lifecycle grammar and seek landings (`ChaosWatch`);
/// - threads and file descriptors back near their level after the controllers shut down.
/// A crash ends the process: the seed is printed first and every command is appended to `commandLog`.
///
/// ```swift
/// let report = await ChaosRunner(configuration: configuration, servers: [server]) { request in
///     PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(logger: request.logger(label: "engine")), …)
/// }.run()
/// print(report.summary)
/// ```
public final class ChaosRunner: Sendable {
    public typealias MakeController = @Sendable (ChaosControllerRequest) -> PlaybackController

    public let configuration: ChaosConfiguration
    public let faults: ChaosFaults
    private let servers: [MediaServer]
    private let makeController: MakeController
    private let output: @Sendable (String) -> Void
    private let state = Mutex(RunState())
    private let slotLogs: [ChaosSlotLog]
    private let start = ContinuousClock.Instant.now
    private let commandFile: Mutex<FileHandle?>

    struct RunState {
        var commands = 0
        var sessions = 0
        var controllers = 0
        var violations: [ChaosViolation] = []
        var baseline: (threads: Int, fileDescriptors: Int)?
        var resourceChecks: [(threads: Int, fileDescriptors: Int)] = []
    }

    /// `servers` get the run's fault interceptor (`faults`) for the run and none after it. `output` gets the
    /// run's lines (the seed, resource checks, violations as they happen).
    public init(
        configuration: ChaosConfiguration, servers: [MediaServer], output: @escaping @Sendable (String) -> Void = { print($0) },
        makeController: @escaping MakeController
    ) {
        self.configuration = configuration
        self.servers = servers
        self.makeController = makeController
        self.output = output
        self.faults = ChaosFaults(seed: configuration.seed, rates: configuration.faultRates)
        self.slotLogs = (0..<configuration.controllers).map { _ in ChaosSlotLog() }
        var handle: FileHandle?
        if let url = configuration.commandLog {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            handle = try? FileHandle(forWritingTo: url)
        }
        self.commandFile = Mutex(handle)
    }

    private var elapsed: Duration { .now - start }
    private var shouldStop: Bool { elapsed >= configuration.duration || state.withLock { $0.violations.count } >= configuration.maximumViolations }

    public func run() async -> ChaosReport {
        let c = configuration
        output(
            "chaos: seed \(c.seed), \(c.controllers) controllers, \(c.streams.count) streams (\(c.streams.map(\.name).joined(separator: ", "))), "
                + "\(c.duration) budget\(c.commandLog.map { ", commands logged to \($0.path)" } ?? "")")
        for server in servers { server.setInterceptor(faults) }
        let barrier = ChaosBarrier(participants: c.controllers) { [self] in await checkResources() }
        await withTaskGroup(of: Void.self) { group in
            for slot in 0..<c.controllers {
                group.addTask { await self.runSlot(slot, barrier: barrier) }
            }
        }
        for server in servers { server.setInterceptor(nil) }
        await checkResources()
        commandFile.withLock { try? $0?.close() }
        let s = state.withLock { $0 }
        return ChaosReport(
            seed: c.seed, commands: s.commands, faults: faults.total, faultCounts: faults.counts, sessions: s.sessions, controllers: s.controllers,
            violations: s.violations, resourceChecks: s.resourceChecks, elapsed: elapsed)
    }

    // MARK: A slot

    /// One controller at a time, driven by the slot's schedule.
    final class Driver: Sendable {
        let controller: PlaybackController
        let watch: ChaosWatch
        let number: Int

        init(controller: PlaybackController, watch: ChaosWatch, number: Int) {
            self.controller = controller
            self.watch = watch
            self.number = number
        }
    }

    private func runSlot(_ slot: Int, barrier: ChaosBarrier) async {
        var schedule = ChaosSchedule(seed: configuration.seed, slot: slot, streamCount: configuration.streams.count)
        var driver: Driver?
        var bursts = 0
        var number = 0
        while !shouldStop {
            // The first check (after a short warm-up) is the baseline; then one every so many bursts.
            if bursts == 3 || (bursts > 3 && (bursts - 3) % configuration.burstsBetweenResourceChecks == 0) {
                if let old = driver { await retire(old, slot: slot) }
                driver = nil
                await barrier.arrive()
            }
            for step in schedule.nextBurst() {
                guard !shouldStop else { break }
                if step.gap > .zero { try? await Task.sleep(for: step.gap) }
                if case .newController(let autoPlay, let autoAdvance, let pacing) = step.command {
                    if let old = driver { await retire(old, slot: slot) }
                    state.withLock { $0.commands += 1 }
                    number += 1
                    driver = makeDriver(slot: slot, number: number, autoPlay: autoPlay, autoAdvance: autoAdvance, pacing: pacing)
                    log(slot: slot, number: number, step)
                    continue
                }
                if driver == nil {
                    // After a resource check: a controller with the defaults playing one of the streams, then the
                    // schedule goes on.
                    number += 1
                    let fresh = makeDriver(slot: slot, number: number, autoPlay: true, autoAdvance: false, pacing: .realTime)
                    driver = fresh
                    log(slot: slot, number: number, ChaosStep(gap: .zero, command: .newController(autoPlay: true, autoAdvance: false, pacing: .realTime)))
                    let videos = ChaosCommand.setVideos([(slot + number) % configuration.streams.count])
                    log(slot: slot, number: number, ChaosStep(gap: .zero, command: videos), detail: perform(videos, on: fresh))
                }
                guard let current = driver else { continue }
                let detail = perform(step.command, on: current)
                log(slot: slot, number: number, step, detail: detail)
            }
            bursts += 1
            if let current = driver {
                if await !checkpoint(current, slot: slot) {
                    // A controller that hung is abandoned for a new one (its shutdown is not judged again).
                    await retire(current, slot: slot, bound: .seconds(5), judged: false)
                    driver = nil
                }
            }
        }
        if let old = driver { await retire(old, slot: slot) }
        await barrier.leave()
    }

    private func makeDriver(slot: Int, number: Int, autoPlay: Bool, autoAdvance: Bool, pacing: Pacing) -> Driver {
        let watch = ChaosWatch(streams: configuration.streams, started: start, checksLandings: pacing == .realTime) { [self] kind, message, events in
            violation(kind, slot: slot, message, events: events)
        }
        let controller = makeController(ChaosControllerRequest(slot: slot, number: number, pacing: pacing, log: slotLogs[slot], started: start))
        controller.addSessionConsumer(watch)
        let events = controller.events
        Task {
            for await _ in events {}
            watch.streamDidEnd()
        }
        controller.isAutoPlay = autoPlay
        controller.isAutoAdvance = autoAdvance
        state.withLock { $0.controllers += 1 }
        return Driver(controller: controller, watch: watch, number: number)
    }

    /// Issues one command; returns what it resolved to, for the log.
    private func perform(_ command: ChaosCommand, on driver: Driver) -> String? {
        let controller = driver.controller
        let watch = driver.watch
        state.withLock { $0.commands += 1 }
        switch command {
        case .newController: return nil
        case .setVideos(let indices):
            watch.willSetVideos()
            controller.setVideos(indices.map { configuration.streams[$0].video })
            return indices.map { configuration.streams[$0].name }.joined(separator: ", ")
        case .play: controller.play()
        case .pause: controller.pause()
        case .seek(let target, let tolerance):
            let time = resolve(target, watch)
            let id = watch.issueSeek(time, tolerance: tolerance, text: "\(target) \(tolerance)")
            controller.seek(to: time, tolerance: tolerance.value) { succeeded in watch.answered(id, succeeded: succeeded) }
            return "seek #\(id) to \(chaosSeconds(time.seconds))"
        case .rate(let rate): controller.playbackRate = rate
        case .selectAudioTrack(let index):
            guard let session = controller.currentSession else { return "no session" }
            let tracks = session.audioTrackGroup.tracks
            guard !tracks.isEmpty else { return "no audio tracks" }
            let track = tracks[index % tracks.count]
            session.selectAudioTrack(track)
            return track.id
        case .selectTextTrack(let index):
            guard let session = controller.currentSession else { return "no session" }
            let tracks = session.textTrackGroup.tracks
            guard let index else {
                session.selectTextTrack(nil)
                return nil
            }
            guard !tracks.isEmpty else { return "no text tracks" }
            let track = tracks[index % tracks.count]
            session.selectTextTrack(track)
            return track.id
        case .peakBitRate(let bits): controller.setPreferredPeakBitRate(bits)
        case .maximumHeight(let height): controller.setMaximumResolution(width: nil, height: height)
        case .volume(let level): controller.volume = level
        case .mute(let muted): controller.isMuted = muted
        case .resume(let target, let autoPlay):
            let time = resolve(target, watch)
            watch.willResume()
            controller.resumeVideo(at: time, autoPlay: autoPlay)
            return "at \(chaosSeconds(time.seconds))"
        case .advanceToNext: controller.advanceToNext()
        case .insert(let index): controller.insertVideo(configuration.streams[index].video, afterVideoAt: 0)
        }
        return nil
    }

    /// A seek target in seconds for the current session: against its duration, or its seekable window when
    /// live; a nominal 20 s while neither is known.
    private func resolve(_ target: ChaosSeekTarget, _ watch: ChaosWatch) -> MediaTime {
        let snapshot = watch.snapshot
        let session = snapshot.current.flatMap { snapshot.sessions[$0] }
        var start = 0.0
        var end = 20.0
        if let session, session.isLive, let window = session.seekable.last, window.start.isFinite, window.end.isFinite {
            start = window.start.seconds
            end = window.end.seconds
        } else if let session, let duration = session.duration {
            end = MediaTime(duration).seconds
        }
        switch target {
        case .fraction(let f): return .seconds(start + f * (end - start))
        case .beforeStart(let before): return .seconds(start - before)
        case .pastEnd(let after): return .seconds(end + after)
        }
    }

    // MARK: Checks

    /// Waits until the controller answered the burst: `settle()`, every seek, a session for new videos that
    /// reached Ready or Fail, and — if it was asked to play — the playhead moving, the item ending or a
    /// typed error. False (with a violation) when it did not within the bound.
    private func checkpoint(_ driver: Driver, slot: Int) async -> Bool {
        let bound = configuration.hangBound
        let begun = ContinuousClock.Instant.now
        guard await answersSettle(driver.controller, within: bound) else {
            violation(.hang, slot: slot, "the controller's loop did not answer settle() within \(bound)", events: driver.watch.snapshot.recent)
            return false
        }
        let first = driver.watch.snapshot
        let startSession = first.current
        let startMoves = startSession.flatMap { first.sessions[$0]?.moves } ?? 0
        var reason = ""
        while true {
            let s = driver.watch.snapshot
            reason = ""
            if let unanswered = driver.watch.unansweredSeeks.first {
                reason = "seek #\(unanswered.id) (\(unanswered.seek.text) → \(chaosSeconds(unanswered.seek.target.seconds))) was not answered"
            } else if s.awaitingSession {
                reason = "setVideos did not lead to a session"
            } else if let id = s.current, let session = s.sessions[id] {
                if session.ready == 0 && !session.failedToLoad {
                    reason = "\(session.describe) reached neither Ready nor Fail"
                } else if id == startSession, session.wantsToPlay, session.moves < startMoves + 2 {
                    // Two reports at new positions: a seek's own report alone does not show playback going on.
                    reason =
                        "\(session.describe) was asked to play (and not paused) but its playhead did not move from \(session.lastPosition.map { "\($0)" } ?? "the start"), no End and no typed error"
                }
            }
            if reason.isEmpty { return true }
            let now = ContinuousClock.Instant.now
            let deadline = min(max(begun + bound, s.lastRecovery + bound), begun + bound * 3)
            if now >= deadline { break }
            try? await Task.sleep(for: .milliseconds(100))
        }
        violation(.hang, slot: slot, "\(reason) within \(ContinuousClock.Instant.now - begun) of the end of the burst", events: driver.watch.snapshot.recent)
        return false
    }

    /// True when `settle()` returns within `bound` (a loop that never answers leaves its waiter behind).
    private func answersSettle(_ controller: PlaybackController, within bound: Duration) async -> Bool {
        let answered = ChaosFlag()
        Task { [controller] in
            await controller.settle()
            answered.set()
        }
        let deadline = ContinuousClock.Instant.now + bound
        while ContinuousClock.Instant.now < deadline {
            if answered.isSet { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return answered.isSet
    }

    /// Shuts the controller down and checks (when `judged`) that its events end, every seek it was sent is
    /// answered and every session it reported terminates.
    private func retire(_ driver: Driver, slot: Int, bound: Duration? = nil, judged: Bool = true) async {
        let bound = bound ?? configuration.hangBound
        driver.controller.shutdown()
        let begun = ContinuousClock.Instant.now
        while driver.watch.snapshot.streamEnded == nil, ContinuousClock.Instant.now - begun < bound {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let ended = driver.watch.snapshot.streamEnded != nil
        if !judged {
            write("slot \(slot) c#\(driver.number) abandoned after a hang; its event stream \(ended ? "ended" : "did not end") within \(bound)")
        } else if !ended {
            violation(.hang, slot: slot, "shutdown(): the controller's event stream did not end within \(bound)", events: driver.watch.snapshot.recent)
        } else {
            // Completions run on the delivery task after the last events; give them a moment.
            let answeredBy = ContinuousClock.Instant.now + .seconds(2)
            while !driver.watch.unansweredSeeks.isEmpty, ContinuousClock.Instant.now < answeredBy {
                try? await Task.sleep(for: .milliseconds(20))
            }
            if let unanswered = driver.watch.unansweredSeeks.first {
                violation(
                    .hang, slot: slot, "seek #\(unanswered.id) (\(unanswered.seek.text)) was never answered, even after shutdown",
                    events: driver.watch.snapshot.recent)
            }
            // Queued events are still delivered after the stream ends: the last session's Terminate comes.
            let terminatedBy = ContinuousClock.Instant.now + .seconds(2)
            while !driver.watch.unterminatedSessions.isEmpty, ContinuousClock.Instant.now < terminatedBy {
                try? await Task.sleep(for: .milliseconds(20))
            }
            if let remaining = driver.watch.unterminatedSessions.first {
                violation(.grammar, slot: slot, "\(remaining.describe) never reported Terminate after shutdown()", events: driver.watch.snapshot.recent)
            }
        }
        let seen = driver.watch.snapshot.sessionsSeen
        state.withLock { $0.sessions += seen }
        slotLogs[slot].append(command: "\(stamp()) slot \(slot) c#\(driver.number) shut down (\(seen) sessions)")
    }

    /// Every controller is shut down: threads and file descriptors must come back near the first check's level.
    private func checkResources() async {
        let baseline = state.withLock { $0.baseline }
        guard let baseline else {
            try? await Task.sleep(for: .seconds(3))
            var lowest = ChaosProcess.counts()
            for _ in 0..<10 {
                try? await Task.sleep(for: .milliseconds(300))
                let now = ChaosProcess.counts()
                lowest = (min(lowest.threads, now.threads), min(lowest.fileDescriptors, now.fileDescriptors))
            }
            let measured = lowest
            state.withLock {
                $0.baseline = measured
                $0.resourceChecks.append(measured)
            }
            output("chaos: resource baseline \(measured.threads) threads, \(measured.fileDescriptors) fds at \(stamp())")
            return
        }
        let deadline = ContinuousClock.Instant.now + configuration.resourceSettleTime
        var now = ChaosProcess.counts()
        while ContinuousClock.Instant.now < deadline {
            if now.threads <= baseline.threads + configuration.threadSlack
                && now.fileDescriptors <= baseline.fileDescriptors + configuration.fileDescriptorSlack
            {
                break
            }
            try? await Task.sleep(for: .milliseconds(500))
            now = ChaosProcess.counts()
        }
        let measured = now
        state.withLock { $0.resourceChecks.append(measured) }
        output(
            "chaos: resources \(measured.threads) threads, \(measured.fileDescriptors) fds at \(stamp()) (baseline \(baseline.threads), \(baseline.fileDescriptors))"
        )
        if measured.threads > baseline.threads + configuration.threadSlack
            || measured.fileDescriptors > baseline.fileDescriptors + configuration.fileDescriptorSlack
        {
            violation(
                .resources, slot: -1,
                "with every controller shut down, \(measured.threads) threads and \(measured.fileDescriptors) file descriptors after \(configuration.resourceSettleTime) (baseline \(baseline.threads) and \(baseline.fileDescriptors), slack \(configuration.threadSlack) and \(configuration.fileDescriptorSlack))"
            )
        }
    }

    // MARK: Reporting

    private func stamp() -> String {
        let e = elapsed
        return "t+" + chaosSeconds(Self.seconds(e))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func log(slot: Int, number: Int, _ step: ChaosStep, detail: String? = nil) {
        let line = "\(stamp()) slot \(slot) c#\(number) \(step)\(detail.map { " [\($0)]" } ?? "")"
        slotLogs[slot].append(command: line)
        write(line)
    }

    private func write(_ line: String) {
        commandFile.withLock { try? $0?.write(contentsOf: Data((line + "\n").utf8)) }
    }

    private func violation(_ kind: ChaosViolation.Kind, slot: Int, _ message: String, events: [String] = []) {
        let log = slot >= 0 ? slotLogs[slot].snapshot : (commands: [], lines: [])
        let found = ChaosViolation(
            kind: kind, seed: configuration.seed, slot: slot, message: message, commands: Array(log.commands.suffix(60)),
            events: events, logLines: Array(log.lines.suffix(80)),
            faults: faults.recent.suffix(20).map { "t+\(chaosSeconds(Self.seconds($0.at - start))) \($0)" })
        state.withLock { $0.violations.append(found) }
        write("VIOLATION \(kind.rawValue) slot \(slot): \(message)")
        output(found.description)
    }
}
