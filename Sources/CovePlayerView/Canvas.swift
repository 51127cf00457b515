import CPangoCairo
import CoveCore

/// A rectangle in pixels of the picture the controls are drawn on.
public struct ViewRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    public func contains(x px: Double, y py: Double) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    public func insetBy(_ dx: Double, _ dy: Double) -> ViewRect { ViewRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy) }

    public var description: String { "(\(Int(x)),\(Int(y)) \(Int(width))×\(Int(height)))" }
}

/// An RGB colour with alpha, 0…1 each.
struct Colour: Sendable, Hashable {
    let red: Double
    let green: Double
    let blue: Double
    let alpha: Double

    init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    func with(alpha: Double) -> Colour { Colour(red, green, blue, alpha) }

    static let white = Colour(1, 1, 1)
    static let dimmed = Colour(1, 1, 1, 0.45)
    /// The played part of the progress bar (the seed's accent).
    static let accent = Colour(0.0, 0.63, 1.0)
    static let buffered = Colour(1, 1, 1, 0.45)
    static let track = Colour(1, 1, 1, 0.22)
    /// Ads: the bar's fill and the break marks.
    static let advert = Colour(1.0, 0.80, 0.0)
    /// The seed draws the bumper's bar purple.
    static let bumper = Colour(0.61, 0.35, 0.71)
    static let live = Colour(0.93, 0.13, 0.13)
    static let focus = Colour(0.35, 0.85, 1.0)
    static let panel = Colour(0.08, 0.08, 0.1, 0.88)
}

/// One drawing pass: a cairo image surface (premultiplied ARGB32, what `OverlayImage` carries) and a
/// Pango context for text. Not thread-safe; one painter uses it at a time.
final class Canvas {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let cr: OpaquePointer
    private let pango: OpaquePointer

    /// The picture's row the surface's first row stands for: only the part of the picture that can hold
    /// something is allocated (drawing uses picture coordinates all the same).
    let top: Int

    /// A canvas for rows `top..<height` of a `width`×`height` picture. `fontMap` is the painter's own
    /// (Pango's default map is per thread).
    init(width: Int, height: Int, top: Int = 0, fontMap: UnsafeMutablePointer<PangoFontMap>) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.top = min(max(0, top), self.height - 1)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height - self.top))
        cr = cairo_create(surface)
        cairo_translate(cr, 0, -Double(self.top))
        pango = pango_font_map_create_context(fontMap)
        pango_cairo_update_context(cr, pango)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pango))
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    // MARK: Shapes

    func fill(_ rect: ViewRect, _ colour: Colour, radius: Double = 0) {
        path(rect, radius: radius)
        set(colour)
        cairo_fill(cr)
    }

    func stroke(_ rect: ViewRect, _ colour: Colour, lineWidth: Double, radius: Double = 0) {
        path(rect, radius: radius)
        set(colour)
        cairo_set_line_width(cr, lineWidth)
        cairo_stroke(cr)
    }

    /// A vertical gradient from `top` to `bottom` over `rect`.
    func gradient(_ rect: ViewRect, top: Colour, bottom: Colour) {
        let pattern = cairo_pattern_create_linear(0, rect.y, 0, rect.maxY)
        cairo_pattern_add_color_stop_rgba(pattern, 0, top.red, top.green, top.blue, top.alpha)
        cairo_pattern_add_color_stop_rgba(pattern, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
        cairo_pattern_destroy(pattern)
    }

    func polygon(_ points: [(Double, Double)], _ colour: Colour) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(cr, point.0, point.1) }
        cairo_close_path(cr)
        set(colour)
        cairo_fill(cr)
    }

    func circle(x: Double, y: Double, radius: Double, _ colour: Colour) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, radius, 0, 2 * Double.pi)
        set(colour)
        cairo_fill(cr)
    }

    func arc(x: Double, y: Double, radius: Double, from start: Double, to end: Double, _ colour: Colour, lineWidth: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, radius, start, end)
        set(colour)
        cairo_set_line_width(cr, lineWidth)
        cairo_stroke(cr)
    }

    func line(from a: (Double, Double), to b: (Double, Double), _ colour: Colour, lineWidth: Double) {
        cairo_move_to(cr, a.0, a.1)
        cairo_line_to(cr, b.0, b.1)
        set(colour)
        cairo_set_line_width(cr, lineWidth)
        cairo_stroke(cr)
    }

    private func set(_ colour: Colour) {
        cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha)
    }

    private func path(_ rect: ViewRect, radius: Double) {
        let r = min(radius, rect.width / 2, rect.height / 2)
        guard r > 0 else {
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            return
        }
        cairo_new_sub_path(cr)
        cairo_arc(cr, rect.maxX - r, rect.y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(cr, rect.x + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, rect.x + r, rect.y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    // MARK: Text

    enum Alignment { case leading, centre, trailing }

    /// The size `text` takes in a `size`-pixel sans font.
    func measure(_ text: String, size: Double, bold: Bool = false) -> (width: Double, height: Double) {
        let layout = makeLayout(text, size: size, bold: bold, wrapWidth: nil)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return (Double(width), Double(height))
    }

    /// Draws `text` in `rect`, vertically centred, aligned as asked and cut with "…" when it is too long.
    /// Right-to-left scripts are laid out by Pango; `alignment` is on screen.
    func text(_ text: String, in rect: ViewRect, size: Double, colour: Colour, alignment: Alignment = .centre, bold: Bool = false) {
        guard !text.isEmpty, rect.width > 0 else { return }
        let layout = makeLayout(text, size: size, bold: bold, wrapWidth: nil)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_width(layout, Int32(rect.width * Double(PANGO_SCALE)))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(
            layout, alignment == .centre ? PANGO_ALIGN_CENTER : (alignment == .leading ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT))
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_move_to(cr, rect.x, rect.midY - Double(height) / 2)
        set(colour)
        pango_cairo_show_layout(cr, layout)
    }

    /// Wrapped text (captions): lines centred within `maxWidth`; returns the block's size without drawing
    /// when `at` is nil.
    @discardableResult
    func paragraph(_ text: String, size: Double, maxWidth: Double, colour: Colour, at origin: (x: Double, y: Double)?) -> (width: Double, height: Double) {
        let layout = makeLayout(text, size: size, bold: false, wrapWidth: maxWidth)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        if let origin {
            // A centred layout of width `maxWidth` centres its lines inside it: start at its left edge.
            cairo_move_to(cr, origin.x, origin.y)
            set(colour)
            pango_cairo_show_layout(cr, layout)
        }
        return (Double(width), Double(height))
    }

    private func makeLayout(_ text: String, size: Double, bold: Bool, wrapWidth: Double?) -> OpaquePointer {
        let layout = pango_layout_new(pango)!
        let font = pango_font_description_new()
        pango_font_description_set_family(font, "Sans")
        pango_font_description_set_absolute_size(font, max(1, size) * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let wrapWidth {
            pango_layout_set_width(layout, Int32(max(1, wrapWidth) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    // MARK: Images

    /// Draws `image` (straight RGBA) scaled into `rect`.
    func image(_ image: RGBAImage, in rect: ViewRect, alpha: Double = 1) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(image.width)))
        var premultiplied = [UInt8](repeating: 0, count: stride * image.height)
        for row in 0..<image.height {
            for column in 0..<image.width {
                let source = (row * image.width + column) * 4
                let target = row * stride + column * 4
                let a = UInt16(image.pixels[source + 3])
                premultiplied[target] = UInt8(UInt16(image.pixels[source + 2]) * a / 255)
                premultiplied[target + 1] = UInt8(UInt16(image.pixels[source + 1]) * a / 255)
                premultiplied[target + 2] = UInt8(UInt16(image.pixels[source]) * a / 255)
                premultiplied[target + 3] = UInt8(a)
            }
        }
        premultiplied.withUnsafeMutableBufferPointer { bytes in
            let source = cairo_image_surface_create_for_data(bytes.baseAddress, CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(stride))
            cairo_save(cr)
            // Clipped to the rectangle and padded at its edges: scaled up, an image keeps sharp edges
            // instead of fading into what is around it.
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            cairo_clip(cr)
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint_with_alpha(cr, alpha)
            cairo_restore(cr)
            cairo_surface_destroy(source)
        }
    }

    // MARK: Output

    /// The rows `top..<bottom` of what was drawn, as an overlay layer (premultiplied BGRA).
    func layer(rows: Range<Int>) throws(PlaybackError) -> OverlayImage.Layer? {
        let first = max(self.top, rows.lowerBound)
        let bottom = min(height, rows.upperBound)
        guard bottom > first else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let bytes = [UInt8](UnsafeBufferPointer(start: data + (first - self.top) * stride, count: stride * (bottom - first)))
        return try OverlayImage.Layer(x: 0, y: first, width: width, height: bottom - first, bytesPerRow: stride, pixels: bytes)
    }
}
