// Offline download and playback, the seed's offline video manager flow: find a video the catalog
// allows offline (`offline_enabled`), estimate its size, download the chosen variant with its captions
// and poster, follow the download's events, then stop the server and play the copy from the store
// (no network at all) with captions, and finally delete it.
//
//   swift run OfflinePlayback [--fast]
import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveOffline
import CovePlaybackService
import CoveText
import ExampleSupport
import Foundation
import Logging
import Synchronization

final class OfflinePlayerDelegate: PlaybackControllerDelegate {
    let finished = Completion<Bool>()
    private let captionShown = Mutex(false)

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        switch lifecycleEvent {
        case .ready:
            say("Offline copy ready: text tracks \(session.textTrackGroup.tracks.compactMap(\.language).joined(separator: ", "))")
            if let english = session.textTrackGroup.track(preferring: ["en"]) { session.selectTextTrack(english) }
        case .end: finished.fire(true)
        case .fail(let error):
            say("Offline playback failed: \(error)")
            finished.fire(false)
        default: break
        }
    }

    func playbackController(_ controller: PlaybackController, didReceive event: PlaybackEvent) {
        guard case .textCuesChanged(_, let change) = event, let cue = change.cues.first else { return }
        let first = captionShown.withLock { shown in
            defer { shown = true }
            return !shown
        }
        if first { say("  A caption, from the store: \(cue.text)") }
    }
}

@main
struct OfflinePlayback {
    static func main() async {
        let options = ExampleOptions.parse()
        let backend: SampleBackend
        do { backend = try await SampleBackend.start() } catch { fail("The sample back end did not start: \(error)") }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-offline-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }

        let video: Video
        do {
            video = try await backend.playbackService().findVideo(PlaybackServiceConfiguration(assetID: "6000000000101")).value
        } catch {
            await backend.stop()
            fail("The Playback Service could not find the video: \(error)")
        }

        // 1. The manager keeps downloads under one folder, indexed in SQLite.
        var logger = Logger(label: "cove.offline")
        logger.logLevel = .warning
        let manager: OfflineVideoManager
        do {
            manager = try OfflineVideoManager(root: root, transport: AsyncHTTPClientTransport.shared, logger: logger)
        } catch {
            await backend.stop()
            fail("The offline store did not open: \(error)")
        }

        // 2. Estimate, then download: the 480p variant (or the nearest below), English captions, the poster.
        let parameters = OfflineDownloadParameters(maximumHeight: 480, captionLanguages: ["en"], displayName: "Ladder, 480p, English captions")
        let token: OfflineVideoToken
        do {
            let estimate = try await manager.estimateDownloadSize(video, parameters: parameters)
            say("Estimated size: \(estimate / 1000) kB")
            let events = manager.events()
            token = try await manager.requestVideoDownload(video, parameters: parameters)
            var reported = 0
            for await event in events where event.token == token {
                switch event {
                case .progress(_, let downloaded, let total) where total > 0:
                    let percent = Int(Double(downloaded) / Double(total) * 100)
                    if percent >= reported + 25 {
                        reported = percent / 25 * 25
                        say("Downloading: \(percent) %")
                    }
                case .completed:
                    say("Download complete")
                case .failed(_, let error):
                    throw error
                default: break
                }
                if case .completed = event { break }
            }
            let status = try manager.status(of: token)
            say("Stored: \(status.filesCompleted) files, \(status.bytesDownloaded / 1000) kB")
        } catch {
            await manager.close()
            await backend.stop()
            fail("The download failed: \(error)")
        }

        // 3. No network from here on: the server stops, the copy plays from the store.
        await backend.stop()
        say("Server stopped; playing the offline copy")
        let offlineVideo: Video
        do {
            offlineVideo = try manager.videoObject(fromOfflineVideoToken: token)
        } catch {
            await manager.close()
            fail("The offline copy cannot play: \(error)")
        }
        // The stored captions are the video's `text_tracks`, read by the sidecar-subtitles provider from the store.
        let provider = SidecarSubtitlesProvider(upstream: PlayerSDKManager.shared.makeBasicSessionProvider(), transport: AsyncHTTPClientTransport.shared)
        let controller = PlayerSDKManager.shared.makePlaybackController(
            engine: GStreamerEngine(), sessionProvider: provider, configuration: options.configuration)
        let delegate = OfflinePlayerDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.setVideos([offlineVideo])
        let ended = await delegate.finished.value() ?? false
        controller.shutdown()
        say(ended ? "Offline playback reached the end" : "Offline playback stopped")

        // 4. Delete the copy (files and index entry).
        do { try await manager.deleteOfflineVideo(token) } catch { say("Delete failed: \(error)") }
        say("Deleted; \((try? manager.offlineVideoStatus().count) ?? -1) downloads left")
        await manager.close()
        if !ended { exit(1) }
    }
}
