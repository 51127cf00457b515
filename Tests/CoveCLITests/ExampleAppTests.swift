import CoveTesting
import Foundation
import Testing

/// Every example app under `Examples/` runs to completion against the embedded servers and does what its
/// header says (fast mode where pacing is not the point).
@Suite("Example apps", .serialized)
struct ExampleAppTests {
    static func run(_ name: String, _ arguments: [String] = ["--fast"]) async throws -> ProcessRunner.Result {
        let binary = CLITests.binary.deletingLastPathComponent().appendingPathComponent(name)
        let result = try await ProcessRunner.run(binary.path, arguments)
        #expect(result.status == 0, "\(name) exited \(result.status): \(result.output)\n\(result.errorOutput)")
        return result
    }

    static func expectLines(_ result: ProcessRunner.Result, _ expected: [String]) {
        for line in expected { #expect(result.output.contains(line), "“\(line)” in\n\(result.output)") }
    }

    @Test func basicPlayback() async throws {
        let run = try await Self.run("BasicPlayback")
        Self.expectLines(
            run, ["Found “Adaptive HLS ladder” (2 sources)", "Lifecycle: Ready", "Lifecycle: Play", "Variant: ", "Lifecycle: End", "Done: played to the end."])
    }

    @Test func playlistWithBumper() async throws {
        let run = try await Self.run("PlaylistWithBumper")
        Self.expectLines(
            run,
            [
                "Playlist “Cove sample playlist”: 3 playable", "Left out: video 6000000000199", "Bumper starts: “Cove bumper”",
                "Bumper ends; the content follows",
                "Ended: “Adaptive HLS ladder”", "Ended: “Audio only”", "Ended: “Subtitles in the manifest”", "Playlist complete: 3 videos played",
            ])
        let output = run.output
        #expect(output.range(of: "Bumper ends")!.lowerBound < output.range(of: "Ended: “Adaptive HLS ladder”")!.lowerBound)
    }

    @Test func serverSideAds() async throws {
        let run = try await Self.run("ServerSideAds")
        Self.expectLines(
            run,
            [
                "Ad break 1 begins at 0 s of content: 1 ad", "Ad break 2 begins at 10 s of content: 2 ads", "Ad break 3 begins at 20 s of content: 1 ad",
                "Ad 1: “Cove test ad ad-mid-1”, 4 s, skippable", "Companion 300×250 shown: ", "Companion 300×250 cleared",
                "Tracking beacons received: ", "(4 impressions, 4 completes)",
            ])
    }

    @Test func captionsAndAudioTracks() async throws {
        let run = try await Self.run("CaptionsAndAudioTracks")
        Self.expectLines(
            run,
            [
                "Audio tracks: English (en), Français (fr)", "Text tracks: English (en)", "Audio now: Français", "Captions now: French", "] fr: Réplique",
                "Done.",
            ])
    }

    /// Paced on purpose (about five seconds): the presses follow what the viewer sees.
    @Test func customControls() async throws {
        let run = try await Self.run("CustomControls", [])
        Self.expectLines(
            run,
            [
                "Viewer drags the slider to 80 %: 0:16", "Viewer presses play", "Viewer presses jump back: 0:1", "Viewer drags the slider to 90 %: 0:18",
                "[COVE]|", "On a 1280×720 picture: 7 controls, the logo at 1202,670", "On a 360×640 picture: 6 controls, the logo at",
            ])
        // The standard bar at 80 columns is one line; the compact one at 48 is two, the logo on the second.
        let bars = run.output.split(separator: "\n").filter { $0.hasPrefix("  |") }
        #expect(bars.count >= 5)
        #expect(bars.first.map { $0.count == 80 + 4 } == true, "\(bars.first ?? "")")
        #expect(bars.count > 2 && bars[1].count == 48 + 4 && !bars[1].contains("[COVE]") && bars[2].contains("[COVE]"), "\(bars)")
    }

    @Test func offlinePlayback() async throws {
        let run = try await Self.run("OfflinePlayback")
        Self.expectLines(
            run,
            [
                "Estimated size: ", "Download complete", "Stored: 13 files", "Server stopped; playing the offline copy", "Offline copy ready: text tracks en",
                "A caption, from the store: ", "Offline playback reached the end", "Deleted; 0 downloads left",
            ])
    }

    @Test func analyticsDestination() async throws {
        let run = try await Self.run("AnalyticsDestination")
        Self.expectLines(
            run,
            ["The collector received ", "player_load ×1", "video_impression ×1", "video_view ×1", "video_engagement ×", "Last engagement: video=6000000000101"])
    }
}
