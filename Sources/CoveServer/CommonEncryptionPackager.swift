import CoveCore
import CoveStreaming
import Foundation

/// Encrypts clear fMP4 (an init segment and its fragments, as ffmpeg's DASH and HLS muxers write them)
/// with Common Encryption, as a packager (Shaka packager, Bento4) would: the sample entry becomes
/// `encv`/`enca` with a `sinf` (`frma`, `schm`, `schi/tenc`), the init gets a ClearKey `pssh`, and each
/// fragment gets `senc`, `saiz` and `saio` with the samples encrypted in place.
///
/// - `cenc`: AES-CTR, 8-byte per-sample IVs; H.264 in subsamples (length prefix and NAL header clear,
///   the rest encrypted in whole blocks), AAC whole samples.
/// - `cbcs`: AES-CBC with a 16-byte constant IV; H.264 subsamples with the 1:9 pattern after a clear
///   slice-header area, AAC whole blocks of whole samples.
///
/// Key rotation: `rotation` gives fragments from a sequence number on another key, declared in each
/// such fragment by an `seig` sample group (`sgpd` + `sbgp`), as rotating packagers do.
///
/// Test material only (fixtures and `cove serve`): one track per file, fragments whose samples sit in
/// the `mdat` right after their `moof`.
public struct CommonEncryptionPackager: Sendable {
    public struct Key: Sendable, Hashable {
        public let id: KeyID
        public let key: [UInt8]
        public init(id: KeyID, key: [UInt8]) {
            self.id = id
            self.key = key
        }
    }

    public let scheme: EncryptionScheme
    public let key: Key
    /// From this fragment number on (counted from 1 by the caller), this key.
    public let rotation: (fromFragment: Int, key: Key)?

    public static let clearKeySystemID: [UInt8] = HexBytes.decode("1077efecc0b24d02ace33c1e52e2fb4b")!

    public init(scheme: EncryptionScheme, key: Key, rotation: (fromFragment: Int, key: Key)? = nil) {
        precondition(scheme == .cenc || scheme == .cbcs, "the packager writes cenc and cbcs")
        self.scheme = scheme
        self.key = key
        self.rotation = rotation
    }

    /// The constant IV of `cbcs` (fixed, so fixtures are reproducible).
    var constantIV: [UInt8] { Array(0..<16).map { UInt8($0 * 7 + 3) } }

    // MARK: Init segment

    /// The key IDs the packager encrypts under: the key, then the rotation's.
    public var keyIDs: [KeyID] { [key.id] + (rotation.map { [$0.key.id] } ?? []) }

    /// The ClearKey `pssh` box (version 1, naming `keyIDs`) the init segments carry: what a DASH manifest's
    /// `cenc:pssh` or an HLS key's data URI holds, base64.
    public var clearKeySystemHeader: [UInt8] { pssh(kids: keyIDs) }

    public func encryptInit(_ data: Data) throws -> Data {
        let kids = keyIDs
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        for box in try Self.boxes(bytes, 0..<bytes.count) {
            if box.type == "moov" {
                var moov = rebuild(bytes, box) { type, rebuilt in
                    guard type == "avc1" || type == "mp4a" else { return rebuilt }
                    // The entry renamed, its sinf appended.
                    var entry = rebuilt
                    entry.replaceSubrange(4..<8, with: Array((type == "avc1" ? "encv" : "enca").utf8))
                    entry += sinf(original: type, video: type == "avc1")
                    Self.setSize(&entry)
                    return entry
                }
                moov += pssh(kids: kids)
                Self.setSize(&moov)
                output += moov
            } else {
                output += bytes[box.start..<box.end]
            }
        }
        return Data(output)
    }

    private func sinf(original: String, video: Bool) -> [UInt8] {
        let frma = Self.box("frma", Array(original.utf8))
        let schm = Self.box("schm", [0, 0, 0, 0] + Array(scheme.rawValue.utf8) + [0, 1, 0, 0])
        var tenc: [UInt8] = [scheme == .cbcs ? 1 : 0, 0, 0, 0, 0]
        if scheme == .cbcs {
            tenc.append(video ? 0x19 : 0x00)  // crypt 1, skip 9 for video; whole blocks for audio
            tenc += [1, 0] + key.id.bytes + [16] + constantIV
        } else {
            tenc.append(0)
            tenc += [1, 8] + key.id.bytes
        }
        return Self.box("sinf", frma + schm + Self.box("schi", Self.box("tenc", tenc)))
    }

    private func pssh(kids: [KeyID]) -> [UInt8] {
        var payload: [UInt8] = [1, 0, 0, 0] + Self.clearKeySystemID + Self.u32(UInt32(kids.count))
        for kid in kids { payload += kid.bytes }
        payload += Self.u32(0)
        return Self.box("pssh", payload)
    }

    // MARK: Fragments

    /// `sequence` numbers fragments from 1 (it chooses the rotation key and the IVs).
    public func encryptFragment(_ data: Data, sequence: Int, isVideo: Bool) throws -> Data {
        let active = rotation.map { sequence >= $0.fromFragment ? $0.key : key } ?? key
        let rotated = rotation != nil && active != key
        var bytes = [UInt8](data)
        let top = try Self.boxes(bytes, 0..<bytes.count)
        guard let moofIndex = top.firstIndex(where: { $0.type == "moof" }) else { throw PackagerError("the fragment has no moof") }
        let moof = top[moofIndex]
        guard let traf = try Self.boxes(bytes, moof.payload).first(where: { $0.type == "traf" }) else { throw PackagerError("the moof has no traf") }
        let samples = try sampleRanges(bytes, moof: moof, traf: traf)
        // Encrypt each sample in place and note its IV and subsamples.
        var entries: [(iv: [UInt8], subsamples: [EncryptedSample.Subsample])] = []
        for (index, range) in samples.enumerated() {
            let iv: [UInt8] = scheme == .cbcs ? constantIV : Self.u32(UInt32(sequence)) + Self.u32(UInt32(index))
            let subsamples = isVideo ? Self.subsamples(bytes, range, scheme: scheme) : []
            let sample = EncryptedSample(
                scheme: scheme, keyID: active.id, iv: iv.count == 8 ? iv : constantIV, subsamples: subsamples,
                cryptByteBlock: scheme == .cbcs && isVideo ? 1 : 0, skipByteBlock: scheme == .cbcs && isVideo ? 9 : 0)
            try bytes.withUnsafeMutableBytes { raw in
                try SampleCipher.encrypt(sample, key: active.key, in: UnsafeMutableRawBufferPointer(rebasing: raw[range]))
            }
            entries.append((scheme == .cbcs ? [] : iv, subsamples))
        }
        // senc (+ saiz/saio pointing into it) and, for a rotated key, its sample group.
        let withSubsamples = entries.contains { !$0.subsamples.isEmpty }
        var extra: [UInt8] = []
        var sencPayload: [UInt8] = [0, 0, 0, withSubsamples ? 2 : 0] + Self.u32(UInt32(entries.count))
        var infoSizes: [UInt8] = []
        for entry in entries {
            var info = entry.iv
            if withSubsamples {
                info += Self.u16(UInt16(entry.subsamples.count))
                for subsample in entry.subsamples { info += Self.u16(UInt16(subsample.clearBytes)) + Self.u32(UInt32(subsample.protectedBytes)) }
            }
            infoSizes.append(UInt8(clamping: info.count))
            sencPayload += info
        }
        let needsAuxiliary = scheme == .cenc || withSubsamples
        if needsAuxiliary {
            let sameSize = Set(infoSizes).count == 1
            extra += Self.box("saiz", [0, 0, 0, 0] + [sameSize ? infoSizes.first ?? 0 : 0] + Self.u32(UInt32(infoSizes.count)) + (sameSize ? [] : infoSizes))
            extra += Self.box("saio", [0, 0, 0, 0] + Self.u32(1) + Self.u32(0))  // offset patched below
            extra += Self.box("senc", sencPayload)
        }
        if rotated {
            var entry: [UInt8] = [0, scheme == .cbcs && isVideo ? 0x19 : 0, 1, scheme == .cbcs ? 0 : 8] + active.id.bytes
            if scheme == .cbcs { entry += [16] + constantIV }
            extra += Self.box("sgpd", [1, 0, 0, 0] + Array("seig".utf8) + Self.u32(UInt32(entry.count)) + Self.u32(1) + entry)
            extra += Self.box("sbgp", [0, 0, 0, 0] + Array("seig".utf8) + Self.u32(1) + Self.u32(UInt32(samples.count)) + Self.u32(0x10001))
        }
        // The traf and moof grow by `extra`; trun data offsets (from the moof's start) move with them.
        var newTraf = Array(bytes[traf.start..<traf.end]) + extra
        Self.setSize(&newTraf)
        var newMoof = Array(bytes[moof.start..<traf.start]) + newTraf + Array(bytes[traf.end..<moof.end])
        Self.setSize(&newMoof)
        let grow = extra.count
        let moofBoxes = try Self.boxes(newMoof, 8..<newMoof.count)
        for trafBox in moofBoxes where trafBox.type == "traf" {
            for child in try Self.boxes(newMoof, trafBox.payload) {
                if child.type == "trun", Self.readU32(newMoof, child.payload.lowerBound) & 0x1 != 0 {
                    let at = child.payload.lowerBound + 8
                    Self.writeU32(&newMoof, at, UInt32(bitPattern: Int32(bitPattern: Self.readU32(newMoof, at)) + Int32(grow)))
                }
                if child.type == "senc", needsAuxiliary, let saio = try Self.boxes(newMoof, trafBox.payload).first(where: { $0.type == "saio" }) {
                    // The first sample's information: after senc's version/flags and sample count.
                    Self.writeU32(&newMoof, saio.payload.lowerBound + 8, UInt32(child.payload.lowerBound + 8))
                }
            }
        }
        var output: [UInt8] = []
        for (index, box) in top.enumerated() { output += index == moofIndex ? newMoof : Array(bytes[box.start..<box.end]) }
        return Data(output)
    }

    /// The byte ranges of a single-`trun` track fragment's samples (default-base-is-moof, or the moof's start).
    private func sampleRanges(_ bytes: [UInt8], moof: BoxInfo, traf: BoxInfo) throws -> [Range<Int>] {
        let children = try Self.boxes(bytes, traf.payload)
        guard let tfhd = children.first(where: { $0.type == "tfhd" }), let trun = children.first(where: { $0.type == "trun" }) else {
            throw PackagerError("the traf lacks tfhd or trun")
        }
        let tfhdFlags = Self.readU32(bytes, tfhd.payload.lowerBound) & 0xFF_FFFF
        guard tfhdFlags & 0x1 == 0 else { throw PackagerError("explicit base data offsets are not packaged") }
        var at = tfhd.payload.lowerBound + 8
        if tfhdFlags & 0x2 != 0 { at += 4 }
        if tfhdFlags & 0x8 != 0 { at += 4 }
        let defaultSize = tfhdFlags & 0x10 != 0 ? Int(Self.readU32(bytes, at)) : 0
        let flags = Self.readU32(bytes, trun.payload.lowerBound) & 0xFF_FFFF
        let count = Int(Self.readU32(bytes, trun.payload.lowerBound + 4))
        var cursor = trun.payload.lowerBound + 8
        var position = moof.start
        if flags & 0x1 != 0 {
            position += Int(Int32(bitPattern: Self.readU32(bytes, cursor)))
            cursor += 4
        }
        if flags & 0x4 != 0 { cursor += 4 }
        var ranges: [Range<Int>] = []
        for _ in 0..<count {
            if flags & 0x100 != 0 { cursor += 4 }
            var size = defaultSize
            if flags & 0x200 != 0 {
                size = Int(Self.readU32(bytes, cursor))
                cursor += 4
            }
            if flags & 0x400 != 0 { cursor += 4 }
            if flags & 0x800 != 0 { cursor += 4 }
            guard position + size <= bytes.count else { throw PackagerError("a sample runs past the fragment") }
            ranges.append(position..<(position + size))
            position += size
        }
        return ranges
    }

    /// H.264 subsamples: non-VCL NAL units clear; a slice's length prefix and header area clear, the rest
    /// protected (whole blocks for cenc, whose remainder joins the clear part).
    static func subsamples(_ bytes: [UInt8], _ range: Range<Int>, scheme: EncryptionScheme) -> [EncryptedSample.Subsample] {
        var result: [EncryptedSample.Subsample] = []
        var clear = 0
        var at = range.lowerBound
        while at + 4 <= range.upperBound {
            let length = Int(readU32(bytes, at))
            let nalEnd = min(at + 4 + length, range.upperBound)
            let type = at + 4 < range.upperBound ? bytes[at + 4] & 0x1F : 0
            let size = nalEnd - at
            if (type == 1 || type == 5) && size > 64 {
                var clearPart = scheme == .cbcs ? 4 + 32 : 4 + 1
                var protected = size - clearPart
                if scheme == .cenc {
                    clearPart += protected % 16
                    protected -= protected % 16
                }
                clear += clearPart
                while clear > 0xFFFF {
                    result.append(EncryptedSample.Subsample(clearBytes: 0xFFFF, protectedBytes: 0))
                    clear -= 0xFFFF
                }
                result.append(EncryptedSample.Subsample(clearBytes: clear, protectedBytes: protected))
                clear = 0
            } else {
                clear += size
            }
            at = nalEnd
        }
        clear += range.upperBound - at
        while clear > 0 {
            let part = min(clear, 0xFFFF)
            result.append(EncryptedSample.Subsample(clearBytes: part, protectedBytes: 0))
            clear -= part
        }
        return result
    }

    // MARK: Boxes

    struct BoxInfo {
        let type: String
        let start: Int
        let payload: Range<Int>
        var end: Int { payload.upperBound }
    }

    static func boxes(_ bytes: [UInt8], _ range: Range<Int>) throws -> [BoxInfo] {
        var result: [BoxInfo] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = Int(readU32(bytes, at))
            guard size >= 8, at + size <= range.upperBound else { throw PackagerError("a box at byte \(at) has a bad size") }
            result.append(BoxInfo(type: String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), start: at, payload: (at + 8)..<(at + size)))
            at += size
        }
        return result
    }

    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "mvex", "edts"]

    /// `box` with its containers rebuilt and each box offered to `edit` (which may return it changed).
    private func rebuild(_ bytes: [UInt8], _ box: BoxInfo, edit: (String, [UInt8]) -> [UInt8]) -> [UInt8] {
        var out: [UInt8]
        if Self.containers.contains(box.type) || box.type == "stsd" {
            let skip = box.type == "stsd" ? 8 : 0
            out = Array(bytes[box.start..<(box.payload.lowerBound + skip)])
            for child in (try? Self.boxes(bytes, (box.payload.lowerBound + skip)..<box.end)) ?? [] { out += rebuild(bytes, child, edit: edit) }
            Self.setSize(&out)
        } else {
            out = Array(bytes[box.start..<box.end])
        }
        return edit(box.type, out)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
    static func setSize(_ box: inout [UInt8]) { writeU32(&box, 0, UInt32(box.count)) }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func readU32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3]) }
    static func writeU32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) { b.replaceSubrange(at..<(at + 4), with: u32(v)) }
}

/// The packager could not read the clear fragment it was given.
public struct PackagerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
