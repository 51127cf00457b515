/// The byte-level checks every text format Cove parses needs before (or while) it reads the text:
/// HLS playlists, WebVTT, and the XML of VMAP, VAST and DASH MPDs. One implementation of UTF-8's
/// well-formed sequences (Unicode Table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF),
/// the NUL check, the UTF-8 byte-order mark, and the line and byte of an error, so the parsers cannot
/// drift apart on what they accept. Each parser still throws its own typed error: these functions say
/// where the problem is, the parser says what it means for its format.
///
/// Package-internal (`package`): shared by Cove's modules, not part of any product's API.
package enum TextInput {
    /// The UTF-8 byte-order mark's length at the start of `bytes`: 3, or 0 without one.
    package static func byteOrderMarkLength(_ bytes: some Collection<UInt8>) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Whether `bytes` start with a UTF-16 byte-order mark (a hint for an encoding error's message).
    package static func startsWithUTF16ByteOrderMark(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
    }

    /// The length of the well-formed UTF-8 sequence whose lead byte is at `index` (2 to 4), or nil when
    /// the sequence is ill-formed or cut short.
    @inlinable
    package static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { return nil }
        var offset = 2
        while offset < length {
            guard bytes[index + offset] & 0xC0 == 0x80 else { return nil }
            offset += 1
        }
        return length
    }

    /// `sequenceLength` on an array (for parsers that validate as they scan lines).
    package static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int? {
        bytes.withUnsafeBufferPointer { sequenceLength($0, at: index) }
    }

    /// The offset of the first NUL or ill-formed UTF-8 byte at or after `start`, and which it is; nil when
    /// the text is clean. A plain loop on a raw buffer: it sees every byte of every document.
    package static func firstProblem(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> (offset: Int, isNUL: Bool)? {
        var index = start
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == 0 { return (index, true) }
                index += 1
            } else {
                guard let length = sequenceLength(bytes, at: index) else { return (index, false) }
                index += length
            }
        }
        return nil
    }

    /// `firstProblem` on an array or a slice of one (offsets are the collection's own indices).
    package static func firstProblem(_ bytes: [UInt8], from start: Int = 0) -> (offset: Int, isNUL: Bool)? {
        bytes.withUnsafeBufferPointer { firstProblem($0, from: start) }
    }

    package static func firstProblem(_ bytes: ArraySlice<UInt8>) -> (offset: Int, isNUL: Bool)? {
        bytes.withUnsafeBufferPointer { buffer in firstProblem(buffer).map { (bytes.startIndex + $0.offset, $0.isNUL) } }
    }

    /// The 1-based line holding byte `offset`, counting LF, CR and CRLF as one line ending each, from `start`.
    package static func lineNumber(of offset: Int, in bytes: [UInt8], from start: Int = 0) -> Int {
        var line = 1
        var index = start
        while index < offset && index < bytes.count {
            if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
            }
            index += 1
        }
        return line
    }

    /// A byte as two hexadecimal digits (for messages: "the byte 0xC3").
    package static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
