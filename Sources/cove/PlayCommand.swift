import ArgumentParser
import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveOffline
import CovePlayerControls
import CovePlayerUI
import CoveReport
import CoveSSAI
import CoveText
import Foundation

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a URL (HLS, DASH, MP4) with a live progress line and the event log."
    )

    @Argument(help: "Media URL or file path (or, with --offline, a download token).")
    var url: String

    @Flag(help: "Play a downloaded copy: the argument is its token (see `cove downloads`); no network request is made.")
    var offline = false

    @OptionGroup var store: StoreOptions

    @OptionGroup var player: PlayerOptions

    @Option(help: "Seek to this many seconds once the media is ready.")
    var seekTo: Double?

    @Option(name: .customLong("subtitles"), help: "A sidecar WebVTT track to load beside the media: URL or URL=LANGUAGE (repeatable).")
    var subtitles: [String] = []

    @Option(help: "Show captions in this language (a sidecar track or one of the stream's own), e.g. en.")
    var captions: String?

    @Option(help: "A WebVTT thumbnail track for scrubbing previews (the , and . keys).")
    var thumbnails: String?

    @OptionGroup var controls: ControlOptions

    @Option(help: ArgumentHelp("Write the QoE report (self-contained HTML) here when playback ends.", valueName: "file.html"))
    var report: String?

    @Option(help: ArgumentHelp("Write the QoE timeline as a PNG here when playback ends (needs rsvg-convert).", valueName: "file.png"))
    var plot: String?

    func validate() throws {
        if plot != nil && PNGRasterizer().executable == nil { throw ValidationError(ReportError.rasterizerMissing.description) }
    }

    func run() async throws {
        // A VMAP URL (or a video whose source names one) plays through the SSAI plugin; plain media
        // passes through it untouched.
        // Scrubbing previews come from the video's thumbnail track (the engine makes its source, as for
        // any app), or the VMAP's under SSAI.
        let provider = ssaiProvider(upstream: SidecarSubtitlesProvider(transport: AsyncHTTPClientTransport.shared))
        let (controller, view) = await player.makePlayer(provider: provider, controls: controls)
        defer { view?.close() }
        let mpris = player.startMPRIS(for: controller, window: view != nil)
        defer { mpris?.stop() }
        let windowClose = WindowClose(view: view, controller: controller, mpris: mpris)
        controller.isAutoPlay = true
        var video: Video
        var offlineManager: OfflineVideoManager?
        if offline {
            let token = try DownloadsCommand.token(url)
            let manager = try store.openManager()
            offlineManager = manager
            do throws(OfflineError) {
                video = try manager.videoObject(fromOfflineVideoToken: token)
            } catch {
                Terminal.error("cove play: \(error)")
                await manager.close()
                throw ExitCode(1)
            }
        } else {
            video = Video(url: try mediaURL(url))
        }
        defer { if let offlineManager { Task { await offlineManager.close() } } }
        if let thumbnails {
            let track = try mediaURL(thumbnails)
            video = video.update { $0.thumbnailVTTURL = track }
        }
        if !subtitles.isEmpty {
            let tracks = try subtitles.map(Self.textTrack)
            video = video.update { $0.properties["text_tracks"] = .array(tracks) }
        }
        let analytics = try player.startAnalytics(for: controller, account: video.accountID)
        let recorder = report != nil || plot != nil ? QoERecorder(controller: controller, paced: !player.fast) : nil
        let played: PlaybackRunner.Outcome
        if let runner = controls.runner(controller: controller, captionLanguage: captions) {
            played = await runner.play([video], seekTo: seekTo)
        } else {
            played = try await PlaybackRunner(controller: controller, captionLanguage: captions).play([video], seekTo: seekTo)
        }
        let outcome = windowClose.outcome(played)
        if let analytics {
            // What cannot be sent in a few seconds stays queued for the next run.
            controller.shutdown()
            await analytics.finish(within: .seconds(5))
        }
        if let recorder {
            controller.shutdown()
            let source = offline ? "offline download \(url)" : (try? mediaURL(url)).map(Redaction.redact(url:)) ?? url
            let page = await recorder.finish(title: video.name ?? URL(string: url)?.lastPathComponent ?? url, source: source, outcome: "\(outcome)")
            try await page.write(htmlPath: report, pngPath: plot)
            Terminal.line("QoE report: " + [report, plot].compactMap { $0 }.joined(separator: ", "))
        }
        switch outcome {
        case .ended, .quit: break
        case .failed: throw ExitCode(1)
        case .interrupted: throw ExitCode(130)  // the shell's convention for SIGINT
        }
    }

    /// `URL` or `URL=LANGUAGE` as a catalog `text_tracks` entry.
    static func textTrack(_ argument: String) throws -> JSONValue {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let hasLanguage = parts.count == 2 && !parts[1].contains("/") && !parts[1].isEmpty
        let urlText = hasLanguage ? String(parts[0]) : argument
        let url = try mediaURL(urlText)
        var track: JSONObject = ["src": .string(url.absoluteString), "kind": "subtitles", "mime_type": "text/vtt"]
        if hasLanguage {
            track["srclang"] = .string(String(parts[1]))
            track["label"] = .string(String(parts[1]))
        }
        return .object(track)
    }
}

/// The SSAI plugin over `upstream`, letting videos without a VMAP through.
func ssaiProvider(upstream: any PlaybackSessionProvider = BasicSessionProvider()) -> SSAISessionProvider {
    SSAISessionProvider(upstream: upstream, transport: AsyncHTTPClientTransport.shared, options: SSAISessionProviderOptions(videosWithoutVMAP: .passThrough))
}

/// Plays a queue and narrates it: events scroll, progress stays on one line.
struct PlaybackRunner {
    typealias Outcome = PlaybackOutcome

    let controller: PlaybackController
    /// Select the text track in this language once the session lists it, and show its cues.
    var captionLanguage: String? = nil

    func play(_ videos: [Video], seekTo: Double? = nil, autoAdvance: Bool = false) async throws -> Outcome {
        let events = controller.events
        let status = StatusLine()
        let start = Date()
        let stop = Interrupt.install { [controller] in controller.shutdown() }
        defer { stop.cancel() }
        controller.isAutoAdvance = autoAdvance
        controller.setVideos(videos)
        var duration: Double?
        var bandwidth: Int?
        var state = "loading"
        /// The ads of the break playing now (for "Ad 1 of 2"), nil in content.
        var adsInBreak: Int?
        var supervisor = PlaybackSupervisor(controller: controller, videos: videos, autoAdvance: autoAdvance, captionLanguage: captionLanguage)
        for await event in events {
            supervisor.handle(event)
            let t = String(format: "[%7.3f]", Date().timeIntervalSince(start))
            if let text = EventLogLine.text(for: event) { status.log("\(t) \(text)") }
            switch event {
            case .sessionAdvanced:
                duration = nil
                bandwidth = nil
                state = "loading"
                status.caption = nil
            case .lifecycle(_, .ready):
                if let seekTo { controller.seek(to: .seconds(seekTo)) }
            case .textCuesChanged(_, let change):
                let text = change.cues.map { $0.text.replacingOccurrences(of: "\n", with: " / ") }.joined(separator: " · ")
                status.caption = text.isEmpty ? nil : text
                if !Terminal.isTTY && !text.isEmpty { status.log("[caption \(Terminal.clock(change.position.seconds))] \(text)") }
            case .durationChanged(_, let d): duration = d.map { MediaTime($0).seconds }
            case .variantChanged(_, let v): bandwidth = v.bandwidth
            case .lifecycle(_, .play), .lifecycle(_, .recovered): state = "playing"
            case .lifecycle(_, .pause): state = "paused"
            case .lifecycle(_, .stalled): state = "stalled"
            case .lifecycle(let session, .bumperProgress(let time)):
                let total = session.bumper?.duration.map { MediaTime($0).seconds }
                status.update("▶ bumper \(Terminal.clock(time.seconds)) / \(Terminal.clock(total))")
            case .adSequenceEntered(_, let sequence):
                adsInBreak = sequence.ads.count
            case .adSequenceExited:
                adsInBreak = nil
            case .adEntered(_, let ad):
                let line = Self.adLine(ad: ad, of: adsInBreak, remaining: ad.duration, playing: state == "playing")
                // Without a terminal the countdown is throttled: each ad's start is always printed.
                if Terminal.isTTY { status.update(line) } else { status.log(line) }
            case .adProgressed(_, let progress):
                status.update(Self.adLine(ad: progress.ad, of: adsInBreak, remaining: progress.remaining, playing: state == "playing"))
            case .progress where adsInBreak != nil:
                break  // the ad line stands while the content clock waits at the break
            case .progress(_, let time):
                var line = "\(state == "playing" ? "▶" : "⏸") \(Terminal.clock(time.seconds)) / \(Terminal.clock(duration))  \(state)"
                if let bandwidth { line += String(format: "  %.2f Mb/s", Double(bandwidth) / 1e6) }
                status.update(line)
            default: break
            }
        }
        status.finish()
        await supervisor.finish()
        return supervisor.outcome
    }

    /// "▶ Ad 1 of 2 · 0:12 left", the seed's ad countdown.
    static func adLine(ad: Ad, of count: Int?, remaining: Duration, playing: Bool) -> String {
        let seconds = Int(MediaTime(remaining).seconds.rounded(.up))
        var line = "\(playing ? "▶" : "⏸") Ad \(ad.index + 1) of \(count ?? ad.index + 1) · \(seconds / 60):\(String(format: "%02d", seconds % 60)) left"
        if ad.isSkippable { line += "  (skippable)" }
        return line
    }
}
