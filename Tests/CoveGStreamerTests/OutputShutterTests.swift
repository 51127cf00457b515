import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests.OutputTests {
    /// The seed's shutter on the real engine, as the SSAI plugin's resume recipe uses it: closed before
    /// `setVideos`, every frame of the load and of the resume seek is black; opened with a fade once the
    /// seek is done, the picture comes back through frames in between (a fade, not a cut).
    @Test func theShutterHoldsThePictureBlackThroughAResumeSeekAndFadesItIn() async throws {
        let s = try await Setup.start()
        defer { Task { await s.stop() } }
        let (seen, arrivals, receiver) = Self.frameTap()
        let controller = s.controller(video: .frames(receiver))
        let recorder = EventRecorder(controller)
        controller.shutter = true
        controller.isAutoPlay = true
        controller.setVideos([s.video])
        try await s.h.diagnosingFailure { try await recorder.waitFor(.ready) }
        #expect(await controller.seekAndWait(to: .seconds(5), tolerance: .zero))
        try await Self.firstFrame(of: arrivals, seen: seen) { $0.time >= 5 }
        // A second of playing under the shutter too.
        try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(6) } else { false } }
        let covered = seen.all
        controller.shutterFadeTime = .milliseconds(300)
        controller.shutter = false
        try await Self.firstFrame(of: arrivals, seen: seen) { Self.isPattern($0) }
        controller.shutdown()
        #expect(covered.count >= 2 && covered.allSatisfy(Self.isBlack), "under the shutter: \(covered.map { $0.centre.map { "\($0)" } ?? "-" })")
        let opened = seen.all.dropFirst(covered.count)
        #expect(opened.contains { !Self.isBlack($0) && !Self.isPattern($0) }, "frames between black and the picture: a fade")
        #expect(opened.last.map(Self.isPattern) == true)
    }

    static func isBlack(_ frame: SeenFrame) -> Bool {
        guard let c = frame.centre else { return false }
        return max(c.red, c.green, c.blue) < 24
    }

    static func isPattern(_ frame: SeenFrame) -> Bool {
        guard let c = frame.centre else { return false }
        let want = OutputFixture.colour
        return abs(Int(c.red) - Int(want.red)) + abs(Int(c.green) - Int(want.green)) + abs(Int(c.blue) - Int(want.blue)) < 40
    }
}
