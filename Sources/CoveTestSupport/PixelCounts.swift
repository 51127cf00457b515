import CoveCore

/// Pixel counts for screenshot checks (what a person would see: a colour drawn somewhere, a white glyph).
extension RGBAImage {
    /// How many pixels of the `width`×`height` area at (`x`, `y`) are within `tolerance` of `colour` in
    /// every channel.
    public func count(x: Int, y: Int, width: Int, height: Int, near colour: (Int, Int, Int), tolerance: Int = 24) -> Int {
        countPixels(x: x, y: y, width: width, height: height) { p in
            abs(Int(p.red) - colour.0) <= tolerance && abs(Int(p.green) - colour.1) <= tolerance && abs(Int(p.blue) - colour.2) <= tolerance
        }
    }

    /// Pixels of the area brighter than `level` in all three channels (a control's white).
    public func whiteCount(x: Int, y: Int, width: Int, height: Int, level: Int = 215) -> Int {
        countPixels(x: x, y: y, width: width, height: height) { p in Int(p.red) >= level && Int(p.green) >= level && Int(p.blue) >= level }
    }

    private func countPixels(x: Int, y: Int, width: Int, height: Int, _ matches: (Pixel) -> Bool) -> Int {
        var found = 0
        for row in max(0, y)..<min(self.height, y + height) {
            for column in max(0, x)..<min(self.width, x + width) {
                if let p = pixel(x: column, y: row), matches(p) { found += 1 }
            }
        }
        return found
    }
}
