import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Seeks in an HLS stream while its segments are still downloading. GStreamer 1.22.0's hlsdemux2
    /// can crash the process when a flushing seek cancels a download in flight, so the engine holds
    /// such a seek until the downloads go quiet (`SeekGate`). Cove's own streaming has no such bug; the
    /// gate still guards the streams that fall back to GStreamer's HLS, so the first test runs there.
    /// The second runs on Cove's streaming: rapid seeks as streams start are a stress for any engine.
    @Suite("GStreamer seeks while segments download")
    struct SeekGateTests {
        /// With the link capped, the first segments are still downloading when the first frame shows:
        /// the seek waits for the download in flight (and no new one starts), then lands.
        @Test func aSeekDuringADownloadWaitsForItAndLands() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            // ~1.3 s per 2 s top-variant segment: a download is in flight whenever the seek comes.
            h.server.setBandwidth(bitsPerSecond: 6_000_000)
            let controller = h.controller(fast: true, coveStreaming: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor { $0.name == "FirstFrame" }
            let landed = await controller.seekAndWait(to: .seconds(12))
            #expect(landed)
            let sent = h.logs.all.filter { $0.text.contains("seek sent") }
            let held = sent.compactMap { record in record.metadata["held"].flatMap(Self.seconds(of:)) }
            #expect(held.count == 1, "one gated seek: \(sent.map(\.text))")
            #expect((held.first ?? 0) > 0.05, "the seek waited for the download in flight: \(held)")
            #expect((held.first ?? 9) < 1.6, "and never longer than the gate's limit: \(held)")
            let after = await recorder.cursor()
            let progress = try await recorder.waitFor(from: after) { if case .progress = $0 { true } else { false } }
            if case .progress(_, let position) = progress {
                #expect(position >= .seconds(11.5), "playback continues from the target: \(position)")
            }
            h.server.setBandwidth(bitsPerSecond: nil)
            try await recorder.waitFor(lifecycle: "End", timeout: .seconds(30))
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            controller.shutdown()
        }

        /// Seeks fired back to back as streams start — the pattern that crashed the process most often
        /// without the gate (see tools/gst-seek-stress) — all end on the last target.
        @Test func rapidSeeksAsStreamsStartLandOnTheLastTarget() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            for round in 0..<12 {
                let controller = h.controller(fast: true)
                let recorder = EventRecorder(controller)
                controller.isAutoPlay = true
                controller.setVideos([h.video(.ladder)])
                try await recorder.waitFor { $0.name == "FirstFrame" }
                let seconds = Double(14 + round % 4)
                let target = MediaTime.seconds(seconds)
                controller.seek(to: .seconds(4))
                controller.seek(to: .seconds(9))
                let landed = await controller.seekAndWait(to: target)
                #expect(landed, "round \(round)")
                let after = await recorder.cursor()
                let event = try await recorder.waitFor(from: after) { event in
                    if case .progress = event { return true }
                    return event.name == "End"
                }
                if case .progress(_, let position) = event {
                    #expect(position >= .seconds(seconds - 0.5), "round \(round): lands on the last target, \(position)")
                }
                #expect(recorder.errors.isEmpty, "round \(round): \(recorder.errors)")
                controller.shutdown()
            }
        }

        /// "1.234s" / "0.05 seconds" (a Duration's description) as seconds.
        static func seconds(of metadata: String) -> Double? {
            Double(metadata.prefix { $0.isNumber || $0 == "." })
        }
    }
}
