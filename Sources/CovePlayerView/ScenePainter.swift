import CPangoCairo
import CoveCore
import CovePlayerControls
import CovePlayerUI
import Synchronization

/// A painted scene: the overlay for the engine and where each control ended up.
public struct PaintedScene: Sendable {
    public let image: OverlayImage
    public let regions: [HitRegion]
}

/// Draws a `ViewScene` in pixels with cairo and Pango: the same `ControlLayout` model the terminal bar
/// draws in columns, here in points scaled to the picture.
///
/// Widths: a layout view's width is in cells, the unit the terminal counts in columns; a cell is 10
/// points, so the supplied layouts' widths (a clock label of 8, a button of 3) give the proportions of
/// the seed's bars and an app's custom layout means the same in a window and in a terminal. The compact
/// bars come at or below `compactLayoutMaximumWidth` cells (600 points by default, the seed's switch
/// for phones). A point is a pixel of a 720-line picture and scales with the picture's height.
///
/// Only the part of the picture that holds something is handed over (the bars, their shadow, a menu,
/// a caption): the engine blends that strip into every frame, so the cost follows what is shown.
public final class ScenePainter: Sendable {
    // Pango's default font map is per thread; this painter's own map is used under the lock.
    private let fontMap: Mutex<FontMap>

    private struct FontMap: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<PangoFontMap>
    }

    /// Points per layout cell.
    public static let cellPoints = 10.0
    /// Points per bar row (the seed's `controlBarHeight`).
    public static let barPoints = 44.0

    public init() {
        fontMap = Mutex(FontMap(pointer: pango_cairo_font_map_new()))
    }

    deinit {
        fontMap.withLock { g_object_unref(UnsafeMutableRawPointer($0.pointer)) }
    }

    /// Paints `scene`. Throws only if the picture has no size.
    public func paint(_ scene: ViewScene) throws(PlaybackError) -> PaintedScene {
        guard scene.size.width > 0, scene.size.height > 0 else {
            throw PlaybackError(.invalidArgument, "The player view's picture has no size (\(scene.size)); it is drawn once the window has one")
        }
        return try fontMap.withLock { map throws(PlaybackError) -> PaintedScene in
            let canvas = Canvas(width: scene.size.width, height: scene.size.height, top: Self.reach(of: scene), fontMap: map.pointer)
            var pass = PaintPass(scene: scene, canvas: canvas)
            pass.paint()
            let layer = try canvas.layer(rows: pass.top..<scene.size.height)
            var backdrop: OverlayImage.Layer?
            if let poster = scene.poster {
                backdrop = try Self.backdrop(poster: poster, size: scene.size, fontMap: map.pointer)
            }
            return PaintedScene(image: OverlayImage(canvas: scene.size, layer: layer, backdrop: backdrop), regions: pass.regions)
        }
    }

    /// The highest row the scene can draw on: the bars and their shadow alone reach a known height; a
    /// menu, a preview, a caption or a message may reach anywhere. Nothing at all: the bottom.
    static func reach(of scene: ViewScene) -> Int {
        let height = scene.size.height
        let hasCaption = !(scene.controls.captionText ?? "").isEmpty
        guard scene.controlsShown else { return hasCaption ? 0 : height }
        if scene.menu != nil || scene.preview != nil || scene.message != nil || hasCaption { return 0 }
        let rows = scene.layout.bars(forWidth: Int((Double(scene.size.width) - 24 * scene.scale) / (cellPoints * scene.scale))).count
        let bars = 6 + barPoints * Double(rows) + 28
        return max(0, height - Int((bars * scene.scale).rounded(.up)) - 2)
    }

    /// The poster fitted (aspect kept) on black, the whole picture.
    private static func backdrop(
        poster: RGBAImage, size: OverlayImage.Size, fontMap: UnsafeMutablePointer<PangoFontMap>
    ) throws(PlaybackError)
        -> OverlayImage.Layer?
    {
        let canvas = Canvas(width: size.width, height: size.height, fontMap: fontMap)
        canvas.fill(ViewRect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)), Colour(0, 0, 0))
        let fit = min(Double(size.width) / Double(max(1, poster.width)), Double(size.height) / Double(max(1, poster.height)))
        let width = Double(poster.width) * fit
        let height = Double(poster.height) * fit
        canvas.image(poster, in: ViewRect(x: (Double(size.width) - width) / 2, y: (Double(size.height) - height) / 2, width: width, height: height))
        return try canvas.layer(rows: 0..<size.height)
    }
}

/// One painting of one scene (keeps the top of what was drawn and the regions).
private struct PaintPass {
    let scene: ViewScene
    let canvas: Canvas
    let s: Double
    var regions: [HitRegion] = []
    /// The highest row drawn on so far (the layer starts there).
    var top: Int

    init(scene: ViewScene, canvas: Canvas) {
        self.scene = scene
        self.canvas = canvas
        self.s = scene.scale
        self.top = scene.size.height
    }

    private var width: Double { Double(scene.size.width) }
    private var height: Double { Double(scene.size.height) }
    private var fontSize: Double { 14 * s }
    private var localizer: Localizer { scene.localizer }
    private var rtl: Bool { localizer.isRightToLeft }

    private mutating func cover(_ y: Double) {
        top = min(top, max(0, Int(y.rounded(.down))))
    }

    mutating func paint() {
        var barsTop = height
        if scene.controlsShown {
            barsTop = paintBars()
        }
        var above = barsTop
        if let caption = scene.controls.captionText, !caption.isEmpty {
            above = paintCaption(caption, bottom: scene.controlsShown ? barsTop - 8 * s : height - 24 * s)
        }
        if scene.controlsShown, let message = scene.message {
            paintMessage(message, bottom: min(above, barsTop) - 8 * s)
        }
        if scene.controlsShown, let preview = scene.preview { paintPreview(preview) }
        if scene.controlsShown, let menu = scene.menu { paintMenu(menu, barsTop: barsTop) }
    }

    // MARK: Bars

    /// Draws the bars from the bottom up; returns the top of the topmost.
    private mutating func paintBars() -> Double {
        let margin = 12 * s
        let cell = ScenePainter.cellPoints * s
        let barHeight = ScenePainter.barPoints * s
        let columns = Int(((width - 2 * margin) / cell).rounded(.down))
        let bars = scene.layout.fit(width: columns, direction: localizer.layoutDirection)
        guard !bars.isEmpty else { return height }
        let barsTop = height - 6 * s - barHeight * Double(bars.count)
        // The seed's shadow: the picture darkens towards the bottom so white controls read on any frame.
        let shadowTop = barsTop - 28 * s
        canvas.gradient(ViewRect(x: 0, y: shadowTop, width: width, height: height - shadowTop), top: Colour(0, 0, 0, 0), bottom: Colour(0, 0, 0, 0.78))
        cover(shadowTop)
        let availability = ControlAvailability(phase: scene.controls.bar.phase)
        for (barIndex, bar) in bars.enumerated() {
            let y = barsTop + barHeight * Double(barIndex)
            for frame in bar.frames {
                let rect = ViewRect(x: margin + Double(frame.x) * cell, y: y, width: Double(frame.width) * cell, height: barHeight)
                let enabled = isEnabled(frame.view.tag, availability)
                let target: HitTarget =
                    frame.view.tag == .progress ? .progress(bar: barIndex, index: frame.index) : .control(frame.view.tag, bar: barIndex, index: frame.index)
                if frame.view.tag != .empty { regions.append(HitRegion(target: target, rect: rect, isEnabled: enabled)) }
                if scene.hover == target, enabled, frame.view.tag.isButton {
                    canvas.fill(rect.insetBy(2 * s, 6 * s), Colour(1, 1, 1, 0.14), radius: 4 * s)
                }
                paintControl(frame.view.tag, in: rect, enabled: enabled, target: target)
                if scene.focus == target {
                    canvas.stroke(rect.insetBy(1.5 * s, 4 * s), Colour.focus, lineWidth: 2.5 * s, radius: 5 * s)
                }
            }
        }
        return barsTop
    }

    private func isEnabled(_ tag: ControlTag, _ availability: ControlAvailability) -> Bool {
        switch tag {
        case .progress, .jumpBack: return availability.isEnabled(tag) && scene.controls.canSeek
        case .live: return availability.isEnabled(tag) && (scene.controls.canSeek || scene.controls.bar.isAtLiveEdge)
        case .skip, .skipAdCountdown: return (scene.controls.bar.skipIn ?? .seconds(1)) <= .zero
        default: return availability.isEnabled(tag)
        }
    }

    private mutating func paintControl(_ tag: ControlTag, in rect: ViewRect, enabled: Bool, target: HitTarget) {
        let bar = scene.controls.bar
        let ink = enabled ? Colour.white : Colour.dimmed
        let icon = min(rect.height * 0.42, 20 * s)
        switch tag {
        case .playback:
            ControlIcons.playback(canvas, centre: (rect.midX, rect.midY), size: icon, playing: bar.isPlaying, colour: ink)
        case .jumpBack:
            ControlIcons.jumpBack(canvas, centre: (rect.midX, rect.midY), size: icon, seconds: scene.jumpBackSeconds, colour: ink, fontSize: 9 * s)
        case .volume:
            ControlIcons.speaker(canvas, centre: (rect.midX, rect.midY), size: icon, level: scene.controls.volume, colour: ink)
        case .currentTime:
            canvas.text(TimeText.clock(bar.position), in: rect, size: fontSize, colour: ink, alignment: rtl ? .leading : .trailing)
        case .timeSeparator:
            canvas.text("/", in: rect, size: fontSize, colour: Colour.dimmed)
        case .duration:
            canvas.text(bar.duration.map { TimeText.clock($0) } ?? "--:--", in: rect, size: fontSize, colour: ink, alignment: rtl ? .trailing : .leading)
        case .progress:
            paintProgress(in: rect, enabled: enabled, hovered: scene.hover == target)
        case .closedCaption:
            ControlIcons.captions(canvas, centre: (rect.midX, rect.midY), size: icon, on: bar.captionsOn, colour: ink, fontSize: 10 * s)
        case .preferredBitrate:
            canvas.stroke(rect.insetBy(4 * s, 12 * s), ink.with(alpha: 0.6), lineWidth: 1 * s, radius: 3 * s)
            canvas.text(bar.bitrateLabel, in: rect.insetBy(6 * s, 0), size: 12 * s, colour: ink)
        case .screenMode:
            ControlIcons.fullscreen(canvas, centre: (rect.midX, rect.midY), size: icon * 0.9, exit: scene.isFullscreen, colour: ink)
        case .live:
            if bar.isAtLiveEdge {
                let label = localizer.string(.live).uppercased(with: nil)
                let measured = canvas.measure(label, size: 12 * s, bold: true)
                let dot = 4 * s
                let total = dot * 2 + 6 * s + measured.width
                let start = rect.midX - total / 2
                canvas.circle(x: start + dot, y: rect.midY, radius: dot, Colour.live)
                canvas.text(
                    label, in: ViewRect(x: start + dot * 2 + 6 * s, y: rect.y, width: measured.width + 2, height: rect.height), size: 12 * s, colour: .white,
                    alignment: .leading, bold: true)
            } else {
                canvas.stroke(rect.insetBy(3 * s, 11 * s), ink, lineWidth: 1.2 * s, radius: 4 * s)
                canvas.text(localizer.string(.goToLive), in: rect.insetBy(5 * s, 0), size: 12 * s, colour: ink)
            }
        case .adPodCountdown:
            guard case .ad(let ad) = bar.phase else { break }
            canvas.text(localizer.adCountdown(ad), in: rect, size: 13 * s, colour: Colour.advert, alignment: rtl ? .trailing : .leading, bold: true)
        case .learnMore:
            canvas.fill(rect.insetBy(3 * s, 9 * s), Colour(1, 1, 1, 0.16), radius: 4 * s)
            canvas.text(localizer.string(.learnMore), in: rect.insetBy(6 * s, 0), size: 13 * s, colour: .white)
        case .skip, .skipAdCountdown:
            guard let skipIn = bar.skipIn else { break }
            if skipIn <= .zero {
                canvas.fill(rect.insetBy(3 * s, 8 * s), Colour(1, 1, 1, 0.92), radius: 4 * s)
                canvas.text(localizer.string(.skipAd) + " ▶", in: rect.insetBy(6 * s, 0), size: 13 * s, colour: Colour(0, 0, 0), bold: true)
            } else {
                canvas.fill(rect.insetBy(3 * s, 8 * s), Colour(0, 0, 0, 0.55), radius: 4 * s)
                canvas.text(
                    localizer.string(.skipAdIn, [.time: TimeText.clock(skipIn, rounding: .up)]), in: rect.insetBy(6 * s, 0), size: 12 * s, colour: Colour.dimmed
                )
            }
        case .custom(let name):
            if let image = scene.customImages[name] {
                let fit = min(rect.width / Double(max(1, image.width)), (rect.height - 8 * s) / Double(max(1, image.height)))
                let w = Double(image.width) * fit
                let h = Double(image.height) * fit
                canvas.image(image, in: ViewRect(x: rect.midX - w / 2, y: rect.midY - h / 2, width: w, height: h))
            }
        case .empty, .externalRoute, .video360, .pictureInPicture:
            break
        }
    }

    /// The track, what is buffered, what was played, the ad breaks and the playhead. Right to left, the
    /// bar fills from the right.
    private func paintProgress(in rect: ViewRect, enabled: Bool, hovered: Bool) {
        let bar = scene.controls.bar
        let track = ViewRect(x: rect.x + 4 * s, y: rect.midY - (hovered ? 3 : 2) * s, width: rect.width - 8 * s, height: (hovered ? 6 : 4) * s)
        canvas.fill(track, Colour.track, radius: 2 * s)
        func span(_ fraction: Double) -> ViewRect {
            let length = track.width * min(1, max(0, fraction))
            return ViewRect(x: rtl ? track.maxX - length : track.x, y: track.y, width: length, height: track.height)
        }
        func x(at fraction: Double) -> Double { rtl ? track.maxX - track.width * fraction : track.x + track.width * fraction }
        let fraction: Double
        if bar.phase.isAd, let played = scene.controls.adProgress {
            fraction = played
        } else {
            guard let duration = bar.duration, duration > .zero else { return }
            fraction = min(1, max(0, bar.position / duration))
        }
        let fill: Colour
        switch bar.phase {
        case .ad: fill = Colour.advert
        case .bumper: fill = Colour.bumper
        case .content: fill = enabled ? Colour.accent : Colour.accent.with(alpha: 0.5)
        }
        if bar.phase == .content, let buffered = scene.bufferedFraction { canvas.fill(span(max(fraction, buffered)), Colour.buffered, radius: 2 * s) }
        canvas.fill(span(fraction), fill, radius: 2 * s)
        if bar.phase == .content {
            for mark in scene.controls.adBreakFractions {
                let markX = x(at: mark)
                canvas.fill(ViewRect(x: markX - 1.5 * s, y: track.y - 1 * s, width: 3 * s, height: track.height + 2 * s), Colour.advert)
            }
            canvas.circle(x: x(at: fraction), y: track.midY, radius: (hovered ? 7 : 6) * s, fill)
        }
    }

    // MARK: Above the bars

    /// The caption cues, wrapped and centred on a dark box; returns the box's top.
    private mutating func paintCaption(_ text: String, bottom: Double) -> Double {
        let size = 22 * s
        let maxWidth = width * 0.8
        let block = canvas.paragraph(text.replacingOccurrences(of: " / ", with: "\n"), size: size, maxWidth: maxWidth, colour: .white, at: nil)
        let padding = 8 * s
        let box = ViewRect(
            x: (width - block.width) / 2 - padding, y: bottom - block.height - 2 * padding, width: block.width + 2 * padding, height: block.height + 2 * padding
        )
        canvas.fill(box, Colour(0, 0, 0, 0.6), radius: 4 * s)
        canvas.paragraph(
            text.replacingOccurrences(of: " / ", with: "\n"), size: size, maxWidth: maxWidth, colour: .white, at: ((width - maxWidth) / 2, box.y + padding))
        cover(box.y)
        return box.y
    }

    private mutating func paintMessage(_ message: String, bottom: Double) {
        let measured = canvas.measure(message, size: 14 * s)
        let box = ViewRect(
            x: rtl ? width - 16 * s - measured.width - 20 * s : 16 * s, y: bottom - measured.height - 12 * s, width: measured.width + 20 * s,
            height: measured.height + 12 * s)
        canvas.fill(box, Colour.panel, radius: 5 * s)
        canvas.text(message, in: box, size: 14 * s, colour: .white)
        cover(box.y)
    }

    /// The thumbnail and the time where a scrub would land, above the progress bar.
    private mutating func paintPreview(_ preview: ViewScene.Preview) {
        guard let progress = regions.first(where: { if case .progress = $0.target { return true } else { return false } }) else { return }
        let track = progress.rect.insetBy(4 * s, 0)
        let fraction = min(1, max(0, preview.fraction))
        let x = rtl ? track.maxX - track.width * fraction : track.x + track.width * fraction
        let label = TimeText.clock(preview.time)
        var boxWidth = 64 * s
        var boxHeight = 26 * s
        var thumbHeight = 0.0
        if let thumbnail = preview.thumbnail, thumbnail.width > 0 {
            boxWidth = 160 * s
            thumbHeight = boxWidth * Double(thumbnail.height) / Double(thumbnail.width)
            boxHeight += thumbHeight
        }
        let box = ViewRect(
            x: min(max(4 * s, x - boxWidth / 2), width - boxWidth - 4 * s), y: progress.rect.y - boxHeight - 4 * s, width: boxWidth, height: boxHeight)
        canvas.fill(box.insetBy(-2 * s, -2 * s), Colour.panel, radius: 4 * s)
        if let thumbnail = preview.thumbnail {
            canvas.image(thumbnail, in: ViewRect(x: box.x, y: box.y, width: box.width, height: thumbHeight))
        }
        canvas.text(label, in: ViewRect(x: box.x, y: box.y + thumbHeight, width: box.width, height: 26 * s), size: 13 * s, colour: .white, bold: true)
        cover(box.y - 2 * s)
    }

    /// The open menu: a panel above the bars by the control that opened it, a title, one row per item
    /// with the current one ticked and the cursor's row highlighted.
    private mutating func paintMenu(_ menu: ControlMenu, barsTop: Double) {
        let rowHeight = 30 * s
        let padding = 10 * s
        let itemSize = 14 * s
        var longest = canvas.measure(menu.title, size: itemSize, bold: true).width
        for item in menu.items { longest = max(longest, canvas.measure("✓ " + item.title, size: itemSize).width) }
        let panelWidth = min(width - 16 * s, longest + 2 * padding + 24 * s)
        let panelHeight = rowHeight * Double(menu.items.count + 1) + padding
        let opener: ControlTag = menu.kind == .captions ? .closedCaption : .preferredBitrate
        let anchor = regions.region(of: opener)?.rect.midX ?? (rtl ? 16 * s : width - 16 * s)
        let x = min(max(8 * s, anchor - panelWidth / 2), width - panelWidth - 8 * s)
        let panel = ViewRect(x: x, y: max(4 * s, barsTop - panelHeight - 6 * s), width: panelWidth, height: panelHeight)
        canvas.fill(panel, Colour.panel, radius: 6 * s)
        regions.append(HitRegion(target: .menuPanel, rect: panel))
        canvas.text(
            menu.title, in: ViewRect(x: panel.x + padding, y: panel.y + padding / 2, width: panel.width - 2 * padding, height: rowHeight), size: itemSize,
            colour: .dimmed, alignment: rtl ? .trailing : .leading, bold: true)
        for (index, item) in menu.items.enumerated() {
            let row = ViewRect(x: panel.x + 4 * s, y: panel.y + padding / 2 + rowHeight * Double(index + 1), width: panel.width - 8 * s, height: rowHeight)
            let target = HitTarget.menuItem(index)
            if index == menu.selected || scene.hover == target {
                canvas.fill(row, index == menu.selected ? Colour.focus.with(alpha: 0.35) : Colour(1, 1, 1, 0.12), radius: 4 * s)
            }
            if scene.focus == target { canvas.stroke(row, Colour.focus, lineWidth: 2 * s, radius: 4 * s) }
            let text = (item.isCurrent ? "✓ " : "    ") + item.title
            canvas.text(text, in: row.insetBy(padding - 4 * s, 0), size: itemSize, colour: .white, alignment: rtl ? .trailing : .leading)
            regions.append(HitRegion(target: target, rect: row))
        }
        cover(panel.y)
    }
}
