import Foundation

/// Reads the timing of an MPEG-TS segment: its first PCR and the earliest PTS among the first PES
/// packets of its streams.
///
/// GStreamer's tsdemux places a segment's media at `buffer PTS + (frame PTS − first PCR)`, so to put the
/// earliest frame exactly at the segment's presentation time the buffer is stamped `delay` earlier,
/// where `delay = earliest PTS − first PCR` (about 0.7–1.4 s in typical encoder output).
public struct MPEGTSTiming: Sendable, Hashable {
    /// First program clock reference, in 90 kHz ticks (33 bits).
    public let firstPCR: UInt64?
    /// Earliest presentation timestamp of the streams' first PES packets, in 90 kHz ticks.
    public let earliestPTS: UInt64?

    /// Seconds from the first PCR to the earliest PTS (0 when either is missing or the gap is absurd).
    public var pcrToPTSDelay: Double {
        guard let firstPCR, let earliestPTS else { return 0 }
        let modulus: UInt64 = 1 << 33
        let forward = (earliestPTS &+ modulus &- firstPCR) % modulus
        let seconds = Double(forward) / 90_000
        return seconds < 5 ? seconds : 0
    }

    /// Scans up to `maxPackets` packets of `data`.
    public static func read(_ data: Data, maxPackets: Int = 2_000) -> MPEGTSTiming {
        data.withUnsafeBytes { raw -> MPEGTSTiming in
            let bytes = raw.bindMemory(to: UInt8.self)
            var firstPCR: UInt64?
            var firstPTSByPID: [Int: UInt64] = [:]
            var offset = 0
            var packets = 0
            while offset + 188 <= bytes.count, packets < maxPackets {
                defer {
                    offset += 188
                    packets += 1
                }
                guard bytes[offset] == 0x47 else { continue }
                let pid = (Int(bytes[offset + 1] & 0x1F) << 8) | Int(bytes[offset + 2])
                let unitStart = bytes[offset + 1] & 0x40 != 0
                let control = (bytes[offset + 3] >> 4) & 0x3
                var payload = offset + 4
                if control & 0x2 != 0 {
                    let length = Int(bytes[offset + 4])
                    if length >= 7, firstPCR == nil, bytes[offset + 5] & 0x10 != 0 {
                        let p = offset + 6
                        firstPCR =
                            UInt64(bytes[p]) << 25 | UInt64(bytes[p + 1]) << 17 | UInt64(bytes[p + 2]) << 9 | UInt64(bytes[p + 3]) << 1 | UInt64(bytes[p + 4])
                            >> 7
                    }
                    payload = offset + 5 + length
                }
                guard control & 0x1 != 0, unitStart, firstPTSByPID[pid] == nil, payload + 14 <= offset + 188 else { continue }
                let p = payload
                guard bytes[p] == 0, bytes[p + 1] == 0, bytes[p + 2] == 1 else { continue }
                let streamID = bytes[p + 3]
                // Audio, video and private streams carry timestamps; padding and tables do not.
                guard (0xC0...0xEF).contains(streamID) || streamID == 0xBD else { continue }
                guard bytes[p + 7] & 0x80 != 0 else { continue }
                let pts =
                    UInt64(bytes[p + 9] >> 1 & 0x07) << 30 | UInt64(bytes[p + 10]) << 22 | UInt64(bytes[p + 11] >> 1) << 15 | UInt64(bytes[p + 12]) << 7
                    | UInt64(bytes[p + 13] >> 1)
                firstPTSByPID[pid] = pts
            }
            let earliest: UInt64?
            if let pcr = firstPCR {
                // Earliest in the 33-bit ring, measured from the PCR.
                earliest = firstPTSByPID.values.min { ($0 &+ (1 << 33) &- pcr) % (1 << 33) < ($1 &+ (1 << 33) &- pcr) % (1 << 33) }
            } else {
                earliest = firstPTSByPID.values.min()
            }
            return MPEGTSTiming(firstPCR: firstPCR, earliestPTS: earliest)
        }
    }
}
