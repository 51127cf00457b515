import Foundation

/// Moves fMP4 fragments onto the presentation timeline by rewriting their `tfdt` decode times.
///
/// GStreamer's qtdemux times fragments by their `tfdt`, not by the buffer's timestamp, so a live stream
/// whose decode times run from some epoch (or a variant whose clock differs) would land far from where
/// the playlist places it. Each fragment's earliest track start is moved to `target` seconds; tracks keep
/// their offsets to each other (audio priming, video composition delay).
public enum ISOBMFFTiming {
    /// Track timescales by track ID, read from an init segment's `moov/trak/{tkhd, mdia/mdhd}`.
    public static func timescales(initSegment data: Data) -> [UInt32: UInt32] {
        let bytes = [UInt8](data)
        var result: [UInt32: UInt32] = [:]
        for moov in boxes(bytes, in: 0..<bytes.count) where moov.type == "moov" {
            for trak in boxes(bytes, in: moov.payload) where trak.type == "trak" {
                var trackID: UInt32?
                var timescale: UInt32?
                for child in boxes(bytes, in: trak.payload) {
                    if child.type == "tkhd", child.payload.count >= 24 {
                        let version = bytes[child.payload.lowerBound]
                        trackID = readUInt32(bytes, child.payload.lowerBound + (version == 1 ? 20 : 12))
                    } else if child.type == "mdia" {
                        for mdhd in boxes(bytes, in: child.payload) where mdhd.type == "mdhd" && mdhd.payload.count >= 24 {
                            let version = bytes[mdhd.payload.lowerBound]
                            timescale = readUInt32(bytes, mdhd.payload.lowerBound + (version == 1 ? 20 : 12))
                        }
                    }
                }
                if let trackID, let timescale, timescale > 0 { result[trackID] = timescale }
            }
        }
        return result
    }

    /// The fragment with its earliest `tfdt` moved to `target` seconds; nil when it has no `tfdt` of a
    /// known track (or a 32-bit one would overflow), in which case it is pushed unchanged.
    public static func retimed(fragment data: Data, timescales: [UInt32: UInt32], target: Double) -> Data? {
        var bytes = [UInt8](data)
        var decodeTimes: [(offset: Int, version: UInt8, value: UInt64, timescale: UInt32)] = []
        for moof in boxes(bytes, in: 0..<bytes.count) where moof.type == "moof" {
            for traf in boxes(bytes, in: moof.payload) where traf.type == "traf" {
                var trackID: UInt32?
                var tfdt: (offset: Int, version: UInt8, value: UInt64)?
                for child in boxes(bytes, in: traf.payload) {
                    if child.type == "tfhd", child.payload.count >= 8 {
                        trackID = readUInt32(bytes, child.payload.lowerBound + 4)
                    } else if child.type == "tfdt", child.payload.count >= 8 {
                        let version = bytes[child.payload.lowerBound]
                        let at = child.payload.lowerBound + 4
                        if version == 1, child.payload.count >= 12 {
                            tfdt = (at, 1, UInt64(readUInt32(bytes, at)) << 32 | UInt64(readUInt32(bytes, at + 4)))
                        } else {
                            tfdt = (at, 0, UInt64(readUInt32(bytes, at)))
                        }
                    }
                }
                if let trackID, let tfdt, let timescale = timescales[trackID] ?? (timescales.count == 1 ? timescales.values.first : nil) {
                    decodeTimes.append((tfdt.offset, tfdt.version, tfdt.value, timescale))
                }
            }
        }
        guard let earliest = decodeTimes.map({ Double($0.value) / Double($0.timescale) }).min() else { return nil }
        let shift = target - earliest
        for entry in decodeTimes {
            let moved = Double(entry.value) + shift * Double(entry.timescale)
            guard moved >= 0, moved < 9.2e18 else { return nil }
            let value = UInt64(moved.rounded())
            if entry.version == 1 {
                writeUInt32(&bytes, entry.offset, UInt32(truncatingIfNeeded: value >> 32))
                writeUInt32(&bytes, entry.offset + 4, UInt32(truncatingIfNeeded: value))
            } else {
                guard value <= UInt64(UInt32.max) else { return nil }
                writeUInt32(&bytes, entry.offset, UInt32(value))
            }
        }
        return Data(bytes)
    }

    struct Box {
        let type: String
        let payload: Range<Int>
    }

    /// The boxes directly inside `range` (a malformed size ends the walk).
    static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, result.count < 10_000 {
            var size = Int(readUInt32(bytes, offset))
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { break }
                let large = UInt64(readUInt32(bytes, offset + 8)) << 32 | UInt64(readUInt32(bytes, offset + 12))
                guard large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append(Box(type: type, payload: (offset + header)..<(offset + size)))
            offset += size
        }
        return result
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func writeUInt32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        guard offset >= 0, offset + 4 <= bytes.count else { return }
        bytes[offset] = UInt8(value >> 24)
        bytes[offset + 1] = UInt8(value >> 16 & 0xFF)
        bytes[offset + 2] = UInt8(value >> 8 & 0xFF)
        bytes[offset + 3] = UInt8(value & 0xFF)
    }
}
