import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Audio renditions switched back to back. (With GStreamer's own HLS this deadlocked adaptivedemux2;
    /// Cove now streams the renditions itself, into one appsrc, the new one following what is buffered.)
    @Suite("GStreamer track switches in a row")
    struct TrackSwitchTests {
        @Test func backToBackAudioSwitchesEndOnTheLastChoiceAndPlayOn() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            // Real time, so the 20 s clip is still playing when the switches land.
            let rounds = Int(ProcessInfo.processInfo.environment["COVE_TRACK_SWITCH_ROUNDS"] ?? "") ?? 4
            for round in 0..<rounds {
                let controller = h.controller(fast: false)
                let recorder = EventRecorder(controller)
                controller.isAutoPlay = true
                controller.setVideos([h.video(.alternateAudio)])
                try await recorder.waitFor { $0.name == "FirstFrame" }
                let session = try #require(controller.currentSession)
                let english = try #require(session.audioTrackGroup.track(preferring: ["en"]))
                let french = try #require(session.audioTrackGroup.track(preferring: ["fr"]))
                let last = round % 2 == 0 ? french : english
                session.selectAudioTrack(french)
                session.selectAudioTrack(english)
                session.selectAudioTrack(last)
                try await recorder.waitFor(timeout: .seconds(10)) { if case .audioTrackSelected(_, let t) = $0 { t?.id == last.id } else { false } }
                // And it plays on: a second of progress after the last choice was applied.
                let applied = await recorder.cursor()
                let from = try await recorder.waitFor(from: applied) { if case .progress = $0 { true } else { false } }
                guard case .progress(_, let position) = from else { return }
                try await recorder.waitFor(from: applied, timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= position.advanced(by: .seconds(1)) } else { false } }
                #expect(session.selectedAudioTrack?.id == last.id, "round \(round)")
                // Cove streams the chosen rendition: its segments are fetched after the switch.
                let folder = last.language == "fr" ? "/altaudio/vFrench/seg" : "/altaudio/vEnglish/seg"
                #expect(h.server.requests.contains { $0.path.hasPrefix(folder) }, "round \(round): no \(folder) request")
                #expect(recorder.errors.isEmpty, "round \(round): \(recorder.errors)")
                controller.shutdown()
            }
        }
    }
}
