// What every example plays against when it is given nothing else: the sample Video Cloud catalog
// behind an embedded Playback API server (the same one `cove serve` and `make demo` run), its media,
// the SSAI title's VMAP and stitched stream, and a Data Collection API stand-in for analytics.
import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import CoveServer
import Foundation
import Logging

/// The embedded back end: start it, use its account, policy key and URLs as an app would use Video
/// Cloud's, stop it at the end.
public final class SampleBackend: Sendable {
    public let server: CatalogServer
    public let ssai: SSAITitle
    public let analytics: AnalyticsCollector

    public var accountID: String { server.accountID }
    /// The sample catalog's policy key (a demo value; a real one comes from Video Cloud Studio).
    public var policyKey: String { server.policyKey ?? SampleCatalog.policyKey }
    public var playbackAPI: URL { server.baseURL }

    private init(server: CatalogServer, ssai: SSAITitle, analytics: AnalyticsCollector) {
        self.server = server
        self.ssai = ssai
        self.analytics = analytics
    }

    /// Generates the sample media on first use (ffmpeg) and serves it on a free loopback port.
    public static func start() async throws -> SampleBackend {
        let catalog = try await SampleCatalog.prepare()
        let server = try await CatalogServer.start(catalog: catalog)
        let ssai = try await SSAITitle.install(on: server.media)
        return SampleBackend(server: server, ssai: ssai, analytics: AnalyticsCollector(on: server.media))
    }

    /// The Playback Service for the sample account, as an app makes it with its own account and key.
    public func playbackService() -> PlaybackService {
        PlaybackService(accountID: accountID, policyKey: policyKey, baseURL: playbackAPI, transport: AsyncHTTPClientTransport.shared)
    }

    /// A file the media server serves (`altaudio/master.m3u8`, …), for examples that play a URL directly.
    public func mediaURL(_ path: String) -> URL { server.media.url("media/main/" + path) }

    public func stop() async { await server.stop() }
}

/// What every example accepts: `--fast` plays as fast as the media decodes (what `make test` uses),
/// otherwise in real time.
public struct ExampleOptions: Sendable {
    public let fast: Bool
    public let arguments: [String]

    public init(fast: Bool, arguments: [String] = []) {
        self.fast = fast
        self.arguments = arguments
    }

    public static func parse(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> ExampleOptions {
        ExampleOptions(fast: arguments.contains("--fast"), arguments: arguments.filter { $0 != "--fast" })
    }

    /// The controller configuration for a headless example: no window, sound discarded, paced or not,
    /// and the SDK's log at warnings only (its notes would mix with the example's own lines).
    public var configuration: PlaybackControllerConfiguration {
        var logger = Logger(label: "cove")
        logger.logLevel = .warning
        return PlaybackControllerConfiguration(videoOutput: .headless, audioOutput: .discard, pacing: fast ? .unsynchronized : .realTime, logger: logger)
    }
}

/// Writes a line at once, even into a pipe: whoever runs the example sees each step as it happens.
public func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Ends the example with a message and a failing status.
public func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// A one-time signal a delegate callback fires and the example's main awaits.
public final class Completion<Value: Sendable>: Sendable {
    private let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingOldest(1))
    }

    public func fire(_ value: Value) { continuation.yield(value) }

    /// The first value fired (nil if the signal was dropped without one).
    public func value() async -> Value? {
        for await value in stream { return value }
        return nil
    }
}
