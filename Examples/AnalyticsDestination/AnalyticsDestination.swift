// Analytics to a destination of the app's choosing, the seed's analytics setup: one `PlaybackAnalytics`
// for the app, tracking a controller, sending the Data Collection API's events (player_load,
// video_impression, video_view, video_engagement with QoE fields) to a collector URL, queued on disk
// so nothing is lost when the network is down.
//
//   swift run AnalyticsDestination [--fast]
//
// The collector is the embedded stand-in; in production the destination is Brightcove's (the default)
// or a proxy domain.
import CoveAnalytics
import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import ExampleSupport
import Foundation

final class EndDelegate: PlaybackControllerDelegate {
    let finished = Completion<Bool>()

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        switch lifecycleEvent {
        case .end: finished.fire(true)
        case .fail(let error):
            say("Playback failed: \(error)")
            finished.fire(false)
        default: break
        }
    }
}

@main
struct AnalyticsDestination {
    static func main() async {
        let options = ExampleOptions.parse()
        let backend: SampleBackend
        do { backend = try await SampleBackend.start() } catch { fail("The sample back end did not start: \(error)") }
        let queue = FileManager.default.temporaryDirectory.appendingPathComponent("cove-analytics-example-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: queue) }

        let video: Video
        do {
            video = try await backend.playbackService().findVideo(PlaybackServiceConfiguration(assetID: "6000000000101")).value
        } catch {
            await backend.stop()
            fail("The Playback Service could not find the video: \(error)")
        }

        // One analytics object for the app: the account, the on-disk queue and the destination.
        let analytics: PlaybackAnalytics
        do {
            analytics = try PlaybackAnalytics(
                configuration: .init(
                    account: backend.accountID, queueURL: queue, destination: backend.analytics.destination, playerName: "Analytics example",
                    flushInterval: .seconds(1)),
                transport: AsyncHTTPClientTransport.shared
            )
        } catch {
            await backend.stop()
            fail("Analytics did not start: \(error)")
        }
        say("Sending analytics to \(backend.analytics.destination.absoluteString)")

        let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: options.configuration)
        analytics.track(controller, pacing: options.fast ? .unsynchronized : .realTime)
        let delegate = EndDelegate()
        controller.delegate = delegate
        controller.isAutoPlay = true
        controller.setVideos([video])
        let ended = await delegate.finished.value() ?? false
        controller.shutdown()
        // Whatever is still queued goes now (or with the next run, if the collector cannot be reached).
        await analytics.finish(within: .seconds(10))

        let received = backend.analytics.events
        var counts: [String: Int] = [:]
        for event in received { counts[event.event, default: 0] += 1 }
        say("The collector received \(received.count) events: " + counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
        if let engagement = received.last(where: { $0.event == "video_engagement" }) {
            let fields = ["video", "range", "video_seconds_viewed", "media_bytes", "rendition_indicated_bps", "rebuffering_count"]
            say("Last engagement: " + fields.compactMap { key in engagement.parameters[key].map { "\(key)=\($0)" } }.joined(separator: " "))
        }
        await backend.stop()
        if !ended || received.isEmpty { exit(1) }
    }
}
