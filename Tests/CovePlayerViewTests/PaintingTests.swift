import CPangoCairo
import CoveCore
import CovePlayerControls
import CovePlayerUI
import Foundation
import Testing

@testable import CovePlayerView

/// The painter without a window or an engine: where the controls land, what is handed over, the menus,
/// right to left, and the pixels of a few controls.
@Suite("Painting the controls")
struct PaintingTests {
    static func controls(playing: Bool = true, position: Duration = .seconds(30), duration: Duration = .seconds(120)) -> PlayerControlsState {
        var controls = PlayerControlsState()
        controls.handle(.availableCommandsChanged([.play, .pause, .seek]), playbackRate: 1)
        controls.bar = ControlBarState(isPlaying: playing, position: position, duration: duration, captionsOn: true, canSeek: true)
        return controls
    }

    static func pixel(_ image: OverlayImage, x: Int, y: Int) -> (b: UInt8, g: UInt8, r: UInt8, a: UInt8)? {
        guard let layer = image.layer, y >= layer.y, y < layer.y + layer.height, x >= layer.x, x < layer.x + layer.width else { return nil }
        let offset = (y - layer.y) * layer.bytesPerRow + (x - layer.x) * 4
        return (layer.pixels[offset], layer.pixels[offset + 1], layer.pixels[offset + 2], layer.pixels[offset + 3])
    }

    @Test func theVODBarSitsAtTheBottomInLayoutOrder() throws {
        let scene = ViewScene(size: OverlayImage.Size(width: 1280, height: 720), controls: Self.controls(), layout: .vod, bufferedFraction: 0.5)
        let painted = try ScenePainter().paint(scene)
        let tags = painted.regions.compactMap(\.target.tag)
        #expect(tags == [.playback, .jumpBack, .currentTime, .timeSeparator, .duration, .progress, .screenMode], "\(tags)")
        let playback = try #require(painted.regions.region(of: .playback))
        #expect(playback.rect.x < 40 && playback.rect.maxY > 700)
        // Only the strip with the bars and their shadow is handed over, not the whole picture.
        let layer = try #require(painted.image.layer)
        #expect(layer.y > 560 && layer.y + layer.height == 720, "layer rows \(layer.y)..<\(layer.y + layer.height)")
        #expect(painted.image.canvas == OverlayImage.Size(width: 1280, height: 720))
        try PNGWriter.write(painted.image, to: FileManager.default.temporaryDirectory.appendingPathComponent("cove-vod.png").path)
    }

    @Test func theProgressBarShowsThePlayedAndBufferedParts() throws {
        let painted = try ScenePainter().paint(
            ViewScene(size: OverlayImage.Size(width: 1280, height: 720), controls: Self.controls(), layout: .vod, bufferedFraction: 0.5))
        let bar = try #require(painted.regions.region(of: .progress)).rect
        let y = Int(bar.midY)
        let played = try #require(Self.pixel(painted.image, x: Int(bar.x + bar.width * 0.1), y: y))
        #expect(played.r < 20 && played.b > 240 && played.a == 255, "accent at 10 %: \(played) \(bar)")
        let buffered = try #require(Self.pixel(painted.image, x: Int(bar.x + bar.width * 0.4), y: y))
        let ahead = try #require(Self.pixel(painted.image, x: Int(bar.x + bar.width * 0.8), y: y))
        #expect(buffered.r > ahead.r && buffered.a > ahead.a, "buffered \(buffered) brighter than the rest \(ahead)")
    }

    @Test func nothingShownHandsOverNothing() throws {
        let painted = try ScenePainter().paint(ViewScene(size: OverlayImage.Size(width: 640, height: 360), controls: Self.controls(), controlsShown: false))
        #expect(painted.image.layer == nil && painted.regions.isEmpty)
    }

    @Test func rightToLeftMirrorsTheBar() throws {
        let scene = ViewScene(
            size: OverlayImage.Size(width: 1280, height: 720), controls: Self.controls(), layout: .vod, localizer: Localizer(language: .arabic))
        let painted = try ScenePainter().paint(scene)
        let playback = try #require(painted.regions.region(of: .playback))
        let screen = try #require(painted.regions.region(of: .screenMode))
        #expect(playback.rect.maxX > 1240 && screen.rect.x < 40)
        // The played part fills from the right.
        let bar = try #require(painted.regions.region(of: .progress)).rect
        let nearRight = try #require(Self.pixel(painted.image, x: Int(bar.maxX - bar.width * 0.1), y: Int(bar.midY)))
        #expect(nearRight.b > 240 && nearRight.r < 20, "\(nearRight)")
    }

    @Test func aNarrowPictureGetsTheCompactBars() throws {
        let painted = try ScenePainter().paint(ViewScene(size: OverlayImage.Size(width: 400, height: 720), controls: Self.controls(), layout: .vod))
        let rows = Set(
            painted.regions.compactMap { region -> Int? in
                if case .control(_, let bar, _) = region.target { return bar }
                if case .progress(let bar, _) = region.target { return bar }
                return nil
            })
        #expect(rows == [0, 1], "two rows at 400 points: \(painted.regions.map(\.target))")
    }

    @Test func anOpenMenuIsDrawnAboveTheBarsWithItsRowsHittable() throws {
        let items = [ControlMenu.Item(title: "Off", action: .selectTextTrack(nil), isCurrent: true)]
        let menu = ControlMenu(kind: .captions, title: "Captions", items: items, selected: 0)
        var scene = ViewScene(size: OverlayImage.Size(width: 1280, height: 720), controls: Self.controls(), layout: .vod, menu: menu)
        scene.layout = scene.layout.settingRemoved(false, for: .closedCaption)
        let painted = try ScenePainter().paint(scene)
        let row = try #require(painted.regions.region(of: .menuItem(0)))
        let bar = try #require(painted.regions.region(of: .playback))
        #expect(row.rect.maxY < bar.rect.y)
        #expect(painted.regions.hit(x: row.rect.midX, y: row.rect.midY)?.target == .menuItem(0))
        #expect(try #require(painted.image.layer).y <= Int(row.rect.y), "the menu is in what is handed over")
    }

    @Test func aSkippableAdShowsItsCountdownThenSkip() throws {
        var controls = PlayerControlsState()
        let ad = try AdPosition(index: 1, count: 2, timeLeft: .seconds(8), clickThroughURL: "https://example.com", isSkippable: true)
        controls.bar = ControlBarState(isPlaying: true, duration: .seconds(60), phase: .ad(ad), skipIn: .seconds(2))
        let layout = ControlLayout.resolved(
            appLayout: nil, options: .standard, mediaType: .audioVideo, videoType: .vod, phase: controls.bar.phase, hasTrackChoices: false)
        let waiting = try ScenePainter().paint(ViewScene(size: OverlayImage.Size(width: 1280, height: 720), controls: controls, layout: layout))
        #expect(waiting.regions.region(of: .skip)?.isEnabled == false)
        #expect(waiting.regions.region(of: .learnMore) != nil && waiting.regions.region(of: .adPodCountdown) != nil)
        controls.bar.skipIn = .zero
        let ready = try ScenePainter().paint(ViewScene(size: OverlayImage.Size(width: 1280, height: 720), controls: controls, layout: layout))
        #expect(ready.regions.region(of: .skip)?.isEnabled == true)
    }

    @Test func anAppsCustomViewIsDrawnFromItsImage() throws {
        let logo = ControlTag.custom("logo")
        let layout = ControlLayout(standard: [[LayoutView(.playback), LayoutView(.empty, elasticity: 1), LayoutView(logo, width: 6)]], compact: [])
        let red = RGBAImage(width: 4, height: 2, pixels: [UInt8]((0..<8).flatMap { _ in [255, 0, 0, 255] }))!
        let painted = try ScenePainter().paint(
            ViewScene(size: OverlayImage.Size(width: 1280, height: 720), controls: Self.controls(), layout: layout, customImages: ["logo": red]))
        let region = try #require(painted.regions.region(of: logo))
        let middle = try #require(Self.pixel(painted.image, x: Int(region.rect.midX), y: Int(region.rect.midY)))
        #expect(middle.r > 240 && middle.g < 20 && middle.b < 20, "\(middle)")
    }

    @Test func aPosterIsABackdropFittedOnBlack() throws {
        let poster = RGBAImage(width: 2, height: 1, pixels: [0, 255, 0, 255, 0, 255, 0, 255])!
        let painted = try ScenePainter().paint(
            ViewScene(size: OverlayImage.Size(width: 200, height: 200), controls: Self.controls(), controlsShown: false, poster: poster))
        let backdrop = try #require(painted.image.backdrop)
        #expect(backdrop.width == 200 && backdrop.height == 200)
        func at(_ y: Int) -> UInt8 { backdrop.pixels[y * backdrop.bytesPerRow + 100 * 4 + 1] }
        #expect(at(100) > 240, "green in the middle")
        #expect(at(10) == 0, "black above the 2:1 poster")
    }
}

/// Writes an overlay on a mid-grey picture as a PNG (to look at).
enum PNGWriter {
    static func write(_ image: OverlayImage, to path: String) throws {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.canvas.width), Int32(image.canvas.height))
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 0.35, 0.45, 0.3)
        cairo_paint(cr)
        for layer in [image.backdrop, image.layer].compactMap({ $0 }) {
            var pixels = layer.pixels
            pixels.withUnsafeMutableBufferPointer { bytes in
                let source = cairo_image_surface_create_for_data(
                    bytes.baseAddress, CAIRO_FORMAT_ARGB32, Int32(layer.width), Int32(layer.height), Int32(layer.bytesPerRow))
                cairo_set_source_surface(cr, source, Double(layer.x), Double(layer.y))
                cairo_paint(cr)
                cairo_surface_destroy(source)
            }
        }
        cairo_surface_write_to_png(surface, path)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }
}
