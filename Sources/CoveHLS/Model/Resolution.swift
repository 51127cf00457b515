/// A `RESOLUTION=WxH` value, in pixels.
public struct Resolution: Sendable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width.multipliedReportingOverflow(by: height).partialValue }

    public var description: String { "\(width)x\(height)" }
}
