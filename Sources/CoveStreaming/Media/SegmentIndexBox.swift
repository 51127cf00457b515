import Foundation

/// Reads an ISO BMFF `sidx` box (ISO/IEC 14496-12 §8.16.3): the byte ranges and durations of the
/// subsegments of a file a DASH `SegmentBase` points at. Pure and bounded: the box is read from the
/// bytes of its `indexRange`, and every size is checked against them.
public enum SegmentIndexBox {
    public struct Reference: Sendable, Hashable {
        /// Where the subsegment is in the file.
        public let range: ByteSpan
        /// Media time of its start, in `timescale` units.
        public let time: UInt64
        public let duration: UInt64
    }

    public struct Index: Sendable, Hashable {
        public let timescale: UInt32
        public let references: [Reference]
    }

    /// `bytes` are the file's bytes from `offset` (the start of `indexRange`); the first box there must be
    /// the `sidx`. Subsegment ranges are placed from the end of that box plus its `first_offset`.
    public static func parse(_ bytes: Data, offset: Int, maxReferences: Int = 100_000) throws(StreamingError) -> Index {
        let b = [UInt8](bytes.prefix(16 << 20))
        func fail(_ why: String) -> StreamingError {
            StreamingError(
                .invalidManifest,
                "The segment index (sidx) of a DASH representation is unreadable: \(why); the stream's SegmentBase@indexRange must point at a sidx box")
        }
        var reader = ByteReader(bytes: b)
        guard let size32 = reader.u32(), let type = reader.u32() else { throw fail("it is shorter than a box header") }
        var boxSize = Int(size32)
        if size32 == 1 {
            guard let large = reader.u64(), large < UInt64(Int.max) else { throw fail("its 64-bit size is unreadable") }
            boxSize = Int(large)
        }
        guard type == 0x7369_6478 else { throw fail("the index range holds another box") }
        guard boxSize >= 32, boxSize <= b.count else { throw fail("the box is \(boxSize) bytes but the index range holds \(b.count)") }
        guard let versionAndFlags = reader.u32(), reader.u32() != nil, let timescale = reader.u32(), timescale > 0 else {
            throw fail("its header is cut short or its timescale is 0")
        }
        let version = versionAndFlags >> 24
        let earliest: UInt64
        let firstOffset: UInt64
        if version == 0 {
            guard let e = reader.u32(), let f = reader.u32() else { throw fail("it is cut short") }
            (earliest, firstOffset) = (UInt64(e), UInt64(f))
        } else {
            guard let e = reader.u64(), let f = reader.u64() else { throw fail("it is cut short") }
            (earliest, firstOffset) = (e, f)
        }
        guard reader.u16() != nil, let count = reader.u16() else { throw fail("it is cut short") }
        guard Int(count) <= maxReferences else { throw fail("it lists \(count) subsegments") }
        guard reader.remaining >= Int(count) * 12, reader.position + Int(count) * 12 <= boxSize else { throw fail("it lists more subsegments than it holds") }
        var references: [Reference] = []
        references.reserveCapacity(Int(count))
        guard firstOffset < UInt64(Int.max / 2) else { throw fail("its first offset is out of range") }
        var position = offset + boxSize + Int(firstOffset)
        var time = earliest
        for _ in 0..<count {
            let sizeWord = reader.u32()!, duration = reader.u32()!
            _ = reader.u32()
            guard sizeWord & 0x8000_0000 == 0 else { throw fail("it points at another index (hierarchical sidx), which Cove does not follow") }
            let size = Int(sizeWord & 0x7FFF_FFFF)
            guard size > 0 else { throw fail("a subsegment has no bytes") }
            references.append(Reference(range: ByteSpan(offset: position, length: size), time: time, duration: UInt64(duration)))
            position += size
            time &+= UInt64(duration)
        }
        guard !references.isEmpty else { throw fail("it lists no subsegments") }
        return Index(timescale: timescale, references: references)
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0
        var remaining: Int { bytes.count - position }

        mutating func u16() -> UInt16? {
            guard remaining >= 2 else { return nil }
            defer { position += 2 }
            return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
        }

        mutating func u32() -> UInt32? {
            guard remaining >= 4 else { return nil }
            defer { position += 4 }
            return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func u64() -> UInt64? {
            guard remaining >= 8 else { return nil }
            defer { position += 8 }
            return bytes[position..<position + 8].reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
