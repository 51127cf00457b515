import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveTesting
import CoveText
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// Sidecar WebVTT captions on the real engine: fetched and parsed in Swift beside the stream, the
    /// active cues delivered by playback position (after seeks and at 2× too), a 404 track marked
    /// failed while playback carries on.
    @Suite("GStreamer sidecar captions", .serialized)
    struct CaptionPlaybackTests {
        /// A cue every 0.8 s for 20 s, 0.5 s long, plus one long cue overlapping others.
        static func cues(_ language: String) -> [(start: Double, end: Double, text: String)] {
            var cues = stride(from: 0.3, to: 19.5, by: 0.8).enumerated().map { (start: $0.element, end: $0.element + 0.5, text: "\(language) \($0.offset)") }
            cues.append((start: 12.0, end: 14.0, text: "\(language) long"))
            return cues
        }

        static func vtt(_ language: String) -> Data {
            let stamp = { (t: Double) in String(format: "00:%02d:%06.3f", Int(t) / 60, t.truncatingRemainder(dividingBy: 60)) }
            let body = cues(language).map { "\(stamp($0.start)) --> \(stamp($0.end))\n\($0.text)\n" }.joined(separator: "\n")
            return Data("WEBVTT\n\n\(body)".utf8)
        }

        /// The reference: which texts are active at `t` (start ≤ t < end).
        static func expected(_ language: String, at t: Double) -> Set<String> {
            Set(cues(language).filter { $0.start <= t && t < $0.end }.map(\.text))
        }

        /// The stream's own WebVTT rendition (EXT-X-MEDIA SUBTITLES): its cues come out of the engine and
        /// are delivered the same way as a sidecar track's, by position, after a seek, and cleared when
        /// text is turned off.
        @Test func inManifestSubtitleCuesAreDeliveredByPosition() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.subtitles)])
            try await recorder.waitFor(timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= .seconds(4.5) } else { false } }
            #expect(await controller.seekAndWait(to: .seconds(12.5), tolerance: .zero))
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text == "Cue 7 at 12s" } } else { false }
            }
            let session = try #require(controller.currentSession)
            session.selectTextTrack(nil)
            try await recorder.waitFor(timeout: .seconds(5)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.isEmpty && c.position >= .seconds(12) } else { false }
            }
            controller.shutdown()
            let changes = recorder.events.compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            let texts = changes.flatMap { $0.cues.map(\.text) }
            for expected in ["Cue 1 at 0s", "Cue 2 at 2s", "Cue 3 at 4s", "Cue 7 at 12s"] { #expect(texts.contains(expected), "\(changes)") }
            // Cue k runs from 2(k-1) s for 1.9 s (the segmenter adds a few ms): each shows within its time.
            for change in changes {
                for cue in change.cues {
                    let k = Double(cue.text.split(separator: " ")[1]) ?? -1
                    let start = 2 * (k - 1)
                    #expect(change.position.seconds >= start - 0.05 && change.position.seconds < start + 1.95, "\(change)")
                }
            }
            // Between cues (3.9 s → 4.0 s) the text is cleared, before 12 s.
            #expect(changes.contains { $0.cues.isEmpty && $0.position < .seconds(12) }, "\(changes)")
            #expect(!recorder.lifecycleNames.contains("Fail"))
        }

        /// A resume rebuilds the pipeline, whose subtitle reader delivers the stream's cues again: each cue is
        /// still shown once. (Issue 33's chaos run showed "Cue 3 at 4s" twice after a resume and a retry:
        /// the second pipeline's cues came some milliseconds off the first's and were kept beside them.)
        @Test func aCueIsShownOnceAfterAResumeDeliversItAgain() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.subtitles)])
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text == "Cue 2 at 2s" } } else { false }
            }
            for time in [MediaTime.seconds(1.5), .seconds(3.5)] {
                let mark = await recorder.cursor()
                controller.resumeVideo(at: time, autoPlay: true)
                try await recorder.waitFor(.resumeComplete, from: mark, timeout: .seconds(10))
                try await recorder.waitFor(from: mark, timeout: .seconds(10)) {
                    if case .progress(_, let t) = $0 { t >= time.advanced(by: .milliseconds(1200)) } else { false }
                }
            }
            controller.shutdown()
            let changes = recorder.events.compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            #expect(changes.contains { $0.cues.contains { $0.text == "Cue 3 at 4s" } }, "\(changes)")
            for change in changes {
                #expect(Set(change.cues.map(\.text)).count == change.cues.count, "a cue shown twice: \(change)")
            }
        }

        /// The issue's whole case in one session: two sidecar languages beside an in-manifest rendition,
        /// all in one text group; the stream's own cues by position after a seek at 2×, then a sidecar's.
        @Test func sidecarAndInManifestTracksShareOneGroupAndOneCueStream() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            for language in ["de", "fr"] {
                h.server.addRoute(prefix: "/captions/\(language).vtt") { _ in
                    MediaServerResponse(status: 200, contentType: "text/vtt", body: Self.vtt(language))
                }
            }
            let tracks: [JSONValue] = ["de", "fr"].map { language in
                ["src": .string(h.server.url("captions/\(language).vtt").absoluteString), "srclang": .string(language), "kind": "subtitles"]
            }
            let controller = h.controller(fast: false, provider: SidecarSubtitlesProvider(transport: AsyncHTTPClientTransport.shared))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.subtitles, ["text_tracks": .array(tracks)])])
            try await recorder.waitFor(.play)
            let session = try #require(controller.currentSession)
            #expect(Set(session.textTrackGroup.tracks.compactMap(\.language)) == ["en", "de", "fr"], "\(session.textTrackGroup.tracks)")
            let english: MediaTrack = try #require(session.textTrackGroup.track(preferring: ["en"]))
            #expect(!english.id.hasPrefix(SidecarTextTrack.idPrefix), "the stream's own rendition")
            #expect(session.selectedTextTrack?.id == english.id, "the stream's DEFAULT=YES rendition")
            #expect(await controller.seekAndWait(to: .seconds(8.5), tolerance: .zero))
            controller.playbackRate = 2
            try await recorder.waitFor(timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= .seconds(12.5) } else { false } }
            let german: MediaTrack = try #require(session.textTrackGroup.track(preferring: ["de"]))
            session.selectTextTrack(german)
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.track.id == german.id && !c.cues.isEmpty } else { false }
            }
            controller.shutdown()
            let changes = recorder.events.compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            // The stream's cues 5, 6 and 7 (8 s, 10 s, 12 s) at 2× after the seek, each at its own time.
            let streamTexts = changes.filter { $0.track.id == english.id && $0.position >= .seconds(8.5) }.flatMap { $0.cues.map(\.text) }
            for expected in ["Cue 5 at 8s", "Cue 6 at 10s", "Cue 7 at 12s"] { #expect(streamTexts.contains(expected), "\(changes)") }
            for change in changes where change.track.id == english.id {
                for cue in change.cues {
                    let k = Double(cue.text.split(separator: " ")[1]) ?? -1
                    #expect(change.position.seconds >= 2 * (k - 1) - 0.05 && change.position.seconds < 2 * (k - 1) + 1.95, "\(change)")
                }
            }
            // Then the German sidecar's, exactly what is active at each position.
            for change in changes where change.track.id == german.id && !change.cues.isEmpty {
                #expect(Set(change.cues.map(\.text)) == Self.expected("de", at: change.position.seconds), "\(change)")
            }
        }

        /// The fixture's subtitle playlist runs a segment past the media (as ffmpeg writes it): playback
        /// still ends with the picture and sound, and progress never passes the duration.
        @Test func theStreamEndsWithItsMediaNotALongerSubtitlePlaylist() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.subtitles)])
            try await recorder.waitFor(.play)
            #expect(await controller.seekAndWait(to: .seconds(17), tolerance: .zero))
            let seekDone = ContinuousClock.now
            try await recorder.waitFor(.end, timeout: .seconds(10))
            let waited = ContinuousClock.now - seekDone
            controller.shutdown()
            #expect(recorder.progress.allSatisfy { $0 <= .seconds(20.05) }, "\(recorder.progress.suffix(5))")
            // 3 s of media from 17 s; the subtitle playlist's extra 2 s would make it 5 s.
            #expect(waited < .seconds(4.5), "ended \(waited) after the seek")
        }

        /// A sidecar track that times out or is not WebVTT is marked failed with a typed error while the
        /// video plays on (GStreamer's own suburi would take the whole pipeline down).
        @Test func aSlowOrBrokenSidecarTrackFailsAloneAndPlaybackContinues() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            h.server.addRoute(prefix: "/captions/slow.vtt") { _ in MediaServerResponse(status: 200, contentType: "text/vtt", body: Self.vtt("en")) }
            h.server.addRoute(prefix: "/captions/junk.vtt") { _ in MediaServerResponse(status: 200, contentType: "text/vtt", body: Data([0, 1, 2, 3, 0xFF])) }
            h.server.delayResponses(forPathsContaining: "captions/slow.vtt", by: .seconds(5))
            let tracks: [JSONValue] = ["slow", "junk"].map { name in
                ["src": .string(h.server.url("captions/\(name).vtt").absoluteString), "srclang": .string(name == "slow" ? "en" : "fr"), "kind": "subtitles"]
            }
            let provider = SidecarSubtitlesProvider(transport: AsyncHTTPClientTransport.shared, timeout: .milliseconds(500))
            let controller = h.controller(fast: false, provider: provider)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder, ["text_tracks": .array(tracks)])])
            try await recorder.waitFor(timeout: .seconds(15)) { if case .progress(_, let t) = $0 { t >= .seconds(2) } else { false } }
            let session = try #require(controller.currentSession)
            controller.shutdown()
            guard case .failed(let slow) = session.sidecarTextTracks[0].status, case .failed(let junk) = session.sidecarTextTracks[1].status else {
                Issue.record("\(session.sidecarTextTracks)")
                return
            }
            #expect(slow.code == .downloadFailed, "\(slow)")
            #expect(junk.code == .unsupportedFormat, "\(junk)")
            #expect(!recorder.lifecycleNames.contains("Fail") && !recorder.lifecycleNames.contains("FailedToPlayToEndTime"))
        }

        /// "Captions off", remembered from an earlier session, overrides the stream's DEFAULT=YES rendition;
        /// choosing English again is remembered for the next one.
        @Test func aRememberedCaptionChoiceOverridesTheStreamDefault() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("cove-prefs-\(UUID().uuidString)/preferences.json")
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            try CaptionPreferences(fileURL: file).save(.off)
            let configuration = PlaybackControllerConfiguration(logger: h.logs.logger(), captionPreferences: CaptionPreferences(fileURL: file))
            let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: configuration)
            let recorder = EventRecorder(controller)
            // Playing: the engine confirms track selections as the streams flow.
            controller.isAutoPlay = true
            controller.setVideos([h.video(.subtitles)])
            // The stream selects its default English rendition; the remembered choice turns it off.
            try await recorder.waitFor(timeout: .seconds(10)) { if case .textTrackSelected(_, nil) = $0 { true } else { false } }
            let session = try #require(controller.currentSession)
            #expect(session.selectedTextTrack == nil)
            #expect(recorder.events.contains { if case .textTrackSelected(_, let t) = $0 { t?.language == "en" } else { false } })
            let english: MediaTrack = try #require(session.textTrackGroup.track(preferring: ["en"]))
            let mark = await recorder.cursor()
            session.selectTextTrack(english)
            try await recorder.waitFor(from: mark) { if case .textTrackSelected(_, let t) = $0 { t?.id == english.id } else { false } }
            controller.shutdown()
            #expect(CaptionPreferences(fileURL: file).choice == .language("en"))
        }

        @Test func sidecarCuesFollowThePlayheadThroughSeeksRateAndTrackChanges() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            for language in ["en", "fr"] {
                h.server.addRoute(prefix: "/captions/\(language).vtt") { _ in
                    MediaServerResponse(status: 200, contentType: "text/vtt", body: Self.vtt(language))
                }
            }
            let tracks: [JSONValue] = [
                ["src": .string(h.server.url("captions/en.vtt").absoluteString), "srclang": "en", "label": "English", "kind": "subtitles", "default": true],
                ["src": .string(h.server.url("captions/fr.vtt").absoluteString), "srclang": "fr", "label": "Français", "kind": "captions"],
                ["src": .string(h.server.url("captions/missing.vtt").absoluteString), "srclang": "de", "label": "Deutsch", "kind": "subtitles"],
            ]
            let provider = SidecarSubtitlesProvider(transport: AsyncHTTPClientTransport.shared)
            let controller = h.controller(fast: false, provider: provider)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder, ["text_tracks": .array(tracks)])])
            let advanced = try await recorder.waitFor { $0.name == "SessionAdvanced" }
            let session = try #require(advanced.session)
            #expect(session.sidecarTextTracks.count == 3)
            let english = session.sidecarTextTracks[0].mediaTrack
            #expect(english.language == "en" && english.isDefault && !english.isAccessibility)
            #expect(session.sidecarTextTracks[1].mediaTrack.isAccessibility, "kind captions is an SDH track")
            session.selectTextTrack(english)
            try await recorder.waitFor(timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= .seconds(4) } else { false } }
            #expect(await controller.seekAndWait(to: .seconds(12), tolerance: .zero))
            controller.playbackRate = 2
            try await recorder.waitFor(timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= .seconds(15.5) } else { false } }
            let french = session.sidecarTextTracks[1].mediaTrack
            session.selectTextTrack(french)
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.track == french && !c.cues.isEmpty } else { false }
            }
            controller.shutdown()

            let changes = recorder.events.compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            // The track switch clears the English cues (whatever their times), then French ones follow.
            let switchIndex = try #require(changes.firstIndex { $0.track == french })
            #expect(changes[switchIndex - 1].track == english && changes[switchIndex - 1].cues.isEmpty)
            // Every other report shows exactly what is active at its position, for its track.
            for (index, change) in changes.enumerated() where index != switchIndex - 1 {
                let language = change.track == english ? "en" : "fr"
                #expect(Set(change.cues.map(\.text)) == Self.expected(language, at: change.position.seconds), "\(change)")
            }
            // Each English cue in the first four seconds was shown, within 0.3 s of its start.
            for cue in Self.cues("en") where cue.end < 4 {
                let shown = changes.first { $0.track == english && $0.cues.contains { $0.text == cue.text } }
                #expect(shown.map { $0.position.seconds - cue.start }.map { $0 >= 0 && $0 < 0.3 } == true, "\(cue.text): \(String(describing: shown))")
            }
            // After the seek: the long cue from 12 s is shown at once, and cues keep coming at 2×.
            let afterSeek = changes.filter { $0.position >= .seconds(12) && $0.track == english }
            #expect(afterSeek.first?.cues.contains { $0.text == "en long" } == true, "\(afterSeek)")
            #expect(afterSeek.contains { $0.position >= .seconds(14.5) && !$0.cues.isEmpty }, "\(afterSeek)")
            // The missing track failed with a typed error and took nothing else down.
            guard case .failed(let error) = session.sidecarTextTracks[2].status else {
                Issue.record("the 404 track is \(session.sidecarTextTracks[2])")
                return
            }
            #expect(error.code == .notFound && error.httpStatus == 404)
            #expect(!session.textTrackGroup.tracks.contains { $0.language == "de" })
            #expect(!recorder.lifecycleNames.contains("Fail") && !recorder.lifecycleNames.contains("FailedToPlayToEndTime"))
            #expect(recorder.events.contains { if case .textTrackSelected(_, let t) = $0 { t == french } else { false } })
        }
    }
}
