import Foundation
import Logging
import Synchronization

/// A slot's recent commands and log lines, bounded: what a violation quotes.
final class ChaosSlotLog: Sendable {
    private let state = Mutex<(commands: [String], lines: [String])>(([], []))
    private let maximumCommands = 200
    private let maximumLines = 600

    func append(command: String) {
        state.withLock { s in
            s.commands.append(command)
            if s.commands.count > maximumCommands { s.commands.removeFirst(s.commands.count - maximumCommands) }
        }
    }

    func append(line: String) {
        state.withLock { s in
            s.lines.append(line)
            if s.lines.count > maximumLines { s.lines.removeFirst(s.lines.count - maximumLines) }
        }
    }

    var snapshot: (commands: [String], lines: [String]) { state.withLock { $0 } }
}

/// Writes a controller's log records into its slot's bounded log.
struct ChaosLogHandler: LogHandler {
    let label: String
    let slotLog: ChaosSlotLog
    /// Lines are stamped from here (the run's start).
    let started: ContinuousClock.Instant
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let elapsed = ContinuousClock.Instant.now - started
        let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        slotLog.append(line: "t+\(chaosSeconds(time)) [\(label)] \(event.level) \(event.message)\(fields.isEmpty ? "" : " " + fields)")
    }
}

/// Every slot meets here before a resource check: the last to arrive runs it, then all go on. A slot
/// that finishes leaves, so the others never wait for it.
actor ChaosBarrier {
    private var participants: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private let action: @Sendable () async -> Void

    init(participants: Int, action: @escaping @Sendable () async -> Void) {
        self.participants = participants
        self.action = action
    }

    func arrive() async {
        if waiting.count + 1 >= participants {
            await release()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// A slot that finished: the others no longer wait for it (the run checks resources once all are done).
    func leave() {
        participants -= 1
        if !waiting.isEmpty, waiting.count >= participants { releaseWithoutChecking() }
    }

    private func release() async {
        let released = waiting
        waiting = []
        await action()
        for continuation in released { continuation.resume() }
    }

    private func releaseWithoutChecking() {
        let released = waiting
        waiting = []
        for continuation in released { continuation.resume() }
    }
}

/// The process's threads and open file descriptors (Linux `/proc/self`).
enum ChaosProcess {
    static func counts() -> (threads: Int, fileDescriptors: Int) {
        (entries("/proc/self/task"), entries("/proc/self/fd"))
    }

    private static func entries(_ path: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: path).count) ?? -1
    }
}

/// A flag one task sets and another polls.
final class ChaosFlag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
