import ArgumentParser
import CoveCore
import CoveGStreamer
import CoveStreaming
import CoveTesting
import Foundation

@main
struct CoveBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cove-bench",
        abstract: "Engine-relative benchmarks: Cove against raw playbin3, interleaved in one run, reported as ratios."
    )

    @Option(help: "Repetitions per player (the first is a discarded warm-up).")
    var reps = 8

    @Option(help: "Markdown file to write the results into.")
    var out = "bench/RESULTS.md"

    @Option(help: "Seconds to play before seeking.")
    var settle = 1.0

    @Option(help: "Seek target in seconds (outside what is buffered at the start).")
    var seekTo = 24.0

    @Flag(help: "Only run the parser benchmarks and print them (nothing is written).")
    var parsersOnly = false

    @Option(help: "With --parsers-only: only this parser (webvtt, vmap or mpd), for profiling one at a time.")
    var parser: String?

    @Option(
        help: "Only run the reliability stress with this many sessions (issue 14: 500) and print it; exits 1 when memory, threads or file descriptors grew.")
    var stress: Int?

    @Option(help: "Only run the frame-callback cost benchmark (issue 20) with this many reps and print it (Markdown).")
    var outputs: Int?

    @Flag(help: "Only run the analytics queue and sender benchmark (issue 17) and print it (Markdown).")
    var analyticsOnly = false

    @Option(
        help:
            "Only run the player view benchmark (issue 30: CPU with the controls visible against the bare window, click latency) with this many reps and print it (Markdown)."
    )
    var view: Int?

    @Option(
        help:
            "Only run the protected-content benchmark (issue 36: CPU and first frame of cenc and cbcs against clear) with this many reps and print it (Markdown)."
    )
    var protected: Int?

    @Option(
        help:
            "Only run the start and seek rows of HLS and progressive MP4 against raw playbin3 (issue 32's MP4 target: no worse than the HLS ratio) with this many reps and print them (Markdown)."
    )
    var starts: Int?

    private static func parserBenchmarks() throws -> (
        webVTT: ParserBench.Result, vmap: ParserBench.Result, mpd: (parse: ParserBench.Result, expand: ParserBench.Result)
    ) {
        let vtt = try ParserBench.webVTT()
        sayWebVTT(vtt)
        let vmap = try VMAPBench.parse()
        sayVMAP(vmap)
        let mpd = (try MPDBench.parse(), try MPDBench.parseAndExpand())
        sayMPD(mpd)
        return (vtt, vmap, mpd)
    }

    private static func sayMPD(_ mpd: (parse: ParserBench.Result, expand: ParserBench.Result)) {
        say(
            String(
                format: "MPD %.2f MB, %d segments: parse %@ ms; parse + expand %@ ms", Double(mpd.parse.bytes) / 1e6, mpd.parse.cues,
                mpd.parse.seconds.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ") as NSString,
                mpd.expand.seconds.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ") as NSString))
    }

    private static func sayWebVTT(_ vtt: ParserBench.Result) {
        say(
            String(
                format: "WebVTT %.1f MB, %d cues: %@ ms", Double(vtt.bytes) / 1e6, vtt.cues,
                vtt.seconds.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ") as NSString))
    }

    private static func sayVMAP(_ vmap: ParserBench.Result) {
        say(
            String(
                format: "VMAP %.2f MB, %d breaks: %@ ms", Double(vmap.bytes) / 1e6, vmap.cues,
                vmap.seconds.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ") as NSString))
    }

    func run() async throws {
        if let starts {
            try await GStreamerEngine().warmUp()
            var copy = self
            copy.reps = max(starts, 2)
            let fixtures = try await FixtureMedia.prepare(.init(duration: 30))
            let server = try await MediaServer.start(root: fixtures.root)
            let load = Self.loadAverage()
            let (raw, cove) = try await copy.interleaved("", url: server.url(.ladder))
            let (mp4Raw, mp4Cove) = try await copy.interleaved("MP4 ", url: server.url(.mp4))
            await server.stop()
            var report = Report(raw: raw, cove: cove, load: load, loadAfter: Self.loadAverage())
            report.mp4Raw = mp4Raw
            report.mp4Cove = mp4Cove
            say(
                """
                | metric | Cove median ms (min–max) | raw playbin3 median ms (min–max) | ratio Cove/raw | target | |
                |---|---|---|---|---|---|
                \(report.row("play() → first frame", \.firstFrame, target: 1.10))
                \(report.row("seek → first frame at target", \.seekFrame, target: 1.10))
                \(report.row("MP4 play() → first frame", \.firstFrame, target: report.ratio(\.firstFrame), mp4: true))
                \(report.row("MP4 seek → first frame at target", \.seekFrame, target: report.ratio(\.seekFrame), mp4: true))
                """)
            return
        }
        if let protected {
            try await GStreamerEngine().warmUp()
            let result = try await ProtectedBench.run(reps: max(protected, 1)) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            say(ProtectedBench.markdown(result))
            return
        }
        if let view {
            try await GStreamerEngine().warmUp()
            let result = try await ViewBench.run(reps: max(view, 1)) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            say(ViewBench.markdown(result))
            return
        }
        if analyticsOnly {
            say(AnalyticsBench.markdown(try await AnalyticsBench.run { say($0) }))
            return
        }
        if let outputs {
            try await GStreamerEngine().warmUp()
            let results = try await OutputBench.run(reps: max(outputs, 1)) { say($0) }
            say(OutputBench.markdown(results))
            return
        }
        if let stress {
            try await GStreamerEngine().warmUp()
            let report = try await StressBench.run(sessions: max(stress, 51), seed: 14) { say($0) }
            guard let fiftieth = report.afterFiftieth, let last = report.afterLast else { throw ExitCode(1) }
            let grown = Double(last.residentKB - fiftieth.residentKB) / 1024
            say(
                String(
                    format: "%d sessions: %d ended, %d failed on a served fault, %d failed without one, %d torn down while playing", report.sessions,
                    report.ended, report.failed, report.failedUnprovoked, report.tornDown))
            say(
                String(
                    format: "RSS after the last %+.1f MB against after the 50th (target within 10 MB); threads %d → %d; fds %d → %d", grown, fiftieth.threads,
                    last.threads, fiftieth.fileDescriptors, last.fileDescriptors))
            var extra = last.threadNames
            for name in fiftieth.threadNames { if let index = extra.firstIndex(of: name) { extra.remove(at: index) } }
            if !extra.isEmpty { say("threads after the last that were not there after the 50th: \(extra.joined(separator: ", "))") }
            var extraDescriptors = last.descriptorKinds
            for kind in fiftieth.descriptorKinds { if let index = extraDescriptors.firstIndex(of: kind) { extraDescriptors.remove(at: index) } }
            if !extraDescriptors.isEmpty { say("descriptors after the last that were not there after the 50th: \(extraDescriptors.joined(separator: ", "))") }
            if grown > 10 || last.threads > fiftieth.threads || last.fileDescriptors > fiftieth.fileDescriptors || report.failedUnprovoked > 0 {
                throw ExitCode(1)
            }
            return
        }
        if parsersOnly {
            switch parser?.lowercased() {
            case "vmap": Self.sayVMAP(try VMAPBench.parse())
            case "mpd": Self.sayMPD((try MPDBench.parse(), try MPDBench.parseAndExpand()))
            case "mpd-parse":
                let parse = try MPDBench.parse(runs: 30)
                say(
                    String(
                        format: "MPD %.2f MB: parse %@ ms", Double(parse.bytes) / 1e6,
                        parse.seconds.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ") as NSString))
                let xml = try MPDBench.xmlOnly(runs: 15)
                say(
                    String(
                        format: "of which the guarded XML read: %@ ms",
                        xml.seconds.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ") as NSString))
            case "webvtt": Self.sayWebVTT(try ParserBench.webVTT())
            case nil:
                _ = try Self.parserBenchmarks()
            case let other?:
                throw ValidationError("--parser takes webvtt, vmap or mpd, not \(other)")
            }
            return
        }
        // Parsers first, while no pipeline threads are winding down in the background.
        let (vtt, vmap, mpd) = try Self.parserBenchmarks()
        let fixtures = try await FixtureMedia.prepare(.init(duration: 30))
        let server = try await MediaServer.start(root: fixtures.root)
        let load = Self.loadAverage()
        say("Stream: 30 s, 3-variant HLS ladder, 2 s TS segments, served on loopback. Reps: \(reps) (first discarded).")
        let (raw, cove) = try await interleaved("", url: server.url(.ladder))
        // DASH (issue 16): the same measurements on 30 s of DASH (SegmentTimeline, 240p/720p + audio set),
        // Cove's own DASH against playbin3 with GStreamer's dashdemux2.
        let dash = try await DASHFixture.prepare(duration: 30)
        let dashServer = try await MediaServer.start(root: dash.root)
        say("Stream: 30 s DASH, SegmentTimeline, 240p/720p + AAC audio set, 2 s fMP4 segments. Reps: \(reps) (first discarded).")
        let (dashRaw, dashCove) = try await interleaved("DASH ", url: dashServer.url(DASHFixture.Asset.timeline.rawValue))
        await dashServer.stop()
        // A progressive MP4 (issue 32): Cove reads it by byte ranges through its own HTTP, playbin3 through
        // souphttpsrc; the same 30 s clip (faststart) from the same loopback server.
        say("Stream: 30 s progressive MP4 (H.264 + AAC, moov first). Reps: \(reps) (first discarded).")
        let (mp4Raw, mp4Cove) = try await interleaved("MP4 ", url: server.url(.mp4))
        // The same with Cove's byte cache off, so every seek is a ranged request, as a seek past the
        // read-ahead of a long file is.
        let (mp4RawAgain, mp4Uncached) = try await interleaved("MP4 no cache ", url: server.url(.mp4)) {
            var streaming = StreamingConfiguration()
            streaming.progressive.cacheLimit = 0
            return GStreamerEngine(streaming: streaming)
        }
        var gaps: [Double] = []
        for rep in 0..<4 {
            let gap = try await Self.measureTransition(first: server.url(.ladder), second: server.url(.ladder), seekTo: 26)
            say(String(format: "rep %d transition gap %6.1f ms", rep, gap * 1000))
            if rep > 0 { gaps.append(gap) }
        }
        await server.stop()
        let outputCosts = try await OutputBench.run(reps: 3) { say($0) }
        // A failure here loses this section only, not the whole report.
        let analytics: AnalyticsBench.Result?
        do { analytics = try await AnalyticsBench.run { say($0) } } catch {
            say("analytics bench failed: \(error)")
            analytics = nil
        }
        var report = Report(raw: raw, cove: cove, load: load, loadAfter: Self.loadAverage())
        report.transitionGaps = gaps
        report.dashRaw = dashRaw
        report.dashCove = dashCove
        report.mp4Raw = mp4Raw
        report.mp4Cove = mp4Cove
        report.mp4RawAgain = mp4RawAgain
        report.mp4Uncached = mp4Uncached
        report.webVTT = vtt
        report.vmap = vmap
        report.mpd = mpd
        report.outputs = outputCosts
        report.analytics = analytics
        say(report.text)
        try report.write(to: out)
        say("Wrote \(out)")
    }

    /// `reps` runs of raw playbin3 and Cove on `url`, alternating which goes first; the first rep of each is
    /// a warm-up and left out. `label` prefixes the progress lines ("DASH ", "MP4 ").
    func interleaved(
        _ label: String, url: URL, engine: @escaping @Sendable () -> GStreamerEngine = { GStreamerEngine() }
    ) async throws -> (raw: [RawPlaybin.Result], cove: [RawPlaybin.Result]) {
        var raw: [RawPlaybin.Result] = []
        var cove: [RawPlaybin.Result] = []
        for rep in 0..<reps {
            for player in rep % 2 == 0 ? ["raw", "cove"] : ["cove", "raw"] {
                let result: RawPlaybin.Result?
                if player == "raw" {
                    let (seekTo, settle) = (seekTo, settle)
                    result = await Self.onThread { RawPlaybin().measure(url: url.absoluteString, seekTo: seekTo, settle: settle) }
                } else {
                    result = try await Self.measureCove(url: url, seekTo: seekTo, settle: settle, engine: engine())
                }
                guard let result else { throw ValidationError("\(label)\(player) run \(rep) did not produce frames") }
                say(
                    String(
                        format: "%@rep %d %-4@ first frame %6.1f ms  seek→frame %6.1f ms", label as NSString, rep, player as NSString,
                        result.firstFrame * 1000, result.seekFrame * 1000))
                if rep > 0 { if player == "raw" { raw.append(result) } else { cove.append(result) } }
            }
        }
        return (raw, cove)
    }

    /// Cove: the full SDK path, setVideos + play → first rendered frame; seek → first frame at the target.
    static func measureCove(url: URL, seekTo: Double, settle: Double, engine: GStreamerEngine = GStreamerEngine()) async throws -> RawPlaybin.Result? {
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: engine)
        let recorder = EventRecorder(controller)
        let start = Date().timeIntervalSince1970
        controller.setVideos([Video(url: url)])
        controller.play()
        let first = try await recorder.waitFor(timeout: .seconds(15)) { $0.name == "FirstFrame" }
        guard case .framePresented(_, let frame) = first else { return nil }
        try await Task.sleep(for: .seconds(settle))
        let seekStart = Date().timeIntervalSince1970
        controller.seek(to: .seconds(seekTo), tolerance: .zero)
        let seekEvent = try await recorder.waitFor(timeout: .seconds(15)) { $0.name == "SeekFrame" }
        guard case .framePresented(_, let seekFrame) = seekEvent else { return nil }
        controller.shutdown()
        await controller.settle()
        // The engine tears its pipeline down on its own thread; let it finish before the next run.
        try await Task.sleep(for: .milliseconds(300))
        return RawPlaybin.Result(firstFrame: frame.wallTime - start, seekFrame: seekFrame.wallTime - seekStart)
    }

    /// Preloading: the first video plays its last seconds (preloaded at 50 %), then the gap from its
    /// End (end-of-stream, after its last frame) to the preloaded video's first frame.
    static func measureTransition(first: URL, second: URL, seekTo: Double) async throws -> Double {
        let provider = BasicSessionProvider(options: BasicSessionProviderOptions(sessionPreloadingPolicy: .withProgressPercentage(50)))
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), sessionProvider: provider)
        let recorder = EventRecorder(controller)
        let ended = EndClock()
        controller.addSessionConsumer(ended)
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos([Video(url: first), Video(url: second)])
        _ = try await recorder.waitFor(timeout: .seconds(15)) { $0.name == "FirstFrame" }
        controller.seek(to: .seconds(seekTo), tolerance: .zero)
        let next = try await recorder.waitFor(timeout: .seconds(30)) {
            $0.name == "TransitionFrame"
                || ($0.name == "FirstFrame" && $0.session?.video.sources.first?.url == second && recorder.lifecycleNames.contains("End"))
        }
        controller.shutdown()
        await controller.settle()
        try await Task.sleep(for: .milliseconds(300))
        guard case .framePresented(_, let frame) = next, let end = ended.time else { throw ValidationError("no transition measured") }
        return frame.wallTime - end
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}

/// Wall time of the first End, taken as the event is delivered.
final class EndClock: PlaybackSessionConsumer, @unchecked Sendable {
    private let lock = NSLock()
    private var stamp: Double?
    var time: Double? { lock.withLock { stamp } }
    func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        guard lifecycleEvent == .end else { return }
        lock.withLock { if stamp == nil { stamp = Date().timeIntervalSince1970 } }
    }
}

struct Report {
    let raw: [RawPlaybin.Result]
    let cove: [RawPlaybin.Result]
    let load: String
    let loadAfter: String
    var transitionGaps: [Double] = []
    var dashRaw: [RawPlaybin.Result] = []
    var dashCove: [RawPlaybin.Result] = []
    var mp4Raw: [RawPlaybin.Result] = []
    var mp4Cove: [RawPlaybin.Result] = []
    var mp4RawAgain: [RawPlaybin.Result] = []
    var mp4Uncached: [RawPlaybin.Result] = []
    var webVTT: ParserBench.Result?
    var vmap: ParserBench.Result?
    var mpd: (parse: ParserBench.Result, expand: ParserBench.Result)?
    var outputs: [OutputBench.Result]?
    var analytics: AnalyticsBench.Result?

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The MP4 seek with Cove's byte cache off (a ranged request per seek), against its own interleaved raw run.
    func uncachedSeekRow() -> String {
        guard !mp4Uncached.isEmpty, !mp4RawAgain.isEmpty else { return "" }
        var copy = self
        copy.mp4Cove = mp4Uncached
        copy.mp4Raw = mp4RawAgain
        return copy.row("MP4 seek, no byte cache (a ranged request per seek)", \.seekFrame, target: ratio(\.seekFrame), mp4: true)
    }

    /// Cove's median over raw playbin3's for one metric (HLS, or the DASH or MP4 runs).
    func ratio(_ pick: (RawPlaybin.Result) -> Double, dash: Bool = false, mp4: Bool = false) -> Double {
        let c = (mp4 ? mp4Cove : dash ? dashCove : cove).map(pick), r = (mp4 ? mp4Raw : dash ? dashRaw : raw).map(pick)
        return Self.median(c) / Self.median(r)
    }

    func row(_ name: String, _ pick: (RawPlaybin.Result) -> Double, target: Double?, dash: Bool = false, mp4: Bool = false) -> String {
        let c = (mp4 ? mp4Cove : dash ? dashCove : cove).map(pick), r = (mp4 ? mp4Raw : dash ? dashRaw : raw).map(pick)
        let ratio = Self.median(c) / Self.median(r)
        let range = { (v: [Double]) in String(format: "%.0f–%.0f", (v.min() ?? 0) * 1000, (v.max() ?? 0) * 1000) }
        let verdict = target.map { ratio <= $0 ? "met" : "not met" } ?? ""
        return String(
            format: "| %@ | %.0f (%@) | %.0f (%@) | **%.2f×** | %@ | %@ |",
            name as NSString, Self.median(c) * 1000, range(c) as NSString, Self.median(r) * 1000, range(r) as NSString, ratio,
            (target.map { String(format: "≤ %.2f×", $0) } ?? "—") as NSString, verdict as NSString)
    }

    var text: String {
        """
        ## Engine overhead: Cove vs raw playbin3 (issue #2)

        One run, \(cove.count) measured repetitions per player (plus one discarded warm-up), interleaved,
        same loopback server and stream (30 s, 3-variant HLS ladder, 2 s TS segments). Both time frames
        from the video fakesink's render handoff. Cove's start is measured from `setVideos` + `play()`,
        raw playbin3's from `set_state(PLAYING)`; the seek is an accurate flushing seek to 24 s after 1 s of play.
        Load average before/after: \(load) / \(loadAfter).

        | metric | Cove median ms (min–max) | raw playbin3 median ms (min–max) | ratio Cove/raw | target | |
        |---|---|---|---|---|---|
        \(row("play() → first frame", \.firstFrame, target: 1.10))
        \(row("seek → first frame at target", \.seekFrame, target: 1.10))

        ### DASH: Cove's own against playbin3 with dashdemux2 (issue #16)

        The same measurements, interleaved, on 30 s of generated DASH (SegmentTemplate + SegmentTimeline,
        240p/720p video and an AAC audio set, 2 s fMP4 segments) on the same machine in the same run.
        video.js/VHS is not compared: the shared harness's VHS page loads its source as HLS only.

        | metric | Cove median ms (min–max) | playbin3 + dashdemux2 median ms (min–max) | ratio Cove/raw | target | |
        |---|---|---|---|---|---|
        \(row("DASH play() → first frame", \.firstFrame, target: 0.6, dash: true))
        \(row("DASH seek → first frame at target", \.seekFrame, target: nil, dash: true))

        ### Progressive MP4: Cove's byte-range reader against playbin3 with souphttpsrc (issue #32)

        The same measurements, interleaved, on the 30 s clip as one MP4 (H.264 + AAC, `moov` first) from the
        same server: Cove reads it by byte ranges through its own HTTP (filters, tokens, accounting), raw
        playbin3 through GStreamer's libsoup source. The target: no worse than the HLS ratio of this run.

        | metric | Cove median ms (min–max) | playbin3 + souphttpsrc median ms (min–max) | ratio Cove/raw | target | |
        |---|---|---|---|---|---|
        \(row("MP4 play() → first frame", \.firstFrame, target: ratio(\.firstFrame), mp4: true))
        \(row("MP4 seek → first frame at target", \.seekFrame, target: ratio(\.seekFrame), mp4: true))
        \(uncachedSeekRow())

        ### Playlist transition with preloading (issue #4)

        Two videos, preloading at 50 %, autoAdvance; the first is sought to 26 s and plays out. Gap from its
        End (end-of-stream after its last frame, as delivered to a consumer) to the first frame of the
        preloaded next video, \(transitionGaps.count) measured runs.

        | metric | Cove median ms (min–max) | target | |
        |---|---|---|---|
        \(String(format: "| End → next first frame | %.0f (%.0f–%.0f) | ≤ 100 ms | %@ |", Self.median(transitionGaps) * 1000, (transitionGaps.min() ?? 0) * 1000, (transitionGaps.max() ?? 0) * 1000, (Self.median(transitionGaps) <= 0.1 ? "met" : "not met") as NSString))
        \(webVTTSection)
        \(outputs.map(OutputBench.markdown) ?? "")
        \(analytics.map(AnalyticsBench.markdown) ?? "")
        """
    }

    private var webVTTSection: String {
        guard let vtt = webVTT else { return "" }
        let median = Self.median(vtt.seconds)
        let best = vtt.seconds.min() ?? .nan
        return """

            ### Parsers (issues #5 and #6)

            A generated WebVTT file (ids, settings, voice/italic/bold markup and entities on every cue) parsed
            \(vtt.seconds.count) times in this process with `WebVTT.parse`.

            The target is judged on the fastest run: these are CPU-bound, noise on this shared machine
            only ever adds time (its speed varies up to ~1.7× from minute to minute), so the best of the
            runs is the parser's own cost; the median and range show the machine's variance.

            | metric | fastest ms (median, max) | target | |
            |---|---|---|---|
            \(String(format: "| parse %.1f MB WebVTT (%d cues) | **%.0f** (%.0f, %.0f) | < 200 ms | %@ |", Double(vtt.bytes) / 1e6, vtt.cues, best * 1000, median * 1000, (vtt.seconds.max() ?? 0) * 1000, (best < 0.2 ? "met" : "not met") as NSString))
            \(vmapRow)
            \(mpdRows)
            """
    }

    /// Issue 16's MPD rows; the generated document is described so the numbers can be reproduced.
    private var mpdRows: String {
        guard let mpd else { return "" }
        let best = mpd.parse.seconds.min() ?? .nan
        let bestExpand = mpd.expand.seconds.min() ?? .nan
        return String(
            format:
                "| parse %.2f MB live MPD (SSAI-style: 5 min / 30 s periods, 4 video + 1 audio representations, explicit SegmentTimeline; `MPD.parse`, %d runs) | **%.1f** (%.1f, %.1f) | < 20 ms | %@ |\n",
            Double(mpd.parse.bytes) / 1e6, mpd.parse.seconds.count, best * 1000, Self.median(mpd.parse.seconds) * 1000, (mpd.parse.seconds.max() ?? 0) * 1000,
            (best < 0.02 ? "met" : "not met") as NSString)
            + String(
                format: "| the same, parsed and every representation expanded (%d segments) | **%.1f** (%.1f, %.1f) | — | |", mpd.parse.cues, bestExpand * 1000,
                Self.median(mpd.expand.seconds) * 1000, (mpd.expand.seconds.max() ?? 0) * 1000)
    }

    /// Issue 5's VMAP row; the generated document is described so the number can be reproduced.
    private var vmapRow: String {
        guard let vmap else { return "" }
        let median = Self.median(vmap.seconds)
        let best = vmap.seconds.min() ?? .nan
        return String(
            format:
                "| parse %.2f MB VMAP (%d breaks × 2 inline VAST ads, full tracking, companions; `VMAP.parse`, %d runs) | **%.1f** (%.1f, %.1f) | < 20 ms | %@ |",
            Double(vmap.bytes) / 1e6, vmap.cues, vmap.seconds.count, best * 1000, median * 1000, (vmap.seconds.max() ?? 0) * 1000,
            (best < 0.02 ? "met" : "not met") as NSString)
    }

    func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let marker = "## Engine overhead: Cove vs raw playbin3 (issue #2)"
        var document =
            (try? String(contentsOf: url, encoding: .utf8))
            ?? "# Cove benchmark results\n\nGenerated by `make bench`; numbers are medians from one run on this machine, compared as ratios.\n\n"
        if let range = document.range(of: marker) {
            let rest = document[range.upperBound...]
            let end = rest.range(of: "\n## ")?.lowerBound ?? document.endIndex
            document.replaceSubrange(range.lowerBound..<end, with: text + "\n")
        } else {
            document += text + "\n"
        }
        try document.write(to: url, atomically: true, encoding: .utf8)
    }
}

/// Unbuffered output, so progress shows while the bench runs.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
