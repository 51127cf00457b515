/// A decoded picture: packed 8-bit RGBA rows, top to bottom, no padding. Cropping works on this, in
/// Swift, so the codec only ever decodes and encodes whole images.
public struct RGBAImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public let pixels: [UInt8]

    /// One pixel's channels.
    public struct Pixel: Sendable, Hashable, CustomStringConvertible {
        public let red: UInt8
        public let green: UInt8
        public let blue: UInt8
        public let alpha: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        /// The largest per-channel difference from `other` (for lossy-format tolerances).
        public func distance(to other: Pixel) -> Int {
            max(abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)), abs(Int(blue) - Int(other.blue)), abs(Int(alpha) - Int(other.alpha)))
        }

        public var description: String { "rgba(\(red),\(green),\(blue),\(alpha))" }
    }

    /// Nil when the sizes do not match the byte count (or are not positive).
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        let area = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !area.overflow, area.partialValue <= Int.max / 4, pixels.count == area.partialValue * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (`x`, `y`); nil outside the image.
    public func pixel(x: Int, y: Int) -> Pixel? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let i = (y * width + x) * 4
        return Pixel(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
    }

    /// The part of the image inside `rect` (any unit; resolved and clipped by
    /// `ThumbnailRect.pixels(inWidth:height:)`).
    public func cropped(to rect: ThumbnailRect) throws(ThumbnailError) -> RGBAImage {
        let area = try rect.pixels(inWidth: width, height: height)
        if area.x == 0, area.y == 0, area.width == width, area.height == height { return self }
        var out: [UInt8] = []
        out.reserveCapacity(area.width * area.height * 4)
        for row in area.y..<(area.y + area.height) {
            let start = (row * width + area.x) * 4
            out.append(contentsOf: pixels[start..<(start + area.width * 4)])
        }
        // The sizes match by construction.
        return RGBAImage(width: area.width, height: area.height, pixels: out)!
    }
}
