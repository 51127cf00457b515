import ArgumentParser
import CoveCore
import Foundation

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a URL (HLS, MP4) with a live progress line and the event log."
    )

    @Argument(help: "Media URL or file path.")
    var url: String

    @OptionGroup var player: PlayerOptions

    @Option(help: "Seek to this many seconds once the media is ready.")
    var seekTo: Double?

    func run() async throws {
        let controller = await player.makeController()
        controller.isAutoPlay = true
        let outcome = try await PlaybackRunner(controller: controller).play([Video(url: try mediaURL(url))], seekTo: seekTo)
        if outcome != .ended { throw ExitCode(1) }
    }
}

/// Plays a queue and narrates it: events scroll, progress stays on one line.
struct PlaybackRunner {
    enum Outcome { case ended, failed, interrupted }

    let controller: PlaybackController

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
        var outcome = Outcome.interrupted
        var failed = false
        for await event in events {
            let t = String(format: "[%7.3f]", Date().timeIntervalSince(start))
            if let text = describe(event) { status.log("\(t) \(text)") }
            switch event {
            case .sessionAdvanced:
                duration = nil
                bandwidth = nil
                state = "loading"
            case .durationChanged(_, let d): duration = d.map { MediaTime($0).seconds }
            case .variantChanged(_, let v): bandwidth = v.bandwidth
            case .lifecycle(_, .ready):
                if let seekTo { controller.seek(to: .seconds(seekTo)) }
            case .lifecycle(_, .play), .lifecycle(_, .recovered): state = "playing"
            case .lifecycle(_, .pause): state = "paused"
            case .lifecycle(_, .stalled): state = "stalled"
            case .lifecycle(_, .end) where !autoAdvance:
                outcome = .ended
                controller.shutdown()
            case .lifecycle(_, .fail):
                // With autoAdvance the controller moves on by itself (and completes the playlist).
                failed = true
                if !autoAdvance {
                    outcome = .failed
                    controller.shutdown()
                }
            case .lifecycle(_, .failedToPlayToEndTime):
                failed = true
                if autoAdvance, let session = event.session, let index = videos.firstIndex(of: session.video), index + 1 < videos.count {
                    controller.advanceToNext()
                } else {
                    outcome = .failed
                    controller.shutdown()
                }
            case .playlistCompleted, .noPlayableVideosFound:
                outcome = failed ? .failed : .ended
                controller.shutdown()
            case .lifecycle(let session, .bumperProgress(let time)):
                let total = session.bumper?.duration.map { MediaTime($0).seconds }
                status.update("▶ bumper \(Terminal.clock(time.seconds)) / \(Terminal.clock(total))")
            case .progress(_, let time):
                var line = "\(state == "playing" ? "▶" : "⏸") \(Terminal.clock(time.seconds)) / \(Terminal.clock(duration))  \(state)"
                if let bandwidth { line += String(format: "  %.2f Mb/s", Double(bandwidth) / 1e6) }
                status.update(line)
            default: break
            }
        }
        status.finish()
        return outcome
    }
}
