import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Cove owns its streaming: every HLS request is Cove's own, GStreamer only demuxes, decodes and
    /// renders what Cove pushes into it — and bad answers become typed errors, never a hang.
    @Suite("Cove's streaming engine on GStreamer")
    struct StreamingEngineTests {
        /// No GStreamer network source and no adaptive demuxer is made for HLS: TS and fMP4 ladders,
        /// audio-only, subtitled, alternate-audio and AES-128 streams play to the end through `appsrc`
        /// into the plain demuxers.
        /// The segment requests among `requests`: variant folder, file name, and whether the client cut it.
        static func segments(_ requests: some Sequence<MediaRequest>) -> [(variant: String, name: String, aborted: Bool)] {
            requests.compactMap { request in
                let parts = request.path.split(separator: "/")
                guard let name = parts.last, name.hasPrefix("seg"), parts.count >= 2 else { return nil }
                return (String(parts[parts.count - 2]), String(name), request.aborted)
            }
        }

        @Test func hlsPlaysThroughAppsrcWithoutGStreamersNetworkOrAdaptiveDemuxer() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            GStreamerEngine.resetElementsCreated()
            for asset in [FixtureMedia.Asset.ladder, .fmp4, .audioOnly, .subtitles, .alternateAudio, .aes] {
                let controller = h.controller()
                let recorder = EventRecorder(controller)
                controller.isAutoPlay = true
                controller.setVideos([h.video(asset)])
                try await recorder.waitFor(.end)
                controller.shutdown()
                #expect(try #require(recorder.progress.last) >= .seconds(19.5), "\(asset)")
            }
            let elements = GStreamerEngine.elementsCreated
            for forbidden in ["hlsdemux2", "hlsdemux", "dashdemux2", "souphttpsrc", "adaptivedemux2"] {
                #expect(elements[forbidden] == nil, "\(forbidden) was created: \(elements.keys.sorted())")
            }
            #expect(elements["appsrc", default: 0] >= 7, "\(elements.keys.sorted())")
            #expect(elements["tsdemux"] != nil && elements["qtdemux"] != nil, "\(elements.keys.sorted())")
        }

        /// A presentation on disk (`file:` URLs, what `cove play ./folder/master.m3u8` gives) streams through
        /// Cove's loader like a served one: TS and fMP4 ladders, alternate audio renditions and subtitles
        /// play to the end, and GStreamer neither reads a file nor makes an adaptive demuxer.
        @Test func aPresentationOnDiskPlaysThroughCovesStreaming() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            GStreamerEngine.resetElementsCreated()
            for asset in [FixtureMedia.Asset.ladder, .fmp4, .alternateAudio, .subtitles] {
                let controller = h.controller()
                let recorder = EventRecorder(controller)
                controller.isAutoPlay = true
                controller.setVideos([Video(url: h.fixtures.url(asset))])
                try await recorder.waitFor(.end)
                controller.shutdown()
                #expect(try #require(recorder.progress.last) >= .seconds(19.5), "\(asset)")
            }
            // The subtitle rendition's cues, read from disk, in real time (unsynchronised playback can reach
            // the end before the first subtitle segment is read).
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.fixtures.url(.subtitles))])
            try await recorder.waitFor(timeout: .seconds(15)) { if case .textCuesChanged = $0 { true } else { false } }
            controller.shutdown()
            let elements = GStreamerEngine.elementsCreated
            for forbidden in ["hlsdemux2", "hlsdemux", "filesrc", "souphttpsrc"] {
                #expect(elements[forbidden] == nil, "\(forbidden) was created: \(elements.keys.sorted())")
            }
            #expect(h.server.requests.isEmpty, "a presentation on disk made \(h.server.requests.count) requests")
        }

        /// A playlist fetched over the network that names a local file (`file:///…`) never gets it read:
        /// the segment is refused, typed, saying why, and no byte of the file reaches the decoder.
        @Test func aServedPlaylistNamingALocalFileIsRefused() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let local = h.fixtures.root.appendingPathComponent("ladder/v0/seg000.ts").absoluteString
            let playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n\(local)\n#EXT-X-ENDLIST\n"
            h.server.addRoute(prefix: "/sneaky.m3u8") { _ in
                MediaServerResponse(status: 200, contentType: "application/vnd.apple.mpegurl", body: Data(playlist.utf8))
            }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("sneaky.m3u8"))])
            let failure = try await recorder.waitFor(timeout: .seconds(15), failOn: []) { event in
                [.fail, .failedToPlayToEndTime].contains(event.lifecycleEvent?.kind)
            }
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .unsupportedFormat, "\(error)")
            #expect(error.message.contains("file scheme") && error.message.contains("fetched over the network"), "\(error.message)")
            #expect(h.server.requests.map(\.path) == ["/sneaky.m3u8"], "\(h.server.requests.map(\.path))")
            #expect(!recorder.lifecycleNames.contains("Ready"))
        }

        /// An HLS playlist behind a media file's name (`.mp4`) is found by GStreamer's type finder, which
        /// would hand it to its own HLS: Cove fails it instead, typed, saying to give it its own name.
        @Test func aPlaylistBehindAMediaFileNameFailsTyped() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let master = try String(contentsOf: h.fixtures.url(.ladder), encoding: .utf8)
                .split(separator: "\n").map { $0.hasPrefix("v") ? h.server.url("ladder/\($0)").absoluteString : String($0) }.joined(separator: "\n")
            h.server.addRoute(prefix: "/disguised.mp4") { _ in MediaServerResponse(status: 200, contentType: "video/mp4", body: Data(master.utf8)) }
            GStreamerEngine.resetElementsCreated()
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("disguised.mp4"))])
            let failure = try await recorder.waitFor(.fail, timeout: .seconds(15), failOn: [])
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .unsupportedFormat, "\(error)")
            #expect(error.message.contains(".m3u8"), "\(error.message)")
            #expect(!recorder.lifecycleNames.contains("Play"))
            // GStreamer's HLS was made (the type finder found the playlist) and fetched nothing.
            #expect(GStreamerEngine.elementsCreated["hlsdemux2", default: 0] >= 1, "\(GStreamerEngine.elementsCreated.keys.sorted())")
            #expect(h.server.requests.map(\.path) == ["/disguised.mp4"], "\(h.server.requests.map(\.path))")
        }

        /// On an unconstrained link the first segment comes from the lowest variant (the quickest first
        /// frame) and the second already from the top one: the first download measured the link.
        @Test func theSecondSegmentComesFromTheTopVariantOnAFastLink() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(1) } else { false } }
            controller.shutdown()
            let segments = Self.segments(h.server.requests)
            #expect(segments.first.map { $0.variant == "v0" && $0.name == "seg000.ts" } == true, "\(segments)")
            #expect(segments.first { $0.name == "seg001.ts" }?.variant == "v2", "\(segments)")
            let switches = recorder.events.compactMap { if case .variantChanged(_, let v) = $0 { v } else { nil } }
            #expect(switches.map(\.to.height) == [240, 720], "\(switches)")
        }

        /// The link drops from unconstrained to 700 kbit/s while the top variant (2.7 Mbit/s) plays with a
        /// small forward buffer: the top-variant download that would outlast the buffer is abandoned,
        /// the same segment comes from a lower variant, and playback never stalls. Without abandonment
        /// that download takes ~8 s against ~4–6 s buffered.
        @Test func aSlowDownloadIsAbandonedForALowerVariantWithoutAStall() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor(timeout: .seconds(15)) { if case .progress(_, let t) = $0 { t >= .seconds(8) } else { false } }
            let before = h.server.requests.count
            h.server.setBandwidth(bitsPerSecond: 700_000)
            try await recorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(15) } else { false } }
            controller.shutdown()
            let after = Self.segments(h.server.requests.dropFirst(before))
            #expect(!recorder.lifecycleNames.contains("PlaybackStalled"), "stalled after the drop: \(after)")
            let abandoned = after.filter { $0.variant == "v2" && $0.aborted }
            #expect(!abandoned.isEmpty, "no top-variant download was abandoned: \(after)")
            for segment in abandoned {
                #expect(
                    after.contains { $0.name == segment.name && $0.variant != "v2" && !$0.aborted }, "\(segment.name) never came from a lower variant: \(after)"
                )
            }
            let transfers = recorder.events.compactMap { if case .mediaTransferred(_, let t) = $0, t.status == 0, t.url.contains("/v2/") { t } else { nil } }
            #expect(transfers.contains { $0.bytes > 0 }, "the abandoned download's bytes are accounted: \(transfers)")
        }

        /// Answers that are not media fail at once with a typed error that says what came instead.
        @Test func notMediaAnswersAreTypedErrorsNotHangs() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let page = Data("<!DOCTYPE html><html><body>Sign in to continue</body></html>".utf8)
            h.server.addRoute(prefix: "/portal") { _ in MediaServerResponse(status: 200, contentType: "text/html", body: page) }
            h.server.addRoute(prefix: "/empty.m3u8") { _ in MediaServerResponse(status: 200, contentType: "application/vnd.apple.mpegurl", body: Data()) }
            let selfish = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nself.m3u8\n#EXT-X-ENDLIST\n"
            h.server.addRoute(prefix: "/self.m3u8") { _ in
                MediaServerResponse(status: 200, contentType: "application/vnd.apple.mpegurl", body: Data(selfish.utf8))
            }
            let cases: [(path: String, code: PlaybackError.Code, says: String)] = [
                ("portal/welcome", .notMedia, "an HTML page"),
                ("portal/master.m3u8", .notMedia, "an HTML page"),
                ("empty.m3u8", .notMedia, "an empty body"),
                ("self.m3u8", .corruptMedia, "lists itself"),
            ]
            for item in cases {
                let controller = h.controller()
                let recorder = EventRecorder(controller)
                controller.isAutoPlay = true
                controller.setVideos([Video(url: h.server.url(item.path))])
                let failure = try await recorder.waitFor(.fail, timeout: .seconds(10), failOn: [])
                controller.shutdown()
                let error = try #require(failure.lifecycleEvent?.error, "\(item.path)")
                #expect(error.code == item.code, "\(item.path): \(error)")
                #expect(error.message.contains(item.says), "\(item.path): \(error.message)")
                #expect(!recorder.lifecycleNames.contains("Ready"), "\(item.path)")
            }
        }

        /// A truncated init segment (a whole 200 answer whose body stops early) fails typed, never hangs.
        @Test func aTruncatedInitSegmentFailsTyped() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let initURL = h.fixtures.root.appendingPathComponent("fmp4/v0/init.mp4")
            let truncated = try Data(contentsOf: initURL).prefix(120)
            h.server.addRoute(prefix: "/fmp4/v0/init.mp4") { _ in MediaServerResponse(status: 200, contentType: "video/mp4", body: Data(truncated)) }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.fmp4)])
            let failure = try await recorder.waitFor(timeout: .seconds(20), failOn: []) { event in
                [.fail, .failedToPlayToEndTime].contains(event.lifecycleEvent?.kind)
            }
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect([.corruptMedia, .failedToPlayToEnd, .unsupportedFormat].contains(error.code), "\(error)")
            #expect(!recorder.lifecycleNames.contains("End"))
        }

        /// A media file behind a name that says nothing (no extension) is recognised from its first bytes
        /// and handed to GStreamer, which plays it.
        @Test func aMediaFileWithoutAnExtensionStillPlays() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let clip = try Data(contentsOf: h.fixtures.root.appendingPathComponent("clip.mp4"))
            h.server.addRoute(prefix: "/download/clip") { _ in MediaServerResponse(status: 200, contentType: "application/octet-stream", body: clip) }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("download/clip"))])
            try await recorder.waitFor(.end)
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }
    }
}
