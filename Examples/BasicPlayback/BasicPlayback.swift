// The seed's basic Video Cloud player (VideoCloudBasicPlayer): look a video up with the Playback
// Service by its ID, hand it to a playback controller and follow playback through the controller's
// delegate.
//
//   swift run BasicPlayback [--fast]
//
// Plays the sample catalog's adaptive HLS video from the embedded Playback API server and prints the
// lifecycle events, the variant switches and the progress every five seconds, then exits.
import CoveCore
import CoveGStreamer
import CovePlaybackService
import ExampleSupport
import Foundation
import Synchronization

/// The app's controller delegate: every callback has an empty default, so implement only what you need.
final class PlayerDelegate: PlaybackControllerDelegate {
    let finished = Completion<Bool>()
    private let lastReported = Mutex(-5.0)

    func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession) {
        say("Session \(session.id) for “\(session.video.name ?? "untitled")”")
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        say("Lifecycle: \(lifecycleEvent.name)")
        switch lifecycleEvent {
        case .end: finished.fire(true)
        case .fail(let error), .failedToPlayToEndTime(let error):
            say("Playback failed: \(error)")
            finished.fire(false)
        default: break
        }
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didProgressTo progress: MediaTime) {
        let seconds = progress.seconds
        let due = lastReported.withLock { last in
            guard seconds >= last + 5 else { return false }
            last = (seconds / 5).rounded(.down) * 5
            return true
        }
        if due { say(String(format: "Progress: %.0f s", seconds)) }
    }

    func playbackController(_ controller: PlaybackController, didReceive event: PlaybackEvent) {
        if case .variantChanged(_, let change) = event {
            say("Variant: \(change.to.height.map { "\($0)p" } ?? "?") at \(change.to.bandwidth) bit/s (\(change.reason.rawValue))")
        }
    }
}

@main
struct BasicPlayback {
    static func main() async {
        let options = ExampleOptions.parse()
        let backend: SampleBackend
        do { backend = try await SampleBackend.start() } catch { fail("The sample back end did not start: \(error)") }

        // 1. Find the video by ID (the Playback API answers with its sources, poster, text tracks, cue points).
        let service = backend.playbackService()
        let video: Video
        do {
            video = try await service.findVideo(PlaybackServiceConfiguration(assetID: "6000000000101")).value
        } catch {
            await backend.stop()
            fail("The Playback Service could not find the video: \(error)")
        }
        say("Found “\(video.name ?? "")” (\(video.sources.count) sources)")

        // 2. Make a controller through the SDK manager, on the GStreamer engine, and give it a delegate.
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: options.configuration)
        let delegate = PlayerDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true

        // 3. Play.
        controller.setVideos([video])
        let ended = await delegate.finished.value() ?? false
        controller.shutdown()
        await backend.stop()
        say(ended ? "Done: played to the end." : "Done: playback failed.")
        if !ended { exit(1) }
    }
}
