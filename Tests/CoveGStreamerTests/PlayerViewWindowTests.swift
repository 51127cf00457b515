import CoveCore
import CoveGStreamer
import CovePlayerControls
import CovePlayerUI
import CovePlayerView
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// The view's windows and keys on the real engine under Xvfb: inside the app's window, full screen,
    /// right to left, and driven with keys alone.
    @Suite("Player view: windows and keys", .serialized, .enabled(if: XServer.isAvailable, "Xvfb is not installed"))
    struct PlayerViewWindowTests {
        /// The same video in a window the test created (its ID): the controls are drawn there, and they
        /// follow the window when it is resized.
        @Test func theControlsAreDrawnInTheAppsWindowAndFollowItsSize() async throws {
            let x = try await XServer.start()
            let window = try XTestWindow(display: x.display, width: 640, height: 360)
            let rig = try await PlayerViewRig.start(x: x, placement: .inWindow(id: window.id))
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([rig.h.video(.ladder)])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.3) } else { false } } }
            let playback = try await rig.region(.playback)
            #expect(playback.rect.maxY > 300 && playback.rect.maxY <= 360, "\(playback.rect)")
            try await rig.waitUntil("the pause glyph is drawn in the app's window") {
                try await rig.shot(window: window.id, name: "embedded").whiteCount(in: playback.rect) > 10
            }
            window.resize(width: 960, height: 540)
            try await rig.waitUntil("the bar follows the window") { (rig.view.hitRegions.region(of: .playback)?.rect.maxY ?? 0) > 480 }
            let moved = try await rig.region(.playback)
            try await rig.waitUntil("the pause glyph is drawn at its new place") {
                try await rig.shot(window: window.id, name: "embedded-resized").whiteCount(in: moved.rect) > 10
            }
            await rig.stop(keepingX: true)
            window.close()
            x.stop()
        }

        /// The screen-mode control takes the window full screen (EWMH `_NET_WM_STATE_FULLSCREEN`, here with
        /// no window manager, so the window covers the screen itself); Escape leaves it.
        @Test func fullScreenSetsTheWindowStateAndEscapeLeavesIt() async throws {
            let rig = try await PlayerViewRig.start()
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([rig.h.video(.ladder)])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.3) } else { false } } }
            try await rig.click(try await rig.region(.screenMode))
            try await rig.waitUntil("the window is full screen") {
                try await rig.x.run("xprop", "-id", rig.windowID, "_NET_WM_STATE").contains("_NET_WM_STATE_FULLSCREEN")
            }
            try await rig.waitUntil("the window covers the screen") {
                try await rig.x.run("xwininfo", "-id", rig.windowID).contains("Width: 1280")
            }
            #expect(rig.view.isFullscreen)
            try await rig.waitUntil("the bar is laid out for the screen") { (rig.view.hitRegions.region(of: .playback)?.rect.maxY ?? 0) > 660 }
            try await rig.key("Escape")
            try await rig.waitUntil("full screen is left") {
                try await !rig.x.run("xprop", "-id", rig.windowID, "_NET_WM_STATE").contains("_NET_WM_STATE_FULLSCREEN")
            }
            await rig.stop()
        }

        /// In Arabic the bar is mirrored: play/pause at the right edge, drawn there.
        @Test func aRightToLeftLanguageMirrorsTheBar() async throws {
            let rig = try await PlayerViewRig.start(localizer: Localizer(language: .arabic))
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([rig.h.video(.ladder)])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.3) } else { false } } }
            let playback = try await rig.region(.playback)
            let screenMode = try await rig.region(.screenMode)
            #expect(playback.rect.x > 900 && screenMode.rect.maxX < 60, "mirrored: play \(playback.rect), screen mode \(screenMode.rect)")
            try await rig.waitUntil("the pause glyph is drawn at the right edge") {
                let shot = try await rig.shot(name: "rtl")
                return shot.whiteCount(in: playback.rect) > 20
                    && shot.whiteCount(in: ViewRect(x: 0, y: playback.rect.y, width: 40, height: playback.rect.height)) > 5
            }
            await rig.stop()
        }

        /// With keys alone (a remote control: no pointer), the focus ring reaches every control and Enter
        /// presses the focused one: the captions menu opens and Off is chosen; play/pause pauses.
        @Test func keysAloneReachEveryControlAndEnterPressesIt() async throws {
            let rig = try await PlayerViewRig.start()
            rig.controller.isAutoPlay = true
            rig.controller.setVideos([rig.h.video(.subtitles)])
            try await rig.h.diagnosingFailure { try await rig.recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(0.3) } else { false } } }
            _ = try await rig.region(.closedCaption)
            try await rig.key("Return")
            try await rig.waitUntil("the focus ring starts on play/pause") { rig.view.focusedTarget?.tag == .playback }
            let focusable = Set(
                rig.view.hitRegions.filter { $0.isEnabled && ($0.target.tag?.isButton == true || $0.target.tag == .progress) }.compactMap(\.target.tag))
            var visited: Set<ControlTag> = [.playback]
            for _ in 0..<12 {
                try await rig.key("Right")
                await rig.view.settle()
                if let tag = rig.view.focusedTarget?.tag { visited.insert(tag) }
            }
            #expect(focusable.isSubset(of: visited), "not reached: \(focusable.subtracting(visited))")
            let ring = try #require(rig.view.focusedTarget.flatMap { rig.view.hitRegions.region(of: $0) })
            try await rig.waitUntil("the focus ring is drawn") {
                try await rig.shot(name: "focus-ring").count(in: ring.rect, near: (89, 217, 255), tolerance: 30) > 20
            }

            for _ in 0..<12 where rig.view.focusedTarget?.tag != .closedCaption {
                try await rig.key("Left")
                await rig.view.settle()
            }
            #expect(rig.view.focusedTarget?.tag == .closedCaption)
            try await rig.key("Return")
            try await rig.waitUntil("the captions menu opens") { rig.view.openMenu?.kind == .captions }
            let off = await rig.recorder.cursor()
            for _ in 0..<4 { try await rig.key("Up") }
            try await rig.key("Return")
            try await rig.recorder.waitFor(from: off) { if case .textTrackSelected(_, nil) = $0 { true } else { false } }

            for _ in 0..<12 where rig.view.focusedTarget?.tag != .playback {
                try await rig.key("Left")
                await rig.view.settle()
            }
            let paused = await rig.recorder.cursor()
            try await rig.key("Return")
            try await rig.recorder.waitFor(.pause, from: paused)
            await rig.stop()
        }
    }
}
