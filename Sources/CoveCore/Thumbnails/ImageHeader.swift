import Foundation

/// What the first bytes of an image say: its format and size. Read in Swift before any decoder sees
/// the bytes, so a body that is not PNG or JPEG, or declares a picture too large to hold in memory,
/// is refused without decoding anything.
public struct ImageHeader: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case png
        case jpeg

        /// The MIME type, which is also the decoder's input caps.
        public var mimeType: String { self == .png ? "image/png" : "image/jpeg" }
    }

    public let format: Format
    public let width: Int
    public let height: Int

    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The header of a PNG (signature + IHDR) or JPEG (SOI, then the first frame header, SOFn), or nil
    /// when `data` is neither or its header is cut short or declares an empty picture.
    public static func read(_ data: Data) -> ImageHeader? {
        let bytes = [UInt8](data.prefix(1 << 16))
        let header = readPNG(bytes) ?? readJPEG(bytes)
        guard let header, header.width > 0, header.height > 0 else { return nil }
        return header
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func readPNG(_ b: [UInt8]) -> ImageHeader? {
        guard b.count >= 24, Array(b[0..<8]) == pngSignature, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return ImageHeader(format: .png, width: bigEndian(b, 16, 4), height: bigEndian(b, 20, 4))
    }

    private static func readJPEG(_ b: [UInt8]) -> ImageHeader? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF else { return nil }
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            i += 2
            switch marker {
            case 0xFF: i -= 1  // fill byte
            case 0x01, 0xD0...0xD8: continue  // markers without a length
            case 0xD9, 0xDA: return nil  // end of image or scan data before any frame header
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard i + 7 <= b.count else { return nil }
                return ImageHeader(format: .jpeg, width: bigEndian(b, i + 5, 2), height: bigEndian(b, i + 3, 2))
            default:
                guard i + 2 <= b.count else { return nil }
                let length = bigEndian(b, i, 2)
                guard length >= 2 else { return nil }
                i += length
            }
        }
        return nil
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
