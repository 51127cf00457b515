import ArgumentParser
import CoveCore
import CoveMonitoring
import CovePlayerControls
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Play streams headless on a schedule and export their QoE as metrics (a Prometheus endpoint with --prometheus).",
        discussion: """
            Each round plays every URL once, for --play seconds at most (a VOD that ends sooner ends its run; a
            live stream plays that long), rounds --interval seconds apart. One line per run on standard output;
            with --prometheus HOST:PORT the metrics are served at http://HOST:PORT/metrics (port 0 picks one,
            and the address is printed first). A stream that fails is a counted failure, not an exit.
            """
    )

    @Argument(help: "Stream URLs (or file paths) to watch.")
    var urls: [String]

    @Option(help: "Seconds from the start of one round to the start of the next (0: continuously).")
    var interval: Double = 60

    @Option(name: .customLong("play"), help: "Seconds each run plays at most.")
    var playSeconds: Double = 20

    @Option(help: "Serve the metrics for Prometheus at HOST:PORT (for example 127.0.0.1:9464).")
    var prometheus: String?

    @Option(help: "Stop after this many rounds (default: run until interrupted).")
    var rounds: Int?

    @OptionGroup var player: PlayerOptions

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one stream URL") }
        if !(interval >= 0) { throw ValidationError("--interval \(interval) must be 0 or more seconds") }
        if !(playSeconds > 0) { throw ValidationError("--play \(playSeconds) must be more than 0 seconds") }
        if let rounds, rounds < 1 { throw ValidationError("--rounds \(rounds) must be at least 1") }
        if let prometheus, Self.hostAndPort(prometheus) == nil {
            throw ValidationError("--prometheus '\(prometheus)' is not HOST:PORT (for example 127.0.0.1:9464)")
        }
    }

    static func hostAndPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : (host, port)
    }

    func run() async throws {
        let targets = try urls.map { StreamMonitor.Target(url: try mediaURL($0)) }
        let registry = PrometheusCollectorRegistry()
        let metrics = QoEMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let options = player
        let monitor = StreamMonitor(
            targets: targets,
            configuration: .init(interval: .milliseconds(Int64(interval * 1000)), playFor: .milliseconds(Int64(playSeconds * 1000)), paced: !player.fast),
            metrics: metrics,
            makeController: { await options.makeController() }
        )
        var endpoint: MetricsEndpoint?
        if let prometheus, let (host, port) = Self.hostAndPort(prometheus) {
            let served = try await MetricsEndpoint.start(registry, host: host, port: port)
            endpoint = served
            Terminal.line("metrics at http://\(served.address)/metrics")
        }
        let work = Task {
            await monitor.run(rounds: rounds) { run in Terminal.line(Self.line(run)) }
        }
        let stop = Interrupt.install { work.cancel() }
        defer { stop.cancel() }
        await work.value
        await endpoint?.stop()
    }

    /// `run stream=… outcome=… startup_s=… rebuffers=… rebuffer_s=… bitrate=… played_s=… bytes=… wasted=…`
    static func line(_ run: StreamMonitor.Run) -> String {
        let q = run.qoe
        var fields = ["stream=\(run.target.label)", "outcome=\(run.failure.map { "failed:\($0.code.name)" } ?? "played")"]
        if let startup = q.startup { fields.append(String(format: "startup_s=%.3f", MediaTime(startup.total).seconds)) }
        fields += [
            "rebuffers=\(q.rebufferCount)", String(format: "rebuffer_s=%.3f", MediaTime(q.rebufferDuration).seconds),
            "bitrate=\(q.averageBitrate.map(String.init) ?? "-")", String(format: "played_s=%.1f", q.mediaPlayed),
            "bytes=\(q.bytesFetched)", "wasted=\(q.bytesWasted)",
        ]
        return "run " + fields.joined(separator: " ")
    }
}

/// The Prometheus endpoint: `registry` in the text exposition format at /metrics.
struct MetricsEndpoint: Sendable {
    let address: String
    private let group: ServiceGroup
    private let task: Task<Void, Never>

    static func start(_ registry: PrometheusCollectorRegistry, host: String, port: Int) async throws -> MetricsEndpoint {
        let router = Router()
        router.get("metrics") { _, _ -> Response in
            var text: [UInt8] = []
            registry.emit(into: &text)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        var logger = Logger(label: "cove.metrics")
        logger.logLevel = .critical
        let (listening, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? port)
                continuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            try? await group.run()
            continuation.finish()
        }
        for await bound in listening { return MetricsEndpoint(address: "\(host):\(bound)", group: group, task: task) }
        await task.value
        throw ValidationError("the metrics endpoint could not listen on \(host):\(port) (in use, or not an address of this machine)")
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        await task.value
    }
}
