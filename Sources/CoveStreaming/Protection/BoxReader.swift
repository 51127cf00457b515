import Foundation

/// Why the Common Encryption boxes of an init segment or fragment could not be read. Each names the box
/// and what was wrong; none carries media or key bytes.
public struct CENCParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let box: String
    public let detail: String

    public init(_ box: String, _ detail: String) {
        self.box = box
        self.detail = detail
    }

    public var description: String { "the '\(box)' box \(detail)" }
}

/// ISO BMFF boxes as ranges of one byte buffer: no copies, every size checked against its parent, a bound
/// on how many boxes a level may hold and how deep the walk goes. Shared by the Common Encryption
/// reader, the fragment decryptor and the test kit's encryptor.
public enum BoxReader {
    /// A box: its type, where it starts and where its payload (after the header) lies.
    public struct Box: Sendable, Hashable {
        public let type: String
        public let start: Int
        public let payload: Range<Int>
        public var end: Int { payload.upperBound }
        public var headerSize: Int { payload.lowerBound - start }
    }

    /// At most this many boxes in one container (a fragment's `traf` holds a handful).
    public static let maxBoxesPerLevel = 4_096

    /// The boxes directly inside `range`. A size past the parent's end, or a size below the header, is an error.
    public static func boxes(_ bytes: UnsafeRawBufferPointer, in range: Range<Int>, parent: String = "file") throws(CENCParseError) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard result.count < maxBoxesPerLevel else { throw CENCParseError(parent, "holds more than \(maxBoxesPerLevel) boxes") }
            guard range.upperBound - offset >= 8 else {
                throw CENCParseError(parent, "ends with \(range.upperBound - offset) stray bytes, too few for a box header")
            }
            var size = UInt64(u32(bytes, offset))
            var header = 8
            let type = fourCC(bytes, offset + 4)
            if size == 1 {
                guard range.upperBound - offset >= 16 else { throw CENCParseError(type, "declares a 64-bit size but its header is cut short") }
                size = u64(bytes, offset + 8)
                header = 16
            } else if size == 0 {
                size = UInt64(range.upperBound - offset)
            }
            guard size >= UInt64(header) else { throw CENCParseError(type, "declares a size of \(size) bytes, smaller than its own header") }
            guard size <= UInt64(range.upperBound - offset) else {
                throw CENCParseError(type, "declares \(size) bytes but only \(range.upperBound - offset) remain inside '\(parent)'")
            }
            let end = offset + Int(size)
            result.append(Box(type: type, start: offset, payload: (offset + header)..<end))
            offset = end
        }
        return result
    }

    /// The first child of `box` of `type`.
    public static func child(_ bytes: UnsafeRawBufferPointer, of box: Box, _ type: String, skip: Int = 0) throws(CENCParseError) -> Box? {
        guard box.payload.count >= skip else { throw CENCParseError(box.type, "is shorter than the \(skip) bytes of fields before its children") }
        return try boxes(bytes, in: (box.payload.lowerBound + skip)..<box.payload.upperBound, parent: box.type).first { $0.type == type }
    }

    /// The box at the end of `path` (`["moov", "trak"]`), each step the first child of that type.
    public static func find(_ bytes: UnsafeRawBufferPointer, path: [String], in range: Range<Int>) throws(CENCParseError) -> Box? {
        var current = range
        var found: Box?
        var parent = "file"
        for type in path {
            guard let next = try boxes(bytes, in: current, parent: parent).first(where: { $0.type == type }) else { return nil }
            found = next
            current = next.payload
            parent = type
        }
        return found
    }

    // MARK: Fields

    /// A cursor over a box's payload that throws instead of reading past it.
    public struct Cursor {
        let bytes: UnsafeRawBufferPointer
        let box: String
        public private(set) var offset: Int
        let end: Int

        public init(_ bytes: UnsafeRawBufferPointer, _ box: Box) {
            self.bytes = bytes
            self.box = box.type
            offset = box.payload.lowerBound
            end = box.payload.upperBound
        }

        public var remaining: Int { end - offset }

        mutating func need(_ count: Int, _ what: String) throws(CENCParseError) {
            guard count >= 0, remaining >= count else { throw CENCParseError(box, "is cut short: \(what) needs \(count) bytes, \(remaining) remain") }
        }

        public mutating func u8(_ what: String) throws(CENCParseError) -> UInt8 {
            try need(1, what)
            defer { offset += 1 }
            return bytes[offset]
        }

        public mutating func u16(_ what: String) throws(CENCParseError) -> UInt16 {
            try need(2, what)
            defer { offset += 2 }
            return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        }

        public mutating func u32(_ what: String) throws(CENCParseError) -> UInt32 {
            try need(4, what)
            defer { offset += 4 }
            return BoxReader.u32(bytes, offset)
        }

        public mutating func u64(_ what: String) throws(CENCParseError) -> UInt64 {
            try need(8, what)
            defer { offset += 8 }
            return BoxReader.u64(bytes, offset)
        }

        public mutating func take(_ count: Int, _ what: String) throws(CENCParseError) -> [UInt8] {
            try need(count, what)
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        public mutating func skip(_ count: Int, _ what: String) throws(CENCParseError) {
            try need(count, what)
            offset += count
        }

        /// A full box's version and flags.
        public mutating func versionAndFlags() throws(CENCParseError) -> (version: UInt8, flags: UInt32) {
            let word = try u32("version and flags")
            return (UInt8(word >> 24), word & 0x00FF_FFFF)
        }
    }

    public static func u32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    public static func u64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(u32(bytes, offset)) << 32 | UInt64(u32(bytes, offset + 4))
    }

    public static func fourCC(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> String {
        let chars = (0..<4).map { bytes[offset + $0] }
        // Printable ASCII only, so a hostile type cannot put control characters into an error message.
        return String(decoding: chars.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// Writes a four-character code over the type of the box starting at `start` (sizes unchanged).
    public static func retype(_ bytes: UnsafeMutableRawBufferPointer, boxAt start: Int, to type: String) {
        for (index, byte) in type.utf8.prefix(4).enumerated() { bytes[start + 4 + index] = byte }
    }

    /// Writes `value` big-endian at `offset`.
    public static func put32(_ bytes: UnsafeMutableRawBufferPointer, _ offset: Int, _ value: UInt32) {
        bytes[offset] = UInt8(value >> 24)
        bytes[offset + 1] = UInt8(value >> 16 & 0xFF)
        bytes[offset + 2] = UInt8(value >> 8 & 0xFF)
        bytes[offset + 3] = UInt8(value & 0xFF)
    }
}

extension Data {
    /// `withUnsafeMutableBytes` that keeps the body's typed error (the standard one rethrows `any Error`).
    mutating func withMutableBytes<Result, Failure: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        var outcome: Swift.Result<Result, Failure>?
        withUnsafeMutableBytes { raw in outcome = Swift.Result { () throws(Failure) -> Result in try body(raw) } }
        return try outcome!.get()
    }
}
