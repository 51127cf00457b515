/// A position on a media timeline, with the two sentinels the seed SDK uses for cue points that sit
/// outside the timeline: `.before` (pre-roll, fired on first play) and `.after` (post-roll, fired at end).
///
/// Finite times are whole nanoseconds so that equality and ordering are exact (GStreamer's unit);
/// `.before` orders below every finite time and `.after` above it.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    @usableFromInline enum Storage: Sendable, Hashable {
        case before
        case finite(Int64)
        case after
    }

    @usableFromInline let storage: Storage

    @inlinable init(storage: Storage) { self.storage = storage }

    /// Before the start of the content: the position of pre-roll cue points.
    public static let before = MediaTime(storage: .before)
    /// After the end of the content: the position of post-roll cue points.
    public static let after = MediaTime(storage: .after)
    /// The start of the timeline.
    public static let zero = MediaTime(nanoseconds: 0)

    public init(nanoseconds: Int64) { self.storage = .finite(nanoseconds) }

    /// Rounds to the nearest nanosecond; non-finite inputs map to the sentinels (NaN maps to `.zero`).
    public init(seconds: Double) {
        if seconds.isNaN {
            self = .zero
        } else if seconds == -.infinity || seconds <= Double(Int64.min) / 1e9 {
            self = .before
        } else if seconds == .infinity || seconds >= Double(Int64.max) / 1e9 {
            self = .after
        } else {
            self.storage = .finite(Int64((seconds * 1e9).rounded()))
        }
    }

    public init(_ duration: Duration) {
        let (s, atto) = duration.components
        let (ns, overflow) = s.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow {
            self = s < 0 ? .before : .after
        } else {
            let (sum, o2) = ns.addingReportingOverflow(atto / 1_000_000_000)
            self = o2 ? (s < 0 ? .before : .after) : MediaTime(nanoseconds: sum)
        }
    }

    public static func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value) }
    public static func milliseconds(_ value: Int64) -> MediaTime {
        let (ns, overflow) = value.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? (value < 0 ? .before : .after) : MediaTime(nanoseconds: ns)
    }

    /// Whole nanoseconds, or nil for a sentinel.
    public var nanoseconds: Int64? {
        if case .finite(let ns) = storage { return ns }
        return nil
    }

    /// Seconds; `.before` is `-infinity` and `.after` is `+infinity` (as `CMTime` sentinels read in the seed).
    public var seconds: Double {
        switch storage {
        case .before: return -.infinity
        case .after: return .infinity
        case .finite(let ns): return Double(ns) / 1e9
        }
    }

    /// The time as a `Duration` from zero, or nil for a sentinel.
    public var duration: Duration? { nanoseconds.map { .nanoseconds($0) } }

    public var isFinite: Bool { nanoseconds != nil }
    public var isBefore: Bool { storage == .before }
    public var isAfter: Bool { storage == .after }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.before, .before), (.after, .after): return false
        case (.before, _): return true
        case (_, .before): return false
        case (.after, _): return false
        case (_, .after): return true
        case (.finite(let a), .finite(let b)): return a < b
        }
    }

    /// Finite times shift by `offset`; sentinels stay where they are. Saturates instead of trapping.
    public func advanced(by offset: Duration) -> MediaTime {
        guard let ns = nanoseconds, let delta = MediaTime(offset).nanoseconds else {
            if nanoseconds != nil { return offset < .zero ? .before : .after }
            return self
        }
        let (sum, overflow) = ns.addingReportingOverflow(delta)
        if overflow { return delta < 0 ? .before : .after }
        return MediaTime(nanoseconds: sum)
    }

    /// Distance from `other` to `self`, or nil when either is a sentinel.
    public func offset(from other: MediaTime) -> Duration? {
        guard let a = nanoseconds, let b = other.nanoseconds else { return nil }
        let (d, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? nil : .nanoseconds(d)
    }

    public var description: String {
        switch storage {
        case .before: return "before"
        case .after: return "after"
        case .finite(let ns):
            let sign = ns < 0 ? "-" : ""
            let magnitude = ns.magnitude
            let ms = magnitude / 1_000_000
            let totalSeconds = ms / 1000
            return "\(sign)\(totalSeconds / 60):\(pad2(totalSeconds % 60)).\(pad3(ms % 1000))"
        }
    }
}

private func pad2(_ v: UInt64) -> String { v < 10 ? "0\(v)" : "\(v)" }
private func pad3(_ v: UInt64) -> String { v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : "\(v)" }

/// A half-open range `[start, end)` on a media timeline, e.g. a seekable range.
public struct TimeRange: Sendable, Hashable, CustomStringConvertible {
    public let start: MediaTime
    public let end: MediaTime

    public init(start: MediaTime, end: MediaTime) {
        self.start = min(start, end)
        self.end = max(start, end)
    }

    public var duration: Duration? { end.offset(from: start) }

    public func contains(_ time: MediaTime) -> Bool { time >= start && time < end }

    public var description: String { "[\(start), \(end))" }
}

/// How far a seek may land from its target: `before` earlier or `after` later.
///
/// Zero on both sides asks for a frame-accurate seek. The engine can only land on a keyframe cheaply,
/// and keyframe positions are not known ahead of the seek, so any finite tolerance is honoured with an
/// accurate seek; only `.keyframe` (unbounded on both sides) lets the engine snap to the nearest keyframe.
public struct SeekTolerance: Sendable, Hashable {
    public let before: Duration
    public let after: Duration

    public init(before: Duration, after: Duration) {
        self.before = max(before, .zero)
        self.after = max(after, .zero)
    }

    /// The seed's default for `seek(to:)`: 0.1 s either way.
    public static let `default` = SeekTolerance(before: .milliseconds(100), after: .milliseconds(100))
    /// Frame accurate.
    public static let zero = SeekTolerance(before: .zero, after: .zero)
    /// Land on the nearest keyframe: fastest, least precise.
    public static let keyframe = SeekTolerance(before: .seconds(Int64.max / 4), after: .seconds(Int64.max / 4))

    /// True when the engine may snap to a keyframe instead of decoding up to the exact target.
    public var allowsKeyframeSnap: Bool { self == .keyframe }
}
