import CoveCore
import Foundation
import Logging

/// A stream a chaos run plays.
public struct ChaosStream: Sendable {
    public var name: String
    public var video: Video
    /// The longest distance between keyframes: how far from its target a keyframe seek may land.
    public var keyframeInterval: Duration

    public init(name: String, video: Video, keyframeInterval: Duration = .seconds(2)) {
        self.name = name
        self.video = video
        self.keyframeInterval = keyframeInterval
    }
}

/// What a chaos run does and for how long.
public struct ChaosConfiguration: Sendable {
    public var seed: UInt64
    /// How long to keep issuing commands (the run then shuts its controllers down and checks resources).
    public var duration: Duration
    /// Controllers driven at once, each by its own command sequence.
    public var controllers: Int
    public var streams: [ChaosStream]
    /// The faults the origin serves (`ChaosFaults.Rates.none` for a well-behaved origin).
    public var faultRates: ChaosFaults.Rates
    /// After a burst of commands, how long the controller has to answer: playback moving again, the
    /// item ending, a typed error, every seek answered. Recovery work (a retry, a stall, an error) moves
    /// the deadline on, up to three times this.
    public var hangBound: Duration
    /// Bursts per slot between resource checks, where every controller is shut down and the process's
    /// threads and file descriptors must come back near the level of the first check.
    public var burstsBetweenResourceChecks: Int
    /// Threads above the baseline a check allows (GLib and Dispatch keep idle workers a while).
    public var threadSlack: Int
    /// Descriptors above the baseline a check allows: the HTTP client's pooled keep-alive connections
    /// (both ends, when the origin runs in the same process) outlive the controllers by design.
    public var fileDescriptorSlack: Int
    /// How long threads and descriptors have to come back down at a check.
    public var resourceSettleTime: Duration
    /// The run stops after this many violations.
    public var maximumViolations: Int
    /// A file the run appends every command to as it issues it, so a crash leaves its sequence behind.
    public var commandLog: URL?

    public init(
        seed: UInt64, duration: Duration, controllers: Int = 2, streams: [ChaosStream], faultRates: ChaosFaults.Rates = .default,
        hangBound: Duration = .seconds(20), burstsBetweenResourceChecks: Int = 25, threadSlack: Int = 8, fileDescriptorSlack: Int = 40,
        resourceSettleTime: Duration = .seconds(30), maximumViolations: Int = 5, commandLog: URL? = nil
    ) {
        self.seed = seed
        self.duration = duration
        self.controllers = max(1, controllers)
        self.streams = streams
        self.faultRates = faultRates
        self.hangBound = hangBound
        self.burstsBetweenResourceChecks = max(1, burstsBetweenResourceChecks)
        self.threadSlack = threadSlack
        self.fileDescriptorSlack = fileDescriptorSlack
        self.resourceSettleTime = resourceSettleTime
        self.maximumViolations = max(1, maximumViolations)
        self.commandLog = commandLog
    }
}

/// What the run asks the app's factory for: a controller for `slot`, its `number`-th there, paced as the
/// seed chose, logging through `logger(label:)` so a violation can quote its last lines.
public struct ChaosControllerRequest: Sendable {
    public let slot: Int
    public let number: Int
    public let pacing: Pacing
    let log: ChaosSlotLog
    let started: ContinuousClock.Instant

    /// A debug-level logger whose lines the run keeps (the last few hundred per slot).
    public func logger(label: String) -> Logger {
        let log = self.log
        let started = self.started
        var logger = Logger(label: label) { label in ChaosLogHandler(label: label, slotLog: log, started: started) }
        logger.logLevel = .debug
        return logger
    }
}

/// A broken promise the run saw.
public struct ChaosViolation: Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// No answer within the bound: playback did not move, end or fail typed; a seek, `settle()` or shutdown went unanswered.
        case hang
        /// The lifecycle grammar broken, or a seek answered twice or landing off its target.
        case grammar
        /// Threads or file descriptors not back near their level once every controller was shut down.
        case resources
    }

    public let kind: Kind
    public let seed: UInt64
    /// The controller slot (-1: the whole process).
    public let slot: Int
    public let message: String
    /// The slot's last commands, oldest first, with their times since the run started.
    public let commands: [String]
    /// The controller's last events.
    public let events: [String]
    /// The slot's last log lines.
    public let logLines: [String]
    /// The last faults the origin served.
    public let faults: [String]

    public var description: String {
        var text = "chaos violation (\(kind.rawValue)), slot \(slot), seed \(seed): \(message)"
        text += "\n  commands (slot \(slot), last \(commands.count)):\n" + commands.map { "    " + $0 }.joined(separator: "\n")
        text += "\n  events (last \(events.count)):\n" + events.map { "    " + $0 }.joined(separator: "\n")
        text += "\n  faults (last \(faults.count)):\n" + faults.map { "    " + $0 }.joined(separator: "\n")
        text += "\n  log (last \(logLines.count)):\n" + logLines.map { "    " + $0 }.joined(separator: "\n")
        return text
    }
}

/// What a chaos run did and found.
public struct ChaosReport: Sendable {
    public let seed: UInt64
    public let commands: Int
    public let faults: Int
    public let faultCounts: [String: Int]
    public let sessions: Int
    public let controllers: Int
    public let violations: [ChaosViolation]
    /// Threads and file descriptors at each resource check: the first is the baseline.
    public let resourceChecks: [(threads: Int, fileDescriptors: Int)]
    public let elapsed: Duration

    /// `chaos: C commands, F faults, S sessions, V violations, seed S`.
    public var summary: String {
        "chaos: \(commands) commands, \(faults) faults, \(sessions) sessions, \(violations.count) violations, seed \(seed)"
    }
}
