/// The part of an image a thumbnail shows: a tile of a sprite sheet, from the media fragment
/// `#xywh=x,y,w,h` (W3C Media Fragments URI 1.0, spatial dimension).
///
/// It lives in the core (the WebVTT parser that reads it is in `CoveText`) because sessions, events
/// and image codecs speak it too.
public struct ThumbnailRect: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        /// `xywh=160,0,160,90` or `xywh=pixel:160,0,160,90`.
        case pixel
        /// `xywh=percent:25,0,25,50`: percentages of the image's width and height.
        case percent
    }

    public let x: Int
    public let y: Int
    /// Always positive.
    public let width: Int
    /// Always positive.
    public let height: Int
    public let unit: Unit

    public init(x: Int, y: Int, width: Int, height: Int, unit: Unit = .pixel) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.unit = unit
    }

    public var description: String {
        unit == .percent ? "percent:\(x),\(y),\(width),\(height)" : "\(x),\(y),\(width),\(height)"
    }

    /// The pixel rectangle this denotes in an image of `imageWidth`×`imageHeight`.
    ///
    /// Percentages are taken of the image size and rounded down at both edges, so adjacent tiles
    /// never overlap. A rectangle that reaches past the image is clipped to it (as Media Fragments
    /// user agents do); one with nothing inside the image is an error, because it means the track and
    /// its sprite sheet do not belong together.
    public func pixels(inWidth imageWidth: Int, height imageHeight: Int) throws(ThumbnailError) -> ThumbnailRect {
        let left: Int, top: Int, right: Int, bottom: Int
        switch unit {
        case .pixel:
            (left, top, right, bottom) = (x, y, x + width, y + height)
        case .percent:
            (left, top) = (x * imageWidth / 100, y * imageHeight / 100)
            (right, bottom) = ((x + width) * imageWidth / 100, (y + height) * imageHeight / 100)
        }
        let clipped = (max(left, 0), max(top, 0), min(right, imageWidth), min(bottom, imageHeight))
        guard clipped.0 < clipped.2, clipped.1 < clipped.3 else {
            throw ThumbnailError(
                .rectOutsideImage,
                "The thumbnail rectangle #xywh=\(self) lies outside its \(imageWidth)×\(imageHeight) image; the thumbnail track does not match its sprite sheet — regenerate the track or fix its #xywh= fragments"
            )
        }
        return ThumbnailRect(x: clipped.0, y: clipped.1, width: clipped.2 - clipped.0, height: clipped.3 - clipped.1)
    }
}
