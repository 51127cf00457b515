// Server-side ads with the SSAI plugin, the seed's SSAI sample: request the video with an ad
// configuration ID, play it through `SSAISessionProvider` (which fetches the VMAP and plays the
// stitched stream), follow the ad breaks and ads through the ads delegate, and show companion banners
// in the app's slots through `SSAIAdDisplayContainer`.
//
//   swift run ServerSideAds [--fast]
//
// The sample title has a pre-roll, a two-ad mid-roll and a post-roll; one mid-roll ad carries a
// 300×250 companion. The plugin sends every tracking beacon; the stand-in ad server counts them.
import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import CoveSSAI
import ExampleSupport
import Foundation

final class AdsDelegate: PlaybackControllerAdsDelegate {
    let finished = Completion<Bool>()
    /// The session's SSAI side, kept to let its last beacons go out before the app exits.
    let ssai = Completion<SSAISession>()

    func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession) {
        if let ssai = session.ssai { self.ssai.fire(ssai) }
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAdSequence adSequence: AdSequence) {
        say(
            "Ad break \(adSequence.index + 1) begins at \(String(format: "%.0f", adSequence.contentTime.seconds)) s of content: \(adSequence.ads.count) ad\(adSequence.ads.count == 1 ? "" : "s")"
        )
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAdSequence adSequence: AdSequence) {
        say("Ad break \(adSequence.index + 1) ends")
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAd ad: Ad) {
        let seconds = Int((Double(ad.duration.components.seconds) + Double(ad.duration.components.attoseconds) / 1e18).rounded())
        say("  Ad \(ad.index + 1): “\(ad.title ?? ad.adID ?? "untitled")”, \(seconds) s\(ad.skipOffset != nil ? ", skippable" : "")")
    }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAd ad: Ad) {
        say("  Ad \(ad.index + 1) done")
    }

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
struct ServerSideAds {
    static func main() async {
        let options = ExampleOptions.parse()
        let backend: SampleBackend
        do { backend = try await SampleBackend.start() } catch { fail("The sample back end did not start: \(error)") }

        // The Playback API returns the VMAP source only for a request with an ad configuration.
        let video: Video
        do {
            video = try await backend.playbackService().findVideo(
                PlaybackServiceConfiguration(assetID: "6000000000105"), query: PlaybackServiceQuery(adConfigID: "sample-ad-config")
            ).value
        } catch {
            await backend.stop()
            fail("The Playback Service could not find the SSAI video: \(error)")
        }
        say("Found “\(video.name ?? "")”")

        // The SSAI plugin in front of the basic provider.
        let provider = SSAISessionProvider(upstream: PlayerSDKManager.shared.makeBasicSessionProvider(), transport: AsyncHTTPClientTransport.shared)
        let controller = PlayerSDKManager.shared.makePlaybackController(
            engine: GStreamerEngine(), sessionProvider: provider, configuration: options.configuration)
        let delegate = AdsDelegate()
        controller.delegate = delegate
        // The app's companion slot: a 300×250 box beside the player.
        let companions = SSAIAdDisplayContainer(companionSlots: [
            SSAICompanionSlot(width: 300, height: 250) { companion in
                if let companion {
                    say("  Companion 300×250 shown: \(companion.staticResources.first?.url ?? companion.id ?? "banner")")
                } else {
                    say("  Companion 300×250 cleared")
                }
            }
        ])
        controller.addSessionConsumer(companions)
        controller.isAutoPlay = true
        controller.setVideos([video])

        let ended = await delegate.finished.value() ?? false
        // The post-roll's last beacons may still be in flight at the end: let them go out.
        if ended, let ssai = await delegate.ssai.value() { await ssai.drainBeacons() }
        controller.shutdown()
        // What the ad server heard (impressions, quartiles, completes, the companion's view).
        let hits = backend.ssai.beaconLog.hits
        say(
            "Tracking beacons received: \(hits.count) (\(hits.filter { $0.event == "impression" }.count) impressions, \(hits.filter { $0.event == "complete" }.count) completes)"
        )
        await backend.stop()
        if !ended { exit(1) }
    }
}
