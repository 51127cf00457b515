// Captions and audio tracks, the seed's media-selection flow: a stream with two audio renditions and
// two sidecar WebVTT caption tracks (the Playback API's `text_tracks`); once the session is ready the
// app lists both groups, picks French audio and French subtitles, and shows each caption as it comes.
//
//   swift run CaptionsAndAudioTracks [--fast]
import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveText
import ExampleSupport
import Foundation
import Synchronization

final class TracksDelegate: PlaybackControllerDelegate {
    let finished = Completion<Bool>()
    private let chosen = Mutex(false)
    private let shownCues = Mutex(0)

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        switch lifecycleEvent {
        case .ready:
            let first = chosen.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            // The groups a track menu would show; `title(for:)` asks the delegate for a label first.
            say("Audio tracks: " + session.audioTrackGroup.tracks.map { controller.title(for: $0) + " (\($0.language ?? "?"))" }.joined(separator: ", "))
            say("Text tracks: " + session.textTrackGroup.tracks.map { controller.title(for: $0) + " (\($0.language ?? "?"))" }.joined(separator: ", "))
            if let french = session.audioTrackGroup.track(preferring: ["fr"]) { session.selectAudioTrack(french) }
            if let french = session.textTrackGroup.track(preferring: ["fr"]) { session.selectTextTrack(french) }
        case .end: finished.fire(true)
        case .fail(let error):
            say("Playback failed: \(error)")
            finished.fire(false)
        default: break
        }
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSelectedAudioTrack track: MediaTrack?) {
        say("Audio now: \(track.map { controller.title(for: $0) } ?? "none")")
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSelectedTextTrack track: MediaTrack?) {
        say("Captions now: \(track.map { controller.title(for: $0) } ?? "off")")
    }

    /// Labels for the menu: the language's own name for audio.
    func playbackController(_ controller: PlaybackController, titleForAudioTrack track: MediaTrack) -> String? {
        switch track.language {
        case "en": "English"
        case "fr": "Français"
        default: nil
        }
    }

    func playbackController(_ controller: PlaybackController, didReceive event: PlaybackEvent) {
        // Captions as they change; the first few are enough to see the French track at work.
        guard case .textCuesChanged(_, let change) = event, !change.cues.isEmpty else { return }
        let count = shownCues.withLock {
            $0 += 1; return $0
        }
        if count <= 3 {
            say(String(format: "  [%.1f s] %@: %@", change.position.seconds, change.track.language ?? "?", change.cues.map(\.text).joined(separator: " / ")))
        }
    }
}

@main
struct CaptionsAndAudioTracks {
    static func main() async {
        let options = ExampleOptions.parse()
        let backend: SampleBackend
        do { backend = try await SampleBackend.start() } catch { fail("The sample back end did not start: \(error)") }

        // An HLS stream with English and French audio, and the catalog's English and French WebVTT files as
        // sidecar text tracks (the shape of a Playback API video's `text_tracks`).
        let captions: [JSONValue] = [("en", "English"), ("fr", "Français")].map { language, label in
            .object([
                "src": .string(backend.server.media.url("media/text/\(language).vtt").absoluteString), "srclang": .string(language), "label": .string(label),
                "kind": "subtitles", "mime_type": "text/vtt",
            ])
        }
        let video = Video(url: backend.mediaURL("altaudio/master.m3u8")).update {
            $0.properties["name"] = "Two audio languages, two caption languages"
            $0.properties["text_tracks"] = .array(captions)
        }

        // The sidecar-subtitles provider turns `text_tracks` into the session's text tracks.
        let provider = SidecarSubtitlesProvider(upstream: PlayerSDKManager.shared.makeBasicSessionProvider(), transport: AsyncHTTPClientTransport.shared)
        let controller = PlayerSDKManager.shared.makePlaybackController(
            engine: GStreamerEngine(), sessionProvider: provider, configuration: options.configuration)
        let delegate = TracksDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.setVideos([video])
        let ended = await delegate.finished.value() ?? false
        controller.shutdown()
        await backend.stop()
        say(ended ? "Done." : "Stopped.")
        if !ended { exit(1) }
    }
}
