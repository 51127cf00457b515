/// One rendition of an adaptive stream's ladder, as the master playlist declares it.
public struct Variant: Sendable, Hashable, CustomStringConvertible {
    /// Declared peak bandwidth (`BANDWIDTH`, bits/s).
    public let bandwidth: Int
    /// Declared average bandwidth (`AVERAGE-BANDWIDTH`), when given.
    public let averageBandwidth: Int?
    public let width: Int?
    public let height: Int?
    public let codecs: [String]
    public let frameRate: Double?
    /// The variant's media playlist, redacted.
    public let url: String

    public init(
        bandwidth: Int, averageBandwidth: Int? = nil, width: Int? = nil, height: Int? = nil, codecs: [String] = [], frameRate: Double? = nil, url: String
    ) {
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.width = width
        self.height = height
        self.codecs = codecs
        self.frameRate = frameRate
        self.url = url
    }

    public var description: String {
        let size = width.flatMap { w in height.map { "\(w)x\($0) " } } ?? ""
        return "\(size)\(bandwidth / 1000) kbit/s"
    }
}

/// The variants of a stream, in the order the master playlist lists them (the engine starts on the
/// first listed). Empty for progressive media and single-rendition streams.
public struct VariantLadder: Sendable, Hashable {
    public let variants: [Variant]

    public init(_ variants: [Variant]) {
        self.variants = variants
    }

    public var isEmpty: Bool { variants.isEmpty }
    public var lowest: Variant? { variants.min { $0.bandwidth < $1.bandwidth } }
    public var highest: Variant? { variants.max { $0.bandwidth < $1.bandwidth } }

    /// The variant with this declared bandwidth, if any.
    public func variant(bandwidth: Int) -> Variant? { variants.first { $0.bandwidth == bandwidth } }

    /// The bitrate cap that keeps playback at or below `width`×`height`: the bandwidth of the best
    /// variant that fits (the lowest variant's when none does; nil when nothing is known about sizes).
    public func bitrateCap(maximumWidth width: Int?, maximumHeight height: Int?) -> Int? {
        guard width != nil || height != nil else { return nil }
        let sized = variants.filter { $0.width != nil && $0.height != nil }
        guard !sized.isEmpty else { return nil }
        let fitting = sized.filter { v in (width.map { v.width! <= $0 } ?? true) && (height.map { v.height! <= $0 } ?? true) }
        return (fitting.max { $0.bandwidth < $1.bandwidth } ?? sized.min { $0.bandwidth < $1.bandwidth })?.bandwidth
    }
}

/// The adaptive demuxer moved to another variant.
public struct VariantChange: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        /// The first variant of the session (the lowest, by Cove's start policy).
        case initial
        /// Adaptive bitrate: the bandwidth estimate rose or fell.
        case adaptive
        /// The app's peak-bitrate or resolution cap moved it.
        case cap
        /// A seek outside the buffer fetched its first segment at a low variant.
        case seek
    }

    /// The variant playing before (nil for the first).
    public let from: Variant?
    public let to: Variant
    public let reason: Reason

    public init(from: Variant?, to: Variant, reason: Reason) {
        self.from = from
        self.to = to
        self.reason = reason
    }

    /// The declared bandwidth of the new variant (bits/s).
    public var bandwidth: Int { to.bandwidth }
    /// The new variant's media playlist URL, redacted.
    public var url: String { to.url }
}

/// A retry the controller is about to make after a failure.
public struct RetryAttempt: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// Rebuilding the pipeline after downloads stopped (before `FailedToPlayToEndTime`).
        case playback
        /// Rebuilding after the first load failed (before `Fail`).
        case load
        /// Probing whether the network is back after playback failed (`RetryPolicy.automaticResume`).
        case automaticResume
    }

    public let kind: Kind
    /// 1-based.
    public let attempt: Int
    /// nil for automatic resume without a limit.
    public let maximumAttempts: Int?
    /// The wait before the attempt starts.
    public let delay: Duration
    /// What failed.
    public let error: PlaybackError

    public init(kind: Kind, attempt: Int, maximumAttempts: Int?, delay: Duration, error: PlaybackError) {
        self.kind = kind
        self.attempt = attempt
        self.maximumAttempts = maximumAttempts
        self.delay = delay
        self.error = error
    }
}
