import CoveCore
import Foundation
import Logging

/// Which beacon of which play of an ad: an ad crossed again plays again and beacons again (the seed's
/// rule), so a play counter is part of the key; within one play each event fires once.
public struct BeaconKey: Sendable, Hashable, CustomStringConvertible {
    public let breakIndex: Int
    public let adIndex: Int?
    /// Counts the plays of this break in the session (0 for the first).
    public let play: Int
    /// The VAST/VMAP event name (`impression`, `iconView`, `start`, `firstQuartile`, `breakStart`, `clickTracking`, …).
    public let event: String

    public init(breakIndex: Int, adIndex: Int?, play: Int, event: String) {
        self.breakIndex = breakIndex
        self.adIndex = adIndex
        self.play = play
        self.event = event
    }

    public var description: String { "break \(breakIndex)\(adIndex.map { " ad \($0)" } ?? "") play \(play) \(event)" }
}

/// What happened to one beacon URL.
public struct BeaconResult: Sendable, Hashable {
    public let key: BeaconKey
    /// The URL as requested (macros filled), tokens redacted.
    public let url: String
    /// The final HTTP status, nil when the network failed every attempt or the URL was unusable.
    public let status: Int?
    public let attempts: Int
    public var succeeded: Bool { status.map { (200..<400).contains($0) } ?? false }
}

/// Values for the VAST 3/4 macros a beacon URL may carry.
public struct BeaconMacros: Sendable, Hashable {
    public var contentPlayhead: Duration?
    public var adPlayhead: Duration?
    public var assetURI: String?
    public var errorCode: Int?

    public init(contentPlayhead: Duration? = nil, adPlayhead: Duration? = nil, assetURI: String? = nil, errorCode: Int? = nil) {
        self.contentPlayhead = contentPlayhead
        self.adPlayhead = adPlayhead
        self.assetURI = assetURI
        self.errorCode = errorCode
    }
}

/// Fires ad beacons through the SDK's HTTP transport, off the playback path: each `BeaconKey` at most
/// once, macros filled, failures (network errors, 5xx, 408/429) retried a bounded number of times with
/// backoff. A beacon never delays, pauses or fails playback.
public actor BeaconSender {
    public struct Policy: Sendable, Hashable {
        /// Tries per URL, the first included.
        public var attempts: Int
        public var initialDelay: Duration
        /// For each try.
        public var timeout: Duration

        public init(attempts: Int = 3, initialDelay: Duration = .milliseconds(500), timeout: Duration = .seconds(5)) {
            self.attempts = max(1, attempts)
            self.initialDelay = initialDelay
            self.timeout = timeout
        }
    }

    private let transport: any HTTPTransport
    private let policy: Policy
    private let clock: any Clock<Duration>
    private let logger: Logger
    private let random: @Sendable () -> UInt64
    private var fired: Set<BeaconKey> = []
    private var inFlight: [Task<Void, Never>] = []
    public private(set) var results: [BeaconResult] = []

    public init(
        transport: any HTTPTransport, policy: Policy = Policy(), clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "cove.ssai.beacons"), random: @escaping @Sendable () -> UInt64 = { UInt64.random(in: 0..<100_000_000) }
    ) {
        self.transport = transport
        self.policy = policy
        self.clock = clock
        self.logger = logger
        self.random = random
    }

    /// Sends `urls` for `key` unless that key already fired. Returns whether it fired now.
    @discardableResult
    public func fire(_ urls: [String], for key: BeaconKey, macros: BeaconMacros = BeaconMacros()) -> Bool {
        guard !fired.contains(key) else { return false }
        fired.insert(key)
        for template in urls {
            let filled = Self.fill(template, macros: macros, cacheBuster: random())
            inFlight.append(
                Task { [weak self] in
                    let result = await self?.send(filled, key: key)
                    if let result { await self?.record(result) }
                })
        }
        return true
    }

    /// Whether `key` has fired.
    public func hasFired(_ key: BeaconKey) -> Bool { fired.contains(key) }

    /// Waits for every beacon fired so far to finish (tests, and an orderly shutdown).
    public func drain() async {
        let tasks = inFlight
        inFlight = []
        for task in tasks { await task.value }
    }

    private func record(_ result: BeaconResult) {
        results.append(result)
        if !result.succeeded {
            logger.notice(
                "ad beacon failed; playback is not affected",
                metadata: [
                    "beacon": "\(result.key)", "url": "\(result.url)", "status": "\(result.status.map(String.init) ?? "none")",
                    "attempts": "\(result.attempts)",
                ])
        }
    }

    private func send(_ text: String, key: BeaconKey) async -> BeaconResult {
        let shown = Redaction.redact(urlString: text)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return BeaconResult(key: key, url: shown, status: nil, attempts: 0)
        }
        var delay = policy.initialDelay
        var lastStatus: Int?
        for attempt in 1...policy.attempts {
            do {
                let response = try await transport.send(HTTPRequest(url: url, timeout: policy.timeout, maxResponseBytes: 64 * 1024))
                lastStatus = response.status
                let retryable = response.status >= 500 || response.status == 408 || response.status == 429
                if !retryable || attempt == policy.attempts { return BeaconResult(key: key, url: shown, status: response.status, attempts: attempt) }
            } catch {
                lastStatus = nil
                if error.kind == .invalidURL || error.kind == .cancelled || attempt == policy.attempts {
                    return BeaconResult(key: key, url: shown, status: nil, attempts: attempt)
                }
            }
            do { try await clock.sleep(for: delay) } catch { return BeaconResult(key: key, url: shown, status: lastStatus, attempts: attempt) }
            delay = delay * 2
        }
        return BeaconResult(key: key, url: shown, status: lastStatus, attempts: policy.attempts)
    }

    /// Fills the VAST macros Cove knows (`[CACHEBUSTING]`, `[TIMESTAMP]`, `[CONTENTPLAYHEAD]`,
    /// `[MEDIAPLAYHEAD]`, `[ADPLAYHEAD]`, `[ASSETURI]`, `[ERRORCODE]`); others are left for the server.
    public static func fill(_ template: String, macros: BeaconMacros, cacheBuster: UInt64) -> String {
        guard template.contains("[") else { return template }
        var url = template
        let encode = { (value: String) in value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
        }
        url = url.replacingOccurrences(of: "[CACHEBUSTING]", with: String(format: "%08llu", cacheBuster % 100_000_000))
        url = url.replacingOccurrences(of: "[TIMESTAMP]", with: encode(ISO8601DateFormatter().string(from: Date())))
        if let playhead = macros.contentPlayhead {
            url = url.replacingOccurrences(of: "[CONTENTPLAYHEAD]", with: encode(clockText(playhead)))
            url = url.replacingOccurrences(of: "[MEDIAPLAYHEAD]", with: encode(clockText(playhead)))
        }
        if let playhead = macros.adPlayhead { url = url.replacingOccurrences(of: "[ADPLAYHEAD]", with: encode(clockText(playhead))) }
        if let asset = macros.assetURI { url = url.replacingOccurrences(of: "[ASSETURI]", with: encode(asset)) }
        if let code = macros.errorCode { url = url.replacingOccurrences(of: "[ERRORCODE]", with: String(code)) }
        return url
    }

    /// VAST's `HH:MM:SS.mmm`.
    static func clockText(_ duration: Duration) -> String {
        let milliseconds = max(0, Int64(duration.components.seconds) * 1000 + Int64(duration.components.attoseconds / 1_000_000_000_000_000))
        return String(
            format: "%02lld:%02lld:%02lld.%03lld", milliseconds / 3_600_000, (milliseconds / 60_000) % 60, (milliseconds / 1000) % 60, milliseconds % 1000)
    }
}
