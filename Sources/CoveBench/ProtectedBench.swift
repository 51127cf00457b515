import CoveCore
import CoveGStreamer
import CoveStreaming
import CoveTesting
import Foundation

/// Issue 36: what Common Encryption costs. The same 20 s DASH encode (240p and 720p, AAC) clear, `cenc`
/// and `cbcs`, served on loopback with a ClearKey licence server, in interleaved reps:
/// - CPU: the process's CPU seconds to play the whole title as fast as it decodes (unsynchronised sinks,
///   so the cost of decrypting is not diluted by waiting for the clock); ABR climbs to 720p at once on loopback;
/// - startup: from `setVideos` to the first frame at real time, the licence exchange included for the
///   protected ones (one POST on loopback).
enum ProtectedBench {
    struct Result: Sendable {
        var cpu: [ProtectedFixture.Asset: [Double]] = [:]
        var firstFrame: [ProtectedFixture.Asset: [Double]] = [:]
    }

    static let assets: [ProtectedFixture.Asset] = [.dashClear, .dashCENC, .dashCBCS]

    static func run(reps: Int, say: (String) -> Void) async throws -> Result {
        let fixture = try await ProtectedFixture.prepare(duration: 20)
        let server = try await MediaServer.start(root: fixture.root)
        let keys = [ProtectedFixture.key.id: ProtectedFixture.key.key]
        let license = ClearKeyLicenseServer(on: server, keys: keys)
        var streaming = StreamingConfiguration()
        streaming.decryptionModules = DecryptionModules([ClearKeyModule(licenseURL: server.url(String(license.path.dropFirst())))])
        var result = Result()
        for rep in 0...reps {
            let order = rep % 2 == 0 ? assets : assets.reversed()
            for asset in order {
                let url = server.url(asset.rawValue)
                let cpu = try await playWhole(url, streaming: streaming)
                let first = try await timeToFirstFrame(url, streaming: streaming)
                say(String(format: "rep %d %-28@ %.2f CPU s for the whole 20 s, first frame %.0f ms", rep, asset.rawValue as NSString, cpu, first * 1000))
                guard rep > 0 else { continue }
                result.cpu[asset, default: []].append(cpu)
                result.firstFrame[asset, default: []].append(first)
            }
        }
        await server.stop()
        return result
    }

    private static func controller(_ streaming: StreamingConfiguration, fast: Bool) -> PlaybackController {
        let configuration = PlaybackControllerConfiguration(progressInterval: .milliseconds(250), pacing: fast ? .unsynchronized : .realTime)
        return PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(streaming: streaming), configuration: configuration)
    }

    private static func settle(_ controller: PlaybackController) async throws {
        controller.shutdown()
        await controller.settle()
        while GStreamerEngine.livePipelineCount > 0 { try await Task.sleep(for: .milliseconds(20)) }
    }

    static func playWhole(_ url: URL, streaming: StreamingConfiguration) async throws -> Double {
        let controller = controller(streaming, fast: true)
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        let before = OutputBench.cpuSeconds()
        controller.setVideos([Video(url: url)])
        try await recorder.waitFor(.end, timeout: .seconds(60))
        let spent = OutputBench.cpuSeconds() - before
        try await settle(controller)
        return spent
    }

    static func timeToFirstFrame(_ url: URL, streaming: StreamingConfiguration) async throws -> Double {
        let controller = controller(streaming, fast: false)
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        let start = ContinuousClock.now
        controller.setVideos([Video(url: url)])
        try await recorder.waitFor(timeout: .seconds(20)) { $0.name == "FirstFrame" }
        let elapsed = ContinuousClock.now - start
        try await settle(controller)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func markdown(_ result: Result) -> String {
        func median(_ asset: ProtectedFixture.Asset, _ table: [ProtectedFixture.Asset: [Double]]) -> Double { OutputBench.median(table[asset] ?? []) }
        let clearCPU = median(.dashClear, result.cpu)
        let clearFirst = median(.dashClear, result.firstFrame)
        let reps = result.cpu[.dashClear]?.count ?? 0
        var text = "<!-- protected:begin -->\n### Protected content (issue 36)\n\n"
        text +=
            "The same 20 s DASH encode (240p and 720p H.264, AAC) clear and under Common Encryption, ClearKey licence from a loopback server; medians of \(reps) interleaved reps. CPU: the whole process, the title played as fast as it decodes (ABR at 720p after the first segment). First frame: `setVideos` to the first frame at real time, the licence exchange included.\n\n"
        text += "| Stream | CPU s / 20 s | vs clear | first frame ms | vs clear |\n|---|---|---|---|---|\n"
        for asset in assets {
            let cpu = median(asset, result.cpu)
            let first = median(asset, result.firstFrame)
            let name = asset == .dashClear ? "clear" : asset == .dashCENC ? "cenc (AES-CTR, subsamples)" : "cbcs (AES-CBC 1:9, constant IV)"
            text += String(
                format: "| %@ | %.2f | %.2f×%@ | %.0f | %.2f× |\n", name as NSString, cpu, cpu / clearCPU, asset == .dashClear ? "" : " (target ≤ 1.15×)",
                first * 1000, first / clearFirst)
        }
        text += "<!-- protected:end -->\n"
        return text
    }
}
