import CoveCore
import Foundation

/// The controls' glyphs, drawn as paths (the seed ships an icon font; paths need no font file and stay
/// sharp at any scale).
enum ControlIcons {
    static func playback(_ canvas: Canvas, centre: (x: Double, y: Double), size: Double, playing: Bool, colour: Colour) {
        if playing {
            let barWidth = size * 0.3
            let gap = size * 0.22
            canvas.fill(ViewRect(x: centre.x - gap / 2 - barWidth, y: centre.y - size / 2, width: barWidth, height: size), colour, radius: size * 0.05)
            canvas.fill(ViewRect(x: centre.x + gap / 2, y: centre.y - size / 2, width: barWidth, height: size), colour, radius: size * 0.05)
        } else {
            let half = size / 2
            canvas.polygon([(centre.x - half * 0.75, centre.y - half), (centre.x + half, centre.y), (centre.x - half * 0.75, centre.y + half)], colour)
        }
    }

    /// An anticlockwise arrow with the seconds inside.
    static func jumpBack(_ canvas: Canvas, centre: (x: Double, y: Double), size: Double, seconds: Int, colour: Colour, fontSize: Double) {
        let radius = size * 0.55
        canvas.arc(x: centre.x, y: centre.y, radius: radius, from: -Double.pi * 0.35, to: Double.pi * 1.35, colour, lineWidth: size * 0.1)
        // The arrow head at the arc's start (top right), pointing back.
        let angle = -Double.pi * 0.35
        let tipX: Double = centre.x + radius * cos(angle)
        let tipY: Double = centre.y + radius * sin(angle)
        let head: Double = size * 0.22
        let points: [(Double, Double)] = [(tipX - head * 0.2, tipY - head), (tipX + head, tipY - head * 0.1), (tipX - head * 0.3, tipY + head * 0.6)]
        canvas.polygon(points, colour)
        canvas.text(
            "\(seconds)", in: ViewRect(x: centre.x - radius, y: centre.y - radius, width: radius * 2, height: radius * 2), size: fontSize, colour: colour)
    }

    /// "CC" in a rounded box, filled when captions are on.
    static func captions(_ canvas: Canvas, centre: (x: Double, y: Double), size: Double, on: Bool, colour: Colour, fontSize: Double) {
        let box = ViewRect(x: centre.x - size * 0.75, y: centre.y - size * 0.5, width: size * 1.5, height: size)
        if on {
            canvas.fill(box, colour, radius: size * 0.15)
            canvas.text("CC", in: box, size: fontSize, colour: Colour(0, 0, 0), bold: true)
        } else {
            canvas.stroke(box, colour, lineWidth: size * 0.08, radius: size * 0.15)
            canvas.text("CC", in: box, size: fontSize, colour: colour, bold: true)
        }
    }

    /// Four corners pointing out (enter) or in (exit).
    static func fullscreen(_ canvas: Canvas, centre: (x: Double, y: Double), size: Double, exit: Bool, colour: Colour) {
        let half = size / 2
        let arm = size * 0.32
        let width = size * 0.11
        for (dx, dy) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
            let corner = (centre.x + dx * half, centre.y + dy * half)
            // Entering: the corner's arms run inwards from the picture's corner; exiting: from inside out.
            let origin = exit ? (corner.0 - dx * arm, corner.1 - dy * arm) : corner
            let sign = exit ? 1.0 : -1.0
            canvas.line(from: origin, to: (origin.0 + sign * dx * arm, origin.1), colour, lineWidth: width)
            canvas.line(from: origin, to: (origin.0, origin.1 + sign * dy * arm), colour, lineWidth: width)
        }
    }

    /// A speaker with waves by the level, crossed when muted.
    static func speaker(_ canvas: Canvas, centre: (x: Double, y: Double), size: Double, level: AudioVolume, colour: Colour) {
        let left = centre.x - size * 0.55
        canvas.polygon(
            [
                (left, centre.y - size * 0.18), (left + size * 0.25, centre.y - size * 0.18), (left + size * 0.55, centre.y - size * 0.45),
                (left + size * 0.55, centre.y + size * 0.45), (left + size * 0.25, centre.y + size * 0.18), (left, centre.y + size * 0.18),
            ], colour)
        let waveX = left + size * 0.55
        if level.isMuted || level.level <= 0 {
            let x0 = waveX + size * 0.18
            canvas.line(from: (x0, centre.y - size * 0.2), to: (x0 + size * 0.4, centre.y + size * 0.2), colour, lineWidth: size * 0.09)
            canvas.line(from: (x0, centre.y + size * 0.2), to: (x0 + size * 0.4, centre.y - size * 0.2), colour, lineWidth: size * 0.09)
            return
        }
        let waves = level.level > 0.66 ? 3 : (level.level > 0.33 ? 2 : 1)
        for wave in 0..<waves {
            let radius = size * (0.22 + 0.18 * Double(wave))
            canvas.arc(x: waveX, y: centre.y, radius: radius, from: -Double.pi / 4, to: Double.pi / 4, colour, lineWidth: size * 0.08)
        }
    }
}
