import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Audio renditions switched back to back. GStreamer 1.22.0's adaptivedemux2 can deadlock (or apply
    /// them out of order) when a stream selection arrives right after the previous one was applied, so
    /// the engine sends one selection at a time and only the newest that is waiting (`SelectionGate`).
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
                #expect(recorder.errors.isEmpty, "round \(round): \(recorder.errors)")
                controller.shutdown()
            }
        }
    }
}
