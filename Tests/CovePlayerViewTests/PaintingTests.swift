import CPangoCairo
import CoveCore
import CovePlayerControls
import CovePlayerUI
import Foundation
import Testing

@testable import CovePlayerView

@Suite("Painting the controls")
struct PaintingTests {
    @Test func aVODBarIsPaintedAtTheBottom() throws {
        var controls = PlayerControlsState()
        controls.bar = ControlBarState(isPlaying: true, position: .seconds(30), duration: .seconds(120), captionsOn: true)
        let scene = ViewScene(size: OverlayImage.Size(width: 1280, height: 720), controls: controls, layout: .vod, bufferedFraction: 0.5)
        let painted = try ScenePainter().paint(scene)
        try PNGWriter.write(painted.image, to: "/tmp/cove-vod.png")
        #expect(painted.regions.region(of: .playback) != nil)
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
