import ArgumentParser
import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Issue 20: what handing frames to the app costs. 10 s of 1080p30 played at real time, the process's
/// CPU seconds measured with the headless output (decode, discard) and with a frame callback (decode,
/// convert, hand over) in RGBA and in I420 — interleaved reps, medians, ratios against headless.
enum OutputBench {
    struct Result: Sendable {
        let output: String
        let cpuSeconds: [Double]
        let delivered: [Int]
        let dropped: [Int]
    }

    /// `reps` measured runs of each output (after one discarded warm-up of each).
    static func run(reps: Int, say: (String) -> Void) async throws -> [Result] {
        let movie = try await fixture()
        let outputs = ["headless", "frames-rgba", "frames-i420"]
        var cpu: [String: [Double]] = [:]
        var delivered: [String: [Int]] = [:]
        var dropped: [String: [Int]] = [:]
        for rep in 0...reps {
            let order = rep % 2 == 0 ? outputs : outputs.reversed()
            for output in order {
                let (seconds, counts) = try await measure(output: output, movie: movie)
                say(
                    String(
                        format: "rep %d %-12@ %.2f CPU s for 10 s of 1080p30 (frames handed over %d, dropped %d)", rep, output as NSString, seconds,
                        counts.delivered, counts.dropped))
                guard rep > 0 else { continue }
                cpu[output, default: []].append(seconds)
                delivered[output, default: []].append(counts.delivered)
                dropped[output, default: []].append(counts.dropped)
            }
        }
        return outputs.map { Result(output: $0, cpuSeconds: cpu[$0] ?? [], delivered: delivered[$0] ?? [], dropped: dropped[$0] ?? []) }
    }

    /// 12 s of 1080p30 H.264 with AAC, made once.
    static func fixture() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-bench-1080p-v1")
        let movie = folder.appendingPathComponent("1080p30.mp4")
        if FileManager.default.fileExists(atPath: movie.path) { return movie }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = folder.appendingPathComponent("partial.mp4")
        let result = try await ProcessRunner.run(
            "ffmpeg",
            [
                "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=12",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=12",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "60", "-b:v", "6M",
                "-c:a", "aac", "-shortest", "-movflags", "+faststart", partial.path,
            ])
        guard result.status == 0 else { throw ValidationError("ffmpeg could not make the 1080p movie: \(result.errorOutput)") }
        try FileManager.default.moveItem(at: partial, to: movie)
        return movie
    }

    private static func measure(output: String, movie: URL) async throws -> (Double, (delivered: Int, dropped: Int)) {
        let receiver: VideoFrameReceiver?
        switch output {
        case "frames-rgba": receiver = VideoFrameReceiver(format: .rgba) { frame in _ = frame.withUnsafeBytes { $0.first } }
        case "frames-i420": receiver = VideoFrameReceiver(format: .i420) { frame in _ = frame.withUnsafeBytes { $0.first } }
        default: receiver = nil
        }
        let configuration = PlaybackControllerConfiguration(progressInterval: .milliseconds(100), videoOutput: receiver.map { .frames($0) } ?? .headless)
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: configuration)
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([Video(url: movie)])
        try await recorder.waitFor(timeout: .seconds(15)) { if case .progress(_, let t) = $0 { t >= .seconds(0.5) } else { false } }
        let before = cpuSeconds()
        try await recorder.waitFor(timeout: .seconds(30)) { if case .progress(_, let t) = $0 { t >= .seconds(10.5) } else { false } }
        let spent = cpuSeconds() - before
        controller.shutdown()
        await controller.settle()
        // The engine tears its pipeline down on its own thread; let it finish before the next run.
        try await Task.sleep(for: .milliseconds(500))
        return (spent, (receiver?.delivered ?? 0, receiver?.dropped ?? 0))
    }

    /// User and system CPU time of the whole process (every GStreamer thread included).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The results as a Markdown section for RESULTS.md.
    static func markdown(_ results: [Result]) -> String {
        let headless = median(results.first { $0.output == "headless" }?.cpuSeconds ?? [])
        var text =
            "### Frame callback cost (issue 20)\n\n10 s of 1080p30 H.264 (+ AAC) from a local file, real-time pacing; CPU seconds of the whole process per 10 s of media, median of \(results.first?.cpuSeconds.count ?? 0) interleaved reps.\n\n"
        text += "| Output | CPU s / 10 s | vs headless | frames handed over | dropped |\n|---|---|---|---|---|\n"
        for result in results {
            let cpu = median(result.cpuSeconds)
            let handed = result.delivered.isEmpty ? "–" : "\(result.delivered.sorted()[result.delivered.count / 2])"
            let dropped = result.dropped.isEmpty ? "–" : "\(result.dropped.sorted()[result.dropped.count / 2])"
            text += String(format: "| %@ | %.2f | %.2f× | %@ | %@ |\n", result.output as NSString, cpu, cpu / headless, handed as NSString, dropped as NSString)
        }
        return text
    }
}
