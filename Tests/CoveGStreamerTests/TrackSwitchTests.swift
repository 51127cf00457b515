import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveTesting
import CoveText
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
                try await recorder.waitFor(from: applied, timeout: .seconds(10)) {
                    if case .progress(_, let t) = $0 { t >= position.advanced(by: .seconds(1)) } else { false }
                }
                #expect(session.selectedAudioTrack?.id == last.id, "round \(round)")
                // Cove streams the chosen rendition: its segments are fetched after the switch.
                let folder = last.language == "fr" ? "/altaudio/vFrench/seg" : "/altaudio/vEnglish/seg"
                #expect(h.server.requests.contains { $0.path.hasPrefix(folder) }, "round \(round): no \(folder) request")
                #expect(recorder.errors.isEmpty, "round \(round): \(recorder.errors)")
                controller.shutdown()
            }
        }

        /// An audio choice and a caption choice made together, before the engine confirms the first: both
        /// hold. (The caption command used to re-send the audio the session still showed, the stream's
        /// default, and so undid the audio choice a moment after it was reported.)
        @Test func anAudioChoiceFollowedAtOnceByACaptionChoiceKeepsBoth() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            h.server.addRoute(prefix: "/captions/fr.vtt") { _ in
                MediaServerResponse(status: 200, contentType: "text/vtt", body: Data("WEBVTT\n\n00:00:00.000 --> 00:00:20.000\nSous-titre\n".utf8))
            }
            let tracks: [JSONValue] = [["src": .string(h.server.url("captions/fr.vtt").absoluteString), "srclang": "fr", "kind": "subtitles"]]
            let controller = h.controller(fast: false, provider: SidecarSubtitlesProvider(transport: AsyncHTTPClientTransport.shared))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.alternateAudio, ["text_tracks": .array(tracks)])])
            try await recorder.waitFor(.ready)
            let session = try #require(controller.currentSession)
            let french = try #require(session.audioTrackGroup.track(preferring: ["fr"]))
            let captions = try #require(session.textTrackGroup.track(preferring: ["fr"]))
            session.selectAudioTrack(french)
            session.selectTextTrack(captions)
            try await recorder.waitFor(timeout: .seconds(10)) { if case .audioTrackSelected(_, let t) = $0 { t?.id == french.id } else { false } }
            let confirmed = recorder.count
            try await recorder.waitFor(from: confirmed, timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= .seconds(3) } else { false } }
            let laterAudio = recorder.events.dropFirst(confirmed).compactMap {
                if case .audioTrackSelected(_, let t) = $0 { t?.language ?? "none" } else { nil }
            }
            #expect(laterAudio.isEmpty, "the audio choice was undone: \(laterAudio)")
            #expect(session.selectedAudioTrack?.id == french.id)
            #expect(session.selectedTextTrack?.id == captions.id)
            #expect(h.server.requests.contains { $0.path.hasPrefix("/altaudio/vFrench/seg") })
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            controller.shutdown()
        }
    }
}
