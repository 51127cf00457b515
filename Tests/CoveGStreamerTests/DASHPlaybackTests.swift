import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// DASH on Cove's streaming engine: the MPD is Cove's, every request is Cove's, and GStreamer only
    /// demuxes (qtdemux) and decodes what Cove pushes through appsrc — video from the video set, audio
    /// from the audio set through the second appsrc.
    @Suite("DASH on Cove's streaming engine")
    struct DASHPlaybackTests {
        struct DASHHarness {
            let h: Harness
            let fixture: DASHFixture
            let server: MediaServer

            static func start() async throws -> DASHHarness {
                let h = try await Harness.start()
                let fixture = try await DASHFixture.prepare()
                let server = try await MediaServer.start(root: fixture.root)
                return DASHHarness(h: h, fixture: fixture, server: server)
            }

            func video(_ asset: DASHFixture.Asset) -> Video {
                Video(url: server.url(asset.rawValue), properties: [:])
            }

            func stop() async {
                await server.stop()
                await h.stop()
            }

            /// The requests since the `start`-th that were not for an MPD.
            func mediaRequests(from start: Int = 0) -> [MediaRequest] {
                server.requests.dropFirst(start).filter { !$0.path.hasSuffix(".mpd") }
            }
        }

        /// A stall with unsynchronized sinks recovers and plays to the end: the audio set runs to its end at
        /// once while the video set waits for a slow 720p index (CI at 34597d8 hung here, at be13785 too:
        /// the stall's pause left the pipeline unable to return to PLAYING).
        @Test func aStallWithUnsynchronizedSinksRecoversAndPlaysToTheEnd() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            d.server.delayResponses(forPathsContaining: "v720", by: .milliseconds(500), count: 3)
            let controller = d.h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([d.video(.base)])
            defer { controller.shutdown() }
            try await d.h.diagnosingFailure(server: d.server) { try await recorder.waitFor(.end) }
            #expect(recorder.lifecycleKinds.contains(.stalled) && recorder.lifecycleKinds.contains(.recovered), "\(recorder.lifecycleNames)")
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        @Test(arguments: DASHFixture.Asset.allCases)
        func eachAddressingModePlaysToTheEndThroughAppsrc(_ asset: DASHFixture.Asset) async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            GStreamerEngine.resetElementsCreated()
            let controller = d.h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([d.video(asset)])
            defer { controller.shutdown() }
            try await d.h.diagnosingFailure(server: d.server) { try await recorder.waitFor(.end) }
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            let elements = GStreamerEngine.elementsCreated
            for forbidden in ["dashdemux2", "dashdemux", "souphttpsrc", "adaptivedemux2"] {
                #expect(elements[forbidden] == nil, "\(forbidden) was created: \(elements.keys.sorted())")
            }
            #expect(elements["appsrc", default: 0] >= 2, "video and audio each through an appsrc: \(elements.keys.sorted())")
            let requests = d.mediaRequests()
            let described = requests.map { "\($0.path) \($0.range ?? "")" }
            let audio = requests.filter { $0.path.contains("stream2") || $0.path.contains("audio") }
            let video = requests.filter { !($0.path.contains("stream2") || $0.path.contains("audio")) }
            // 20 s of 2 s segments, each once, plus each representation's initialization (and index).
            #expect(audio.count >= 11, "the audio set was streamed segment by segment: \(described)")
            #expect(video.count >= 11, "\(described)")
            switch asset {
            case .timeline, .number:
                #expect(requests.allSatisfy { $0.range == nil }, "\(described)")
                #expect(video.contains { $0.path.hasSuffix("-00010.m4s") }, "\(described)")
            case .list, .base:
                // One file per representation, fetched by byte ranges (the index first, for SegmentBase).
                #expect(requests.allSatisfy { $0.range != nil && $0.path.hasSuffix(".mp4") }, "\(described)")
            }
        }

        /// Under a bitrate cap only the 240p representation is fetched; lifting the cap switches to 720p
        /// within one segment (the next segment fetched is 720p).
        @Test func aBitrateCapHoldsTheLowRepresentationAndLiftingItSwitchesWithinOneSegment() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let controller = d.h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([d.video(.timeline)])
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(3) } else { false } }
            let capped = d.mediaRequests().filter { $0.path.contains("chunk-stream") && !$0.path.contains("stream2") }
            #expect(!capped.isEmpty && capped.allSatisfy { $0.path.contains("chunk-stream0-") }, "\(capped.map(\.path))")
            let mark = d.server.requests.count
            controller.setPreferredPeakBitRate(nil)
            try await recorder.waitFor(timeout: .seconds(15)) { if case .variantChanged(_, let change) = $0 { change.to.height == 720 } else { false } }
            controller.shutdown()
            let after = d.mediaRequests(from: mark).filter { $0.path.contains("chunk-stream") && !$0.path.contains("stream2") }
            #expect(after.first?.path.contains("chunk-stream1-") == true, "the first video segment after lifting the cap: \(after.map(\.path))")
        }

        /// A seek to an unbuffered point lands there: the target's segment is fetched (video and audio)
        /// and nothing before the target is reported afterwards.
        @Test(arguments: [DASHFixture.Asset.number, .base])
        func aSeekLandsAtTheTarget(_ asset: DASHFixture.Asset) async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let controller = d.h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([d.video(asset)])
            try await recorder.waitFor(.play)
            #expect(await controller.seekAndWait(to: .seconds(15)))
            let mark = await recorder.cursor()
            try await recorder.waitFor(from: mark) { if case .progress(_, let t) = $0 { t >= .seconds(16) } else { false } }
            let after = recorder.events.dropFirst(mark).compactMap { if case .progress(_, let t) = $0 { t } else { nil } }
            #expect(after.allSatisfy { $0 >= .seconds(14.9) }, "\(after)")
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// A manifest whose only video is protected by a key system Cove lacks fails at once with
        /// drmUnsupported naming it, before any segment is requested.
        @Test func aWidevineOnlyManifestIsDRMUnsupportedNamingTheKeySystem() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            // The fixture's video set, protected: a CENC signal and Widevine, and no clear video set left.
            let original = try String(contentsOf: d.fixture.url(.number), encoding: .utf8)
            let patched = original.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                guard line.contains("<AdaptationSet id=\"0\"") else { return String(line) }
                return line + "<ContentProtection schemeIdUri=\"urn:mpeg:dash:mp4protection:2011\" value=\"cenc\"/>"
                    + "<ContentProtection schemeIdUri=\"urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed\"/>"
            }.joined(separator: "\n")
            #expect(patched.contains("edef8ba9"))
            try Data(patched.utf8).write(to: d.fixture.root.appendingPathComponent("number/widevine.mpd"))
            defer { try? FileManager.default.removeItem(at: d.fixture.root.appendingPathComponent("number/widevine.mpd")) }
            let controller = d.h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: d.server.url("number/widevine.mpd"), properties: [:])])
            let failure = try await recorder.waitFor(.fail, failOn: [])
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .drmUnsupported, "\(error)")
            #expect(error.message.contains("Widevine"), "\(error.message)")
            #expect(d.mediaRequests().isEmpty, "\(d.mediaRequests().map(\.path))")
        }

        /// A dynamic MPD (SegmentTemplate @duration, availability from the wall clock, reloaded every 2 s):
        /// playback starts near the live edge, follows it as segments become available, and seeks back
        /// inside the time-shift window.
        @Test func liveDASHFollowsTheEdgeAndSeeksBackInTheWindow() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let name = "number/live-\(getpid()).mpd"
            let file = d.fixture.root.appendingPathComponent(name)
            // Eight seconds of the content are available now; one more 2 s segment every 2 s after.
            let availabilityStart = Date().addingTimeInterval(-8)
            let formatter = ISO8601DateFormatter()
            let vod = try String(contentsOf: d.fixture.url(.number), encoding: .utf8)
            let live =
                vod
                .replacingOccurrences(
                    of: "type=\"static\"",
                    with:
                        "type=\"dynamic\" availabilityStartTime=\"\(formatter.string(from: availabilityStart))\" timeShiftBufferDepth=\"PT30S\" minimumUpdatePeriod=\"PT2S\" suggestedPresentationDelay=\"PT4S\""
                )
                .replacingOccurrences(of: "mediaPresentationDuration=\"PT20.0S\"", with: "")
            #expect(live.contains("dynamic") && !live.contains("mediaPresentationDuration"))
            try Data(live.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }

            let controller = d.h.controller(fast: false, liveDVRMinimumWindow: .seconds(4))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: d.server.url(name), properties: [:])])
            try await recorder.waitFor(.play, timeout: .seconds(15))
            #expect(recorder.videoType == .live || recorder.videoType == .liveDVR, "\(String(describing: recorder.videoType))")
            let firstProgress = try await recorder.waitFor { if case .progress = $0 { true } else { false } }
            if case .progress(_, let first) = firstProgress {
                // 8 s published, suggestedPresentationDelay 4 s: the segment holding 4 s (three target durations,
                // HLS's rule, would be 2 s).
                #expect(first >= .seconds(3.5), "starts suggestedPresentationDelay behind the edge: \(first)")
            }
            // Segments published after the start are fetched as they appear.
            try await recorder.waitFor(timeout: .seconds(20)) { _ in
                d.mediaRequests().contains { $0.path.hasSuffix("chunk-stream0-00007.m4s") || $0.path.hasSuffix("chunk-stream1-00007.m4s") }
            }
            let reloads = d.server.requests.filter { $0.path.hasSuffix(name) }.count
            #expect(reloads >= 2, "the MPD is reloaded after minimumUpdatePeriod")
            #expect(!recorder.lifecycleNames.contains("PlaybackStalled"))
            // Back into the window.
            #expect(await controller.seekAndWait(to: .seconds(1)))
            let mark = await recorder.cursor()
            let landed = try await recorder.waitFor(from: mark) { if case .progress = $0 { true } else { false } }
            if case .progress(_, let position) = landed { #expect(position < .seconds(4), "\(position)") }
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// The MPD's WebVTT text set is a text track, selected by its main role, whose cues are delivered
        /// at their times (after a seek too) and stop when it is turned off.
        @Test func aWebVTTTextSetShowsCaptions() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let controller = d.h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([d.video(.timeline)])
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text == "Cue 2 at 2s" } } else { false }
            }
            #expect(await controller.seekAndWait(to: .seconds(12.5), tolerance: .zero))
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text == "Cue 7 at 12s" } } else { false }
            }
            let session = try #require(controller.currentSession)
            #expect(session.textTrackGroup.tracks.contains { $0.language == "en" })
            session.selectTextTrack(nil)
            try await recorder.waitFor(timeout: .seconds(5)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.isEmpty && c.position >= .seconds(12) } else { false }
            }
            controller.shutdown()
            let changes = recorder.events.compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            for change in changes {
                for cue in change.cues {
                    let k = Double(cue.text.split(separator: " ")[1]) ?? -1
                    #expect(change.position.seconds >= 2 * (k - 1) - 0.05 && change.position.seconds < 2 * (k - 1) + 1.95, "\(change)")
                }
            }
            #expect(d.server.requests.filter { $0.path.hasSuffix("subs.vtt") }.count == 1, "the file is fetched once")
        }

        /// The same 20 s as two periods of 10 s (the second with its own start number and presentation time
        /// offset): playback crosses the boundary without a stall, plays to the end, and a seek lands in the
        /// second period.
        @Test func twoPeriodsPlayAcrossTheBoundaryAndSeekIntoTheSecond() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let vod = try String(contentsOf: d.fixture.url(.number), encoding: .utf8)
            let open = try #require(vod.range(of: "<Period id=\"0\" start=\"PT0.0S\">"))
            let close = try #require(vod.range(of: "</Period>"))
            let body = String(vod[open.upperBound..<close.lowerBound])
            let second = body.replacingOccurrences(of: "startNumber=\"1\"", with: "startNumber=\"6\" presentationTimeOffset=\"10000000\"")
            let twoPeriods =
                String(vod[..<open.lowerBound])
                + "<Period id=\"0\" start=\"PT0S\" duration=\"PT10S\">" + body + "</Period>"
                + "<Period id=\"1\" start=\"PT10S\">" + second + "</Period>"
                + String(vod[close.upperBound...])
            let name = "number/periods-\(getpid()).mpd"
            let file = d.fixture.root.appendingPathComponent(name)
            try Data(twoPeriods.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }

            let controller = d.h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: d.server.url(name), properties: [:])])
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(12) } else { false } }
            #expect(!recorder.lifecycleNames.contains("PlaybackStalled"), "crossing the period boundary")
            #expect(await controller.seekAndWait(to: .seconds(16)))
            try await recorder.waitFor(.end, timeout: .seconds(15))
            controller.shutdown()
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            let video = d.mediaRequests().filter { $0.path.contains("chunk-stream0-") || $0.path.contains("chunk-stream1-") }.map {
                ($0.path as NSString).lastPathComponent
            }
            #expect(video.contains { $0.hasSuffix("-00006.m4s") } && video.contains { $0.hasSuffix("-00010.m4s") }, "\(video)")
        }

        /// A live SegmentTimeline MPD that the server rewrites on every request (segments appear only in the
        /// MPD's updates): playback starts near the edge, keeps up by reloading the MPD, and seeks back.
        @Test func liveDASHWithATimelineTheServerUpdates() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let vod = try String(contentsOf: d.fixture.url(.timeline), encoding: .utf8)
            let live = LiveDASH(vod: vod, availabilityStart: Date().addingTimeInterval(-8))
            let path = "/timeline/live-\(getpid()).mpd"
            live.serve(on: d.server, at: path)
            #expect(!live.manifest(now: Date()).contains(" r=\""), "explicit entries only")

            let controller = d.h.controller(fast: false, liveDVRMinimumWindow: .seconds(4))
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: d.server.url(String(path.dropFirst())), properties: [:])])
            try await recorder.waitFor(.play, timeout: .seconds(15))
            #expect(recorder.videoType == .live || recorder.videoType == .liveDVR)
            // Segment 7 ends at 14 s: it exists only in an MPD published at least 6 s after the start.
            try await recorder.waitFor(timeout: .seconds(20)) { _ in
                d.mediaRequests().contains { $0.path.hasSuffix("chunk-stream0-00007.m4s") || $0.path.hasSuffix("chunk-stream1-00007.m4s") }
            }
            #expect(d.server.requests.filter { $0.path == path }.count >= 3, "the MPD was reloaded as it grew")
            #expect(!recorder.lifecycleNames.contains("PlaybackStalled"))
            #expect(await controller.seekAndWait(to: .seconds(2)))
            let mark = await recorder.cursor()
            let landed = try await recorder.waitFor(from: mark) { if case .progress = $0 { true } else { false } }
            if case .progress(_, let position) = landed { #expect(position < .seconds(5), "\(position)") }
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// A TTML text set (one file, application/ttml+xml) is a text track whose paragraphs are delivered as
        /// cues at their times.
        @Test func aTTMLTextSetShowsCaptions() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            var ttml = "<?xml version=\"1.0\"?><tt xmlns=\"http://www.w3.org/ns/ttml\" xml:lang=\"fr\"><body><div>"
            for k in 1...10 { ttml += "<p begin=\"\(2 * (k - 1))s\" dur=\"1.9s\">TTML \(k) <span>à</span> \(2 * (k - 1))s</p>" }
            ttml += "</div></body></tt>"
            let folder = d.fixture.root.appendingPathComponent("timeline")
            let suffix = "\(getpid())"
            try Data(ttml.utf8).write(to: folder.appendingPathComponent("subs-\(suffix).ttml"))
            let manifest = try String(contentsOf: d.fixture.url(.timeline), encoding: .utf8)
                .replacingOccurrences(of: "mimeType=\"text/vtt\" lang=\"en\"", with: "mimeType=\"application/ttml+xml\" lang=\"fr\"")
                .replacingOccurrences(of: "<BaseURL>subs.vtt</BaseURL>", with: "<BaseURL>subs-\(suffix).ttml</BaseURL>")
            #expect(manifest.contains("application/ttml+xml"))
            let name = "timeline/ttml-\(suffix).mpd"
            try Data(manifest.utf8).write(to: d.fixture.root.appendingPathComponent(name))
            defer {
                try? FileManager.default.removeItem(at: d.fixture.root.appendingPathComponent(name))
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("subs-\(suffix).ttml"))
            }
            let controller = d.h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: d.server.url(name), properties: [:])])
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text == "TTML 2 à 2s" } } else { false }
            }
            controller.shutdown()
            let session = try #require(recorder.events.lazy.compactMap { if case .sessionAdvanced(let s) = $0 { s } else { nil } }.first)
            #expect(session.textTrackGroup.tracks.contains { $0.language == "fr" })
            let changes = recorder.events.compactMap { if case .textCuesChanged(_, let c) = $0 { c } else { nil } }
            for change in changes {
                for cue in change.cues {
                    let k = Double(cue.text.split(separator: " ")[1]) ?? -1
                    #expect(change.position.seconds >= 2 * (k - 1) - 0.05 && change.position.seconds < 2 * (k - 1) + 1.95, "\(change)")
                }
            }
        }

        /// A link too slow for the lowest video representation but not for the audio set: the picture would
        /// freeze while the sound plays on (the audio source's clock keeps the playhead moving), so playback
        /// stalls instead, reported as on HLS, and recovers once the link does.
        @Test func aStarvedVideoSetStallsEvenWhileItsAudioPlaysAndRecovers() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            d.server.setBandwidth(bitsPerSecond: 250_000)
            let slow = d.h.controller(fast: false)
            let slowRecorder = EventRecorder(slow)
            slow.isAutoPlay = true
            slow.setVideos([d.video(.number)])
            try await d.h.diagnosingFailure(server: d.server) {
                try await slowRecorder.waitFor(.play, timeout: .seconds(20))
                // The video (440 kbit/s) cannot keep up; the audio (64 kbit/s) can: the picture would freeze while
                // the sound plays on, so playback stalls instead.
                try await slowRecorder.waitFor(.stalled, timeout: .seconds(20))
                d.server.setBandwidth(bitsPerSecond: nil)
                try await slowRecorder.waitFor(.recovered, timeout: .seconds(20))
            }
            slow.shutdown()
            #expect(slowRecorder.errors.isEmpty, "\(slowRecorder.errors)")
        }

        /// Preloading works on DASH as on HLS: the next DASH video is prepared while the first plays and takes
        /// over at its end, its first frame reported as a transition.
        @Test func aPreloadedNextDASHVideoTakesOverAtTheEnd() async throws {
            let d = try await DASHHarness.start()
            defer { Task { await d.stop() } }
            let provider = BasicSessionProvider(options: BasicSessionProviderOptions(sessionPreloadingPolicy: .withProgressPercentage(50)))
            let controller = d.h.controller(provider: provider)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.isAutoAdvance = true
            controller.setVideos([
                Video(url: d.server.url(DASHFixture.Asset.timeline.rawValue), properties: ["id": "one"]),
                Video(url: d.server.url(DASHFixture.Asset.base.rawValue), properties: ["id": "two"]),
            ])
            do {
                try await d.h.diagnosingFailure(server: d.server) {
                    try await recorder.waitFor(timeout: .seconds(40)) { if case .playlistCompleted = $0 { true } else { false } }
                }
            } catch {
                let progress = recorder.events.compactMap { if case .progress(_, let t) = $0 { t.seconds } else { nil } }.suffix(5)
                Issue.record("last progress: \(Array(progress))")
                controller.shutdown()
                throw error
            }
            await controller.settle()
            let frames = recorder.events.compactMap { if case .framePresented(_, let f) = $0 { f.cause } else { nil } }
            #expect(frames == [.start, .transition])
            #expect(recorder.lifecycleNames.filter { $0 == "End" }.count == 2)
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }
    }
}
