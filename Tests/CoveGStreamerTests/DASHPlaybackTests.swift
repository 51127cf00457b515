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

            /// Media requests (not the MPD) as (folder, file, byte range).
            func mediaRequests(from start: Int = 0) -> [MediaRequest] {
                server.requests.dropFirst(start).filter { !$0.path.hasSuffix(".mpd") }
            }
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
            try await recorder.waitFor(lifecycle: "End")
            controller.shutdown()
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
    }
}
