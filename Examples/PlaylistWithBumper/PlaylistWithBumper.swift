// A Playback Service playlist with a bumper, the seed's playlist flow: look the playlist up by ID with
// a bumper video ID, play every playable video in order (the bumper before the first), and follow the
// queue through the delegate (session advances, bumper enter/exit, playlist completed).
//
//   swift run PlaylistWithBumper [--fast]
//
// The sample playlist lists three playable videos and one the catalog does not have: the Playback
// Service reports that one as failed and the controller plays the rest.
import CoveCore
import CoveGStreamer
import CovePlaybackService
import ExampleSupport
import Foundation

final class QueueDelegate: PlaybackControllerDelegate {
    let completed = Completion<Bool>()

    func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession) {
        say("Now playing: “\(session.video.name ?? "untitled")”")
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterBumper bumper: Video) {
        say("Bumper starts: “\(bumper.name ?? "")”")
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitBumper bumper: Video) {
        say("Bumper ends; the content follows")
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        switch lifecycleEvent {
        case .end: say("Ended: “\(session.video.name ?? "")”")
        case .fail(let error):
            say("Failed: “\(session.video.name ?? "")”: \(error)")
            completed.fire(false)
        default: break
        }
    }

    func playbackController(_ controller: PlaybackController, didCompletePlaylist videos: [Video]) {
        say("Playlist complete: \(videos.count) videos played")
        completed.fire(true)
    }

    func playbackController(_ controller: PlaybackController, noPlayableVideosFound videos: [Video]) {
        say("Nothing in the playlist can play here")
        completed.fire(false)
    }
}

@main
struct PlaylistWithBumper {
    static func main() async {
        let options = ExampleOptions.parse()
        let backend: SampleBackend
        do { backend = try await SampleBackend.start() } catch { fail("The sample back end did not start: \(error)") }

        let service = backend.playbackService()
        let playlist: Playlist
        do {
            // The bumper is looked up with the playlist and attached to its first video.
            let found = try await service.findPlaylist(PlaybackServiceConfiguration(assetID: "6000000000900", bumperID: "6000000000010"))
            playlist = found.value
            if let bumperError = found.bumperError { say("No bumper: \(bumperError)") }
        } catch {
            await backend.stop()
            fail("The Playback Service could not find the playlist: \(error)")
        }
        say("Playlist “\(playlist.name ?? "")”: \(playlist.allPlayableVideos.count) playable")
        for failed in playlist.allFailedVideos { say("Left out: video \(failed.id ?? "?") (\(failed.error.map { "\($0)" } ?? "unavailable"))") }

        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: options.configuration)
        let delegate = QueueDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.isAutoAdvance = true
        controller.setVideos(playlist.allPlayableVideos)
        let complete = await delegate.completed.value() ?? false
        controller.shutdown()
        await backend.stop()
        if !complete { exit(1) }
    }
}
