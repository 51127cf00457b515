import CoveCore
import CoveTestSupport
import Foundation

/// One thing the chaos run does to a controller: a public command of `PlaybackController` (or of its
/// current `PlaybackSession`), with its arguments drawn from the run's seed. Arguments that depend on
/// what is playing (a fraction of the duration, the n-th audio track) are resolved when the command runs.
public enum ChaosCommand: Sendable, Hashable, CustomStringConvertible {
    /// Shuts the slot's controller down (if it has one) and makes a new one with these settings.
    case newController(autoPlay: Bool, autoAdvance: Bool, pacing: Pacing)
    /// `setVideos` with the streams at these indices of the run's stream list.
    case setVideos([Int])
    case play
    case pause
    case seek(ChaosSeekTarget, ChaosSeekTolerance)
    /// `playbackRate` (0 and negative values included: the controller makes them 1).
    case rate(Double)
    /// The current session's audio track at this index, modulo the number of tracks.
    case selectAudioTrack(Int)
    /// The current session's text track at this index, modulo the number of tracks; nil turns text off.
    case selectTextTrack(Int?)
    /// `setPreferredPeakBitRate` (nil and 0 remove the cap).
    case peakBitRate(Int?)
    /// `setMaximumResolution(width: nil, height:)`.
    case maximumHeight(Int?)
    /// `volume` (values outside 0…1 included: the controller clamps them).
    case volume(Double)
    case mute(Bool)
    /// `resumeVideo(at:autoPlay:)`.
    case resume(ChaosSeekTarget, autoPlay: Bool)
    case advanceToNext
    /// `insertVideo` of the stream at this index after the first video of the queue.
    case insert(Int)

    public var description: String {
        switch self {
        case .newController(let autoPlay, let autoAdvance, let pacing):
            "newController(autoPlay: \(autoPlay), autoAdvance: \(autoAdvance), pacing: \(pacing == .realTime ? "realTime" : "unsynchronized"))"
        case .setVideos(let indices): "setVideos(\(indices))"
        case .play: "play"
        case .pause: "pause"
        case .seek(let target, let tolerance): "seek(\(target), \(tolerance))"
        case .rate(let rate): "rate(\(rate))"
        case .selectAudioTrack(let index): "selectAudioTrack(#\(index))"
        case .selectTextTrack(let index): "selectTextTrack(\(index.map { "#\($0)" } ?? "off"))"
        case .peakBitRate(let bits): "peakBitRate(\(bits.map(String.init) ?? "nil"))"
        case .maximumHeight(let height): "maximumHeight(\(height.map(String.init) ?? "nil"))"
        case .volume(let level): "volume(\(level))"
        case .mute(let muted): "mute(\(muted))"
        case .resume(let target, let autoPlay): "resumeVideo(\(target), autoPlay: \(autoPlay))"
        case .advanceToNext: "advanceToNext"
        case .insert(let index): "insert(stream \(index) after 0)"
        }
    }
}

/// Where a chaos seek goes, resolved against the session when it runs.
public enum ChaosSeekTarget: Sendable, Hashable, CustomStringConvertible {
    /// This fraction (0…1) of the duration; of the seekable window for live.
    case fraction(Double)
    /// This many seconds before 0.
    case beforeStart(Double)
    /// This many seconds past the end (past the live edge).
    case pastEnd(Double)

    public var description: String {
        switch self {
        case .fraction(let f): "\(Int((f * 100).rounded()))%"
        case .beforeStart(let s): "-\(s)s"
        case .pastEnd(let s): "end+\(s)s"
        }
    }
}

/// The tolerance a chaos seek asks for.
public enum ChaosSeekTolerance: String, Sendable, Hashable, CustomStringConvertible {
    case `default`, zero, keyframe

    public var value: SeekTolerance {
        switch self {
        case .default: .default
        case .zero: .zero
        case .keyframe: .keyframe
        }
    }

    public var description: String { rawValue }
}

/// A command and how long to wait before it (zero: back to back with the previous one).
public struct ChaosStep: Sendable, Hashable, CustomStringConvertible {
    public let gap: Duration
    public let command: ChaosCommand

    public init(gap: Duration, command: ChaosCommand) {
        self.gap = gap
        self.command = command
    }

    public var description: String { "+\(Int(gap.components.seconds * 1000 + gap.components.attoseconds / 1_000_000_000_000_000))ms \(command)" }
}

/// The command sequence of one slot of a chaos run: bursts of one to six steps, each followed by a
/// checkpoint. A pure function of the seed and the slot (a SplitMix64 stream of its own), so a seed
/// replays the same commands with the same gaps; what the engine does in between is real time.
public struct ChaosSchedule: Sendable {
    private var random: SeededRandom
    private let streamCount: Int
    private var started = false

    public init(seed: UInt64, slot: Int, streamCount: Int) {
        self.random = SeededRandom(seed: ChaosSeed.derive(seed, salt: 0x5107 &+ UInt64(slot)))
        self.streamCount = max(1, streamCount)
    }

    /// The next burst. The first one makes a controller and gives it videos.
    public mutating func nextBurst() -> [ChaosStep] {
        var steps: [ChaosStep] = []
        if !started {
            started = true
            steps.append(ChaosStep(gap: .zero, command: newController()))
            steps.append(ChaosStep(gap: .zero, command: setVideos()))
        }
        let target = steps.count + random.int(1...6)
        while steps.count < target {
            let command = nextCommand()
            steps.append(ChaosStep(gap: gap(), command: command))
            // The combinations that found hangs before: a rate right after a seek, a second seek while one
            // is in flight, a seek during preroll.
            switch command {
            case .seek:
                if random.chance(0.25) { steps.append(ChaosStep(gap: .zero, command: rate())) }
                if random.chance(0.15) { steps.append(ChaosStep(gap: .milliseconds(random.int(0...120)), command: seek())) }
            case .setVideos, .newController:
                if random.chance(0.3) { steps.append(ChaosStep(gap: .zero, command: seek())) }
            default: break
            }
        }
        return steps
    }

    private mutating func gap() -> Duration {
        let roll = random.next(below: 100)
        if roll < 35 { return .zero }
        if roll < 70 { return .milliseconds(random.int(1...300)) }
        return .milliseconds(random.int(300...2_500))
    }

    private mutating func nextCommand() -> ChaosCommand {
        // Weights out of 100.
        let roll = random.next(below: 100)
        switch roll {
        case 0..<3: return newController()
        case 3..<11: return setVideos()
        case 11..<23: return .play
        case 23..<30: return .pause
        case 30..<50: return seek()
        case 50..<57: return rate()
        case 57..<63: return .selectAudioTrack(random.int(0...3))
        case 63..<67: return .selectTextTrack(random.chance(0.3) ? nil : random.int(0...3))
        case 67..<72: return .peakBitRate(random.pick([nil, 0, 250_000, 500_000, 1_200_000, 3_000_000]))
        case 72..<75: return .maximumHeight(random.pick([nil, 240, 480, 720]))
        case 75..<80: return .volume(random.chance(0.1) ? random.pick([-0.5, 1.5]) : Double(random.int(0...20)) / 20)
        case 80..<84: return .mute(random.chance(0.5))
        case 84..<89: return .resume(seekTarget(), autoPlay: random.chance(0.7))
        case 89..<93: return .advanceToNext
        case 93..<96: return .insert(random.next(below: streamCount))
        default: return seek()
        }
    }

    private mutating func newController() -> ChaosCommand {
        .newController(autoPlay: random.chance(0.8), autoAdvance: random.chance(0.3), pacing: random.chance(0.35) ? .unsynchronized : .realTime)
    }

    private mutating func setVideos() -> ChaosCommand {
        let count = random.chance(0.75) ? 1 : 2
        return .setVideos((0..<count).map { _ in random.next(below: streamCount) })
    }

    private mutating func seek() -> ChaosCommand {
        .seek(seekTarget(), random.pick([.default, .default, .zero, .keyframe]))
    }

    private mutating func seekTarget() -> ChaosSeekTarget {
        let roll = random.next(below: 100)
        if roll < 12 { return .beforeStart(Double(random.int(1...300)) / 10) }
        if roll < 24 { return .pastEnd(Double(random.int(1...300)) / 10) }
        return .fraction(Double(random.int(0...1000)) / 1000)
    }

    private mutating func rate() -> ChaosCommand {
        .rate(random.pick([0.5, 0.75, 1, 1, 1.25, 1.5, 2, 0, -1]))
    }
}

/// Seeds for the parts of a run, each its own SplitMix64 stream derived from the run's seed.
public enum ChaosSeed {
    /// A seed for the part named by `salt`.
    public static func derive(_ seed: UInt64, salt: UInt64) -> UInt64 {
        var random = SeededRandom(seed: seed ^ (salt &* 0x9E37_79B9_7F4A_7C15))
        return random.next()
    }

    /// A seed read from text: decimal or `0x` hexadecimal; nil when it is neither.
    public static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }
}
