import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlayerControls
import CovePlayerUI
import CovePlayerView
import CoveSSAI
import CoveTesting
import CoveText
import Foundation
import Testing

extension RealEngineTests {
    /// The view's ad, bumper, live and audio-only looks on the real engine under Xvfb.
    @Suite("Player view: ads, bumper, live, audio", .serialized, .enabled(if: XServer.isAvailable, "Xvfb is not installed"))
    struct PlayerViewAdAndLiveTests {
        /// An SSAI pre-roll shows "Ad 1 of 1" with its countdown and the ad's bar; Learn More runs the
        /// click-through with xdg-open (a stub on PATH records it); in content the ad breaks are marked on
        /// the progress bar; the skippable mid-roll shows its countdown, then a Skip button that skips.
        @Test func adControlsCountDownOpenTheClickThroughAndSkip() async throws {
            let stub = try XDGOpenStub()
            defer { stub.remove() }
            // The VMAP's thumbnail track gives the progress bar its previews.
            let thumbnails = ThumbnailSeekingProvider(transport: AsyncHTTPClientTransport.shared, imageCodec: GStreamerImageCodec())
            let provider = SSAISessionProvider(upstream: thumbnails, transport: AsyncHTTPClientTransport.shared)
            let rig = try await PlayerViewRig.start(provider: provider)
            let title = try await SSAITitle.install(on: rig.h.server)
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([Video(url: title.vmapURL)])
            try await rig.h.diagnosingFailure {
                try await rig.recorder.waitFor { if case .adProgressed(_, let p) = $0 { p.ad.adID == "ad-pre" && p.time > .seconds(0.3) } else { false } }
            }
            let countdown = try await rig.region(.adPodCountdown)
            let bar = try await rig.region(.progress)
            try await rig.waitUntil("the ad's countdown and bar are drawn in the ad colour") {
                let shot = try await rig.shot(name: "ad-pre")
                return shot.count(in: countdown.rect, near: ViewColours.advert, tolerance: 60) > 20
                    && shot.count(in: bar.rect, near: ViewColours.advert) > 10
            }
            #expect(rig.view.hitRegions.region(of: .jumpBack)?.isEnabled != true, "no seeking in an ad")

            let paused = await rig.recorder.cursor()
            try await rig.click(try await rig.region(.learnMore))
            try await rig.waitUntil("xdg-open is run with the click-through") { stub.opened.contains { $0.hasPrefix("https://advertiser.example.com/ad-pre") } }
            try await rig.recorder.waitFor(.pause, from: paused)
            rig.controller.play()

            // Content: the breaks (content 0, 10 and 20 s of 20) are marked on the bar.
            try await rig.recorder.waitFor(timeout: .seconds(20)) { if case .adSequenceExited = $0 { true } else { false } }
            try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.5) } else { false } }
            try await rig.movePointer(x: 480, y: 100)
            let content = try await rig.region(.progress)
            let middle = ViewRect(x: content.rect.midX - 6, y: content.rect.midY - 3, width: 12, height: 6)
            try await rig.waitUntil("the mid-roll is marked in the middle of the bar") {
                try await rig.shot(name: "ad-marks").count(in: middle, near: ViewColours.advert, tolerance: 40) > 4
            }
            // The pointer over the bar at 75 %: a preview of content 0:15 with its thumbnail, drawn above it.
            try await rig.movePointer(x: content.rect.x + 3 + (content.rect.width - 6) * 0.75, y: content.rect.midY)
            try await rig.waitUntil("the scrubbing preview shows its thumbnail") { rig.view.scrubbingPreview?.thumbnail != nil }
            let preview = try #require(rig.view.scrubbingPreview)
            #expect(abs(preview.time / .seconds(1) - 15) < 1, "\(preview.time)")
            // Its box: the thumbnail over a dark strip with the time in white, just above the bar at the pointer.
            let pointerX = content.rect.x + 3 + (content.rect.width - 6) * 0.75
            let label = ViewRect(x: pointerX - 60, y: content.rect.y - 30, width: 120, height: 28)
            try await rig.waitUntil("the preview is drawn above the bar") {
                try await rig.shot(name: "ad-preview").whiteCount(in: label) > 30
            }
            try await rig.movePointer(x: 480, y: 100)

            // The skippable mid-roll (ad-mid-1, skip offset 2 s): a countdown first, then Skip.
            let seek = await rig.recorder.cursor()
            rig.controller.seek(to: .seconds(9))
            try await rig.recorder.waitFor(from: seek, timeout: .seconds(20)) { if case .adEntered(_, let ad) = $0 { ad.adID == "ad-mid-1" } else { false } }
            let skip = try await rig.region(.skip)
            #expect(!skip.isEnabled, "the skip control counts down first")
            try await rig.recorder.waitFor(timeout: .seconds(10)) {
                if case .adProgressed(_, let p) = $0 { p.ad.adID == "ad-mid-1" && p.time >= .seconds(2.1) } else { false }
            }
            try await rig.waitUntil("Skip is enabled") { rig.view.hitRegions.region(of: .skip)?.isEnabled == true }
            let skipNow = try #require(rig.view.hitRegions.region(of: .skip))
            try await rig.waitUntil("the Skip button is drawn") { try await rig.shot(name: "ad-skip").whiteCount(in: skipNow.rect) > 150 }
            let skipped = await rig.recorder.cursor()
            try await rig.click(skipNow)
            try await rig.recorder.waitFor(from: skipped) { if case .adSkipped(_, let ad) = $0 { ad.adID == "ad-mid-1" } else { false } }
            #expect(rig.recorder.errors.isEmpty, "\(rig.recorder.errors)")
            await rig.stop()
        }

        /// While the bumper plays the bar is the bumper's own: its colour, no jump back.
        @Test func theBumperShowsItsOwnBar() async throws {
            let rig = try await PlayerViewRig.start()
            // A bumper's bar needs its duration from the catalog (the seed's `duration`, in ms), as the Playback API gives it.
            let content = rig.h.video(.ladder).update { $0.bumper = rig.h.video(.fmp4, ["duration": 20_000]) }
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([content])
            try await rig.h.diagnosingFailure {
                try await rig.recorder.waitFor { if case .lifecycle(_, .bumperProgress(let t)) = $0 { t > .seconds(0.5) } else { false } }
            }
            let bar = try await rig.region(.progress)
            #expect(rig.view.hitRegions.region(of: .jumpBack) == nil, "no jump back in a bumper")
            // The played part of the track (its middle rows), not the picture behind it.
            let track = ViewRect(x: bar.rect.x, y: bar.rect.midY - 2, width: bar.rect.width, height: 4)
            try await rig.waitUntil("the bumper's bar is drawn in its colour") {
                try await rig.shot(name: "bumper").count(in: track, near: ViewColours.bumper, tolerance: 30) > 20
            }
            await rig.stop()
        }

        /// Live shows LIVE; in a DVR window a click back on the bar turns it into "Go to live", which
        /// returns to the edge when pressed.
        @Test func liveShowsLiveAndGoToLiveReturnsToTheEdge() async throws {
            let rig = try await PlayerViewRig.start()
            try rig.h.server.addLiveStream(path: "/live/view-dvr.m3u8", sourcePlaylist: "ladder/v0/index.m3u8", windowSegments: 35)
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([Video(url: rig.h.server.url("live/view-dvr.m3u8"), deliveryMethod: .hls)])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .videoTypeDetermined(_, .liveDVR) = $0 { true } else { false } } }
            try await rig.recorder.waitFor { if case .progress = $0 { true } else { false } }
            let live = try await rig.region(.live)
            try await rig.waitUntil("LIVE is drawn with its red dot") {
                try await rig.shot(name: "live").count(in: live.rect, near: ViewColours.live, tolerance: 40) > 10
            }

            let progress = try await rig.region(.progress)
            try await rig.click(x: progress.rect.x + progress.rect.width * 0.2, y: progress.rect.midY)
            try await rig.waitUntil("behind the edge, the live control reads Go to live") {
                try await rig.shot(name: "live-behind").count(in: live.rect, near: ViewColours.live, tolerance: 40) < 3
            }
            let behind = try #require(rig.view.hitRegions.region(of: .live))
            try await rig.click(behind)
            try await rig.waitUntil("back at the edge, LIVE again", timeout: .seconds(20)) {
                try await rig.shot(name: "live-again").count(in: live.rect, near: ViewColours.live, tolerance: 40) > 10
            }
            #expect(rig.recorder.errors.isEmpty, "\(rig.recorder.errors)")
            await rig.stop()
        }

        /// Audio-only media shows its poster behind the audio layout.
        @Test func audioOnlyShowsThePoster() async throws {
            let rig = try await PlayerViewRig.start()
            let orange = RGBAImage(width: 64, height: 36, pixels: [UInt8]((0..<(64 * 36)).flatMap { _ in [0xFF, 0x88, 0x00, 0xFF] }))!
            let png = try GStreamerImageCodec().encodePNG(orange)
            rig.h.server.addRoute(prefix: "/view-poster.png") { _ in MediaServerResponse(status: 200, contentType: "image/png", body: png) }
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([rig.h.video(.audioOnly, ["poster": .string(rig.h.server.url("view-poster.png").absoluteString)])])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.5) } else { false } } }
            let playback = try await rig.region(.playback)
            #expect(rig.view.hitRegions.region(of: .screenMode) == nil, "the audio layout has no screen mode")
            try await rig.waitUntil("the poster fills the window") {
                let shot = try await rig.shot(name: "audio-poster")
                return shot.count(in: ViewRect(x: 380, y: 170, width: 200, height: 100), near: (0xFF, 0x88, 0x00), tolerance: 16) > 15_000
                    && shot.whiteCount(in: playback.rect) > 20
            }
            await rig.stop()
        }
    }
}

/// `xdg-open` replaced on PATH by a script that records the URLs it is given.
final class XDGOpenStub: Sendable {
    let folder: URL
    let log: URL
    private let previousPath: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        log = folder.appendingPathComponent("opened.txt")
        let script = folder.appendingPathComponent("xdg-open")
        try Data("#!/bin/sh\necho \"$1\" >> '\(log.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        previousPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        setenv("PATH", folder.path + ":" + previousPath, 1)
    }

    /// The URLs opened so far.
    var opened: [String] {
        (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    func remove() {
        setenv("PATH", previousPath, 1)
        try? FileManager.default.removeItem(at: folder)
    }
}
