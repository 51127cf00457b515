import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveSSAI
import CoveTesting
import CoveText
import Foundation
import Testing

extension RealEngineTests {
    /// An SSAI ad's own closed captions on the real engine: the served SSAI title's captioned VMAP gives the
    /// pre-roll `ad-pre` [0, 4) an English WebVTT `ClosedCaptionFile` (and a French TTML one); the video has
    /// its own English sidecar captions, which the viewer turned on.
    @Suite("GStreamer SSAI ad captions", .serialized)
    struct SSAIAdCaptionPlaybackTests {
        /// The ad's cues show while the ad plays — in place of the content's, from the file served by the
        /// test server, fetched through the app's transport — and not after it, when the content's come back.
        @Test func theAdsWebVTTCaptionsShowDuringTheAdAndNotAfter() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let title = try await SSAITitle.install(on: h.server)
            let transport = AsyncHTTPClientTransport.shared
            let provider = SSAISessionProvider(upstream: SidecarSubtitlesProvider(transport: transport), transport: transport)
            let controller = h.controller(fast: false, provider: provider)
            defer { controller.shutdown() }
            let recorder = EventRecorder(controller)
            let contentCaptions: JSONValue = [
                "src": .string(title.contentCaptionsURL.absoluteString), "srclang": "en", "kind": "captions", "label": "English",
            ]
            controller.setVideos([Video(sources: [Source(url: title.captionedVMAPURL)], properties: ["text_tracks": [contentCaptions]])])
            try await recorder.waitFor(.ready, timeout: .seconds(15))
            let session = try #require(controller.currentSession)
            let english = try #require(session.textTrackGroup.tracks.first { $0.id == "sidecar:0" })
            session.selectTextTrack(english)
            try await recorder.waitFor { if case .textTrackSelected(_, let t) = $0 { t?.id == "sidecar:0" } else { false } }
            controller.play()

            func shown(_ text: String) -> @Sendable (PlaybackEvent) -> Bool {
                { if case .textCuesChanged(_, let change) = $0 { change.cues.contains { $0.text == text } } else { false } }
            }
            try await h.diagnosingFailure {
                try await recorder.waitFor(timeout: .seconds(15), shown("ad-pre caption one"))
                try await recorder.waitFor(timeout: .seconds(10), shown("ad-pre caption two"))
                try await recorder.waitFor(timeout: .seconds(10)) { if case .adExited(_, let ad) = $0 { ad.adID == "ad-pre" } else { false } }
                try await recorder.waitFor(timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= .seconds(2) } else { false } }
            }
            let changes = recorder.events.compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            let adChanges = changes.filter { $0.cues.contains { $0.text.hasPrefix("ad-pre") } }
            #expect(adChanges.map { $0.cues.map(\.text) } == [["ad-pre caption one"], ["ad-pre caption two"]], "\(changes)")
            // Shown within the ad (stream time [0, 4)), each at its cue's time, from the ad's own track.
            for change in adChanges {
                #expect(change.position < .seconds(4), "\(change)")
                #expect(change.track.id.hasPrefix("sidecar:ad-") && change.track.language == "en", "\(change.track)")
            }
            #expect(adChanges.last.map { $0.position >= .seconds(1.9) } == true, "caption two shows from 2 s: \(adChanges)")
            // After the ad: the ad's cues cleared, the content's shown again from its end (4 s), none of the ad's.
            let adExit = try #require(recorder.events.firstIndex { if case .adExited(_, let ad) = $0 { ad.adID == "ad-pre" } else { false } })
            let afterAd = recorder.events[adExit...].compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            #expect(!afterAd.contains { $0.cues.contains { $0.text.hasPrefix("ad-pre") } }, "\(afterAd)")
            let contentAgain = try #require(changes.last { $0.cues.map(\.text) == ["Content caption"] })
            #expect(contentAgain.track.id == "sidecar:0" && contentAgain.position >= .seconds(3.9), "\(contentAgain)")
            #expect(session.selectedTextTrack?.id == "sidecar:0")
            #expect(!session.textTrackGroup.tracks.contains { $0.id.hasPrefix("sidecar:ad-") }, "\(session.textTrackGroup.tracks)")
            #expect(!recorder.errors.contains { $0.code == .ssaiAdCaptionsFailed }, "\(recorder.errors)")
            #expect(!recorder.lifecycleNames.contains("Fail"))
        }
    }
}
