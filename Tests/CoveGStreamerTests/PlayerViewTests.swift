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
    /// The player view on the real engine under Xvfb: the controls drawn on the picture, pressed with
    /// xdotool as a person would, looked at in screenshots of the window.
    @Suite("Player view", .serialized, .enabled(if: XServer.isAvailable, "Xvfb is not installed"))
    struct PlayerViewTests {
        /// The bar is drawn over the playing video where the layout puts it (the pause glyph, the
        /// progress fill that grows), hides after the hide delay, comes back when the pointer moves, and a
        /// click on pause pauses.
        @Test func theBarIsDrawnOverThePlayingVideoHidesAndComesBackOnMotion() async throws {
            let rig = try await PlayerViewRig.start()
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([rig.h.video(.ladder)])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.3) } else { false } } }
            let playback = try await rig.region(.playback)
            let progress = try await rig.region(.progress)
            #expect(playback.rect.maxY > 540 * 0.85, "the bar sits at the bottom of the picture: \(playback.rect)")
            let first = try await rig.shot(name: "bar-early")
            #expect(first.whiteCount(in: playback.rect) > 20, "the pause glyph is drawn")
            let early = first.count(in: progress.rect, near: ViewColours.accent)
            try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(1.6) } else { false } }
            let later = try await rig.shot(name: "bar-later").count(in: progress.rect, near: ViewColours.accent)
            #expect(early > 10 && later > early + 10, "the played part grows: \(early) then \(later) accent pixels")

            // The seed's 3 s: hidden while playing and untouched; the picture under the bar is the video's.
            // (A change shows on the next frame the sink takes: one or two frame intervals after it is drawn.)
            try await rig.waitUntil("the controls hide") { !rig.view.areControlsShown }
            try await rig.waitUntil("the hidden bar leaves the picture") {
                try await rig.shot(name: "bar-hidden").count(in: progress.rect, near: ViewColours.accent) < 5
            }
            try await rig.movePointer(x: 300, y: 200)
            try await rig.waitUntil("the controls come back on pointer motion") { rig.view.areControlsShown }
            try await rig.waitUntil("the bar is back on the picture") {
                try await rig.shot(name: "bar-back").count(in: progress.rect, near: ViewColours.accent) > 10
            }

            let mark = await rig.recorder.cursor()
            try await rig.click(try await rig.region(.playback))
            try await rig.recorder.waitFor(.pause, from: mark)
            // Paused: the glyph turns to play, drawn by the engine into the window with no frame flowing.
            try await rig.waitUntil("the play glyph is shown") {
                let shot = try await rig.shot(name: "bar-paused")
                return shot.whiteCount(in: playback.rect) > 20 && shot.whiteCount(in: playback.rect) != first.whiteCount(in: playback.rect)
            }
            #expect(rig.recorder.errors.isEmpty, "\(rig.recorder.errors)")
            await rig.stop()
        }

        /// The captions menu opens on click and choosing French shows French captions on the picture; a
        /// click at 75 % of the progress bar seeks to 75 % of the video.
        @Test func aClickSeeksAndTheCaptionsMenuChoosesFrench() async throws {
            let rig = try await PlayerViewRig.start(provider: SidecarSubtitlesProvider(transport: AsyncHTTPClientTransport.shared))
            Self.serveCaptions(on: rig.h.server)
            let tracks: JSONValue = [
                ["src": .string(rig.h.server.url("view-captions/en.vtt").absoluteString), "srclang": "en", "kind": "captions", "mime_type": "text/vtt"],
                ["src": .string(rig.h.server.url("view-captions/fr.vtt").absoluteString), "srclang": "fr", "kind": "captions", "mime_type": "text/vtt"],
            ]
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([rig.h.video(.ladder, ["text_tracks": tracks])])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.3) } else { false } } }

            try await rig.click(try await rig.region(.closedCaption))
            try await rig.waitUntil("the captions menu opens") { rig.view.openMenu?.kind == .captions }
            let menu = try #require(rig.view.openMenu)
            let french = try #require(
                menu.items.firstIndex { if case .selectTextTrack(let track?) = $0.action { track.language == "fr" } else { false } }, "\(menu.items)")
            let row = try #require(rig.view.hitRegions.region(of: .menuItem(french)))
            let opened = try await rig.shot(name: "captions-menu")
            #expect(opened.whiteCount(in: row.rect) > 30, "the French row is drawn")
            let mark = await rig.recorder.cursor()
            try await rig.click(row)
            try await rig.recorder.waitFor(from: mark) { if case .textTrackSelected(_, let track) = $0 { track?.language == "fr" } else { false } }
            let cue = try await rig.recorder.waitFor(from: mark) {
                if case .textCuesChanged(_, let change) = $0 { change.cues.contains { $0.text.contains("française") } } else { false }
            }
            _ = cue
            // The caption box: white text on a dark box above the bar, centred.
            try await rig.waitUntil("the French caption is drawn on the picture") {
                let shot = try await rig.shot(name: "captions-french")
                let bar = try #require(rig.view.hitRegions.region(of: .progress))
                let area = ViewRect(x: 960 * 0.2, y: bar.rect.y - 120, width: 960 * 0.6, height: 110)
                return shot.whiteCount(in: area) > 80
            }

            // 75 % of the progress bar: 15 s of 20 s, within a second (a click lands on a whole pixel).
            let progress = try await rig.region(.progress)
            let inset = 4 * 0.75
            let seekMark = await rig.recorder.cursor()
            try await rig.click(x: progress.rect.x + inset + (progress.rect.width - 2 * inset) * 0.75, y: progress.rect.midY)
            let landed = try await rig.recorder.waitFor(from: seekMark) {
                if case .progress(_, let t) = $0 { t > .seconds(12) } else { false }
            }
            guard case .progress(_, let position) = landed else { return }
            #expect(abs(position.seconds - 15) <= 1, "landed at \(position)")
            #expect(rig.recorder.errors.isEmpty, "\(rig.recorder.errors)")
            await rig.stop()
        }

        /// English and French captions with a cue every second, for the whole ladder title.
        static func serveCaptions(on server: MediaServer) {
            func vtt(_ text: String) -> Data {
                var body = "WEBVTT\n\n"
                for second in 0..<20 {
                    body += String(format: "00:00:%02d.000 --> 00:00:%02d.000\n%@ %d\n\n", second, second + 1, text, second)
                }
                return Data(body.utf8)
            }
            let english = vtt("English caption")
            let french = vtt("Ligne française")
            server.addRoute(prefix: "/view-captions/") { request in
                MediaServerResponse(status: 200, contentType: "text/vtt", body: request.path.hasSuffix("fr.vtt") ? french : english)
            }
        }
    }
}
