import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// The engine contract on GStreamer, against served media: the same clauses the scripted engine keeps.
    @Suite("Media engine contract (GStreamer)")
    struct MediaEngineContractPlaybackTests {
        @Test(arguments: [FixtureMedia.Asset.ladder, .mp4, .fmp4])
        func gstreamerKeepsTheContract(_ kind: FixtureMedia.Asset) async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let contract = MediaEngineContract(media: h.server.url(kind), pacing: .realTime)
            let violations = await contract.check(GStreamerEngine())
            #expect(violations.isEmpty, "\(kind): \(violations)")
        }
    }
}
