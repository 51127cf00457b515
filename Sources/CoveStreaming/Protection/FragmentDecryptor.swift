import CoveCore
import Foundation

/// Decrypts the samples of fMP4 fragments in place, before the demuxer sees them: per `traf`, the sample
/// ranges from `tfhd`/`trun`, each sample's IV and subsamples from `senc` (or `saiz`/`saio`), its key from
/// the track's default or its `seig` sample group (key rotation), then the decryption module. The
/// encryption boxes become `free` so the fragment reads as clear media. Every count and size is checked
/// against the bytes that hold it.
public enum FragmentDecryptor {
    /// Why a fragment could not be decrypted.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The fragment's boxes are malformed or contradict each other.
        case malformed(CENCParseError)
        /// The module could not decrypt a sample (a missing key, a refused layout).
        case decryption(DecryptionError)
        /// A decrypted sample is not what the track carries: the key does not match the content.
        case wrongKey(KeyID, track: UInt32)

        public var description: String {
            switch self {
            case .malformed(let error): return "the fragment's encryption boxes are malformed: \(error)"
            case .decryption(let error): return "decryption failed: \(error)"
            case .wrongKey(let kid, let track): return "the key \(kid) does not decrypt track \(track): its samples do not parse after decryption"
            }
        }
    }

    /// One sample to decrypt: where its bytes are and how.
    struct Job {
        let range: Range<Int>
        let sample: EncryptedSample
    }

    /// Decrypts every protected sample of `fragment` (one or more `moof`+`mdat` pairs) with `decrypt`.
    /// Returns the key IDs it used.
    @discardableResult
    public static func decrypt(
        _ fragment: inout Data, protection: ProtectedInitSegment,
        with decrypt: (EncryptedSample, UnsafeMutableRawBufferPointer) throws(DecryptionError) -> Void
    ) throws(Failure) -> Set<KeyID> {
        try fragment.withMutableBytes { (raw: UnsafeMutableRawBufferPointer) throws(Failure) -> Set<KeyID> in
            let jobs: [(track: TrackProtection, jobs: [Job])]
            do throws(CENCParseError) {
                jobs = try plan(raw, protection: protection)
            } catch {
                throw .malformed(error)
            }
            var used = Set<KeyID>()
            for (track, list) in jobs {
                for job in list {
                    do throws(DecryptionError) {
                        try decrypt(job.sample, UnsafeMutableRawBufferPointer(rebasing: raw[job.range]))
                    } catch {
                        throw .decryption(error)
                    }
                    used.insert(job.sample.keyID)
                }
                if let first = list.first, !SampleCheck.plausible(raw, samples: list.prefix(8).map(\.range), shape: track.shape) {
                    throw .wrongKey(first.sample.keyID, track: track.trackID)
                }
            }
            return used
        }
    }

    /// The samples to decrypt, per track fragment; renames the encryption boxes to `free` as it goes.
    static func plan(_ raw: UnsafeMutableRawBufferPointer, protection: ProtectedInitSegment) throws(CENCParseError) -> [(TrackProtection, [Job])] {
        let bytes = UnsafeRawBufferPointer(raw)
        var result: [(TrackProtection, [Job])] = []
        for moof in try BoxReader.boxes(bytes, in: 0..<bytes.count) where moof.type == "moof" {
            var previousEnd = moof.start
            for box in try BoxReader.boxes(bytes, in: moof.payload, parent: "moof") {
                if box.type == "pssh" { BoxReader.retype(raw, boxAt: box.start, to: "free") }
                guard box.type == "traf" else { continue }
                let (track, jobs, dataEnd) = try planTrackFragment(raw, traf: box, moof: moof, previousEnd: previousEnd, protection: protection)
                previousEnd = dataEnd
                if let track, !jobs.isEmpty { result.append((track, jobs)) }
            }
        }
        return result
    }

    private struct Run {
        let dataOffset: Int32?
        let sizes: [Int]
    }

    private static func planTrackFragment(
        _ raw: UnsafeMutableRawBufferPointer, traf: BoxReader.Box, moof: BoxReader.Box, previousEnd: Int, protection: ProtectedInitSegment
    ) throws(CENCParseError) -> (TrackProtection?, [Job], Int) {
        let bytes = UnsafeRawBufferPointer(raw)
        let children = try BoxReader.boxes(bytes, in: traf.payload, parent: "traf")
        guard let tfhd = children.first(where: { $0.type == "tfhd" }) else { throw CENCParseError("traf", "has no 'tfhd'") }
        var header = BoxReader.Cursor(bytes, tfhd)
        let (_, tfhdFlags) = try header.versionAndFlags()
        let trackID = try header.u32("track_ID")
        var baseOffset: UInt64?
        if tfhdFlags & 0x1 != 0 { baseOffset = try header.u64("base_data_offset") }
        if tfhdFlags & 0x2 != 0 { try header.skip(4, "sample_description_index") }
        if tfhdFlags & 0x8 != 0 { try header.skip(4, "default_sample_duration") }
        let track = protection.tracks[trackID]
        var defaultSize = track?.defaultSampleSize ?? 0
        if tfhdFlags & 0x10 != 0 { defaultSize = try header.u32("default_sample_size") }
        let base: Int
        if let baseOffset {
            guard baseOffset <= UInt64(bytes.count) else {
                throw CENCParseError("tfhd", "puts the track's data at byte \(baseOffset), past the segment's \(bytes.count) bytes")
            }
            base = Int(baseOffset)
        } else {
            base = tfhdFlags & 0x20000 != 0 ? moof.start : previousEnd
        }
        var runs: [Run] = []
        for trun in children where trun.type == "trun" {
            var cursor = BoxReader.Cursor(bytes, trun)
            let (_, flags) = try cursor.versionAndFlags()
            let count = try cursor.u32("sample_count")
            let dataOffset: Int32? = flags & 0x1 != 0 ? Int32(bitPattern: try cursor.u32("data_offset")) : nil
            if flags & 0x4 != 0 { try cursor.skip(4, "first_sample_flags") }
            let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
            guard perSample == 0 || Int(count) <= cursor.remaining / perSample else {
                throw CENCParseError("trun", "declares \(count) samples but holds room for \(perSample == 0 ? 0 : cursor.remaining / perSample)")
            }
            guard count <= 1_000_000 else { throw CENCParseError("trun", "declares \(count) samples") }
            var sizes: [Int] = []
            sizes.reserveCapacity(Int(count))
            for _ in 0..<count {
                if flags & 0x100 != 0 { try cursor.skip(4, "sample_duration") }
                sizes.append(Int(flags & 0x200 != 0 ? try cursor.u32("sample_size") : defaultSize))
                if flags & 0x400 != 0 { try cursor.skip(4, "sample_flags") }
                if flags & 0x800 != 0 { try cursor.skip(4, "sample_composition_time_offset") }
            }
            runs.append(Run(dataOffset: dataOffset, sizes: sizes))
        }
        // Sample byte ranges, checked against the segment.
        var ranges: [Range<Int>] = []
        var position = base
        for run in runs {
            if let offset = run.dataOffset { position = base + Int(offset) }
            for size in run.sizes {
                guard position >= 0, size <= bytes.count, position <= bytes.count - size else {
                    throw CENCParseError("trun", "places a \(size)-byte sample at byte \(position), outside the segment's \(bytes.count) bytes")
                }
                ranges.append(position..<(position + size))
                position += size
            }
        }
        guard let track else { return (nil, [], position) }

        // Which key each sample is under: the track's default, or its sample group's.
        let localGroups = try ProtectedInitSegment.readSampleGroups(bytes, in: traf)
        var keyInfos = [TrackProtection.KeyInfo](repeating: track.defaults, count: ranges.count)
        if let sbgp = children.first(where: { $0.type == "sbgp" }) {
            var cursor = BoxReader.Cursor(bytes, sbgp)
            let (version, _) = try cursor.versionAndFlags()
            if try cursor.take(4, "grouping_type") == Array("seig".utf8) {
                if version == 1 { try cursor.skip(4, "grouping_type_parameter") }
                let entries = try cursor.u32("entry_count")
                guard Int(entries) <= cursor.remaining / 8 else {
                    throw CENCParseError("sbgp", "declares \(entries) entries but holds room for \(cursor.remaining / 8)")
                }
                var sample = 0
                for _ in 0..<entries {
                    let count = Int(try cursor.u32("sample_count"))
                    let index = Int(try cursor.u32("group_description_index"))
                    guard count <= ranges.count - sample else { throw CENCParseError("sbgp", "groups more samples than the fragment's \(ranges.count)") }
                    let info: TrackProtection.KeyInfo?
                    if index == 0 {
                        info = track.defaults
                    } else if index > 0x10000 {
                        info = localGroups.indices.contains(index - 0x10001) ? localGroups[index - 0x10001] : nil
                    } else {
                        info = track.sampleGroups.indices.contains(index - 1) ? track.sampleGroups[index - 1] : nil
                    }
                    guard let info else { throw CENCParseError("sbgp", "names key group \(index), which no 'sgpd' describes") }
                    for i in sample..<(sample + count) { keyInfos[i] = info }
                    sample += count
                }
            }
            BoxReader.retype(raw, boxAt: sbgp.start, to: "free")
        }

        // Per-sample IVs and subsamples: `senc`, else the auxiliary information `saiz`/`saio` point at.
        var auxiliary: [(iv: [UInt8], subsamples: [EncryptedSample.Subsample])]?
        if let senc = children.first(where: { $0.type == "senc" }) {
            auxiliary = try readSenc(bytes, senc, keyInfos: keyInfos)
        } else if let saiz = children.first(where: { $0.type == "saiz" }), let saio = children.first(where: { $0.type == "saio" }) {
            auxiliary = try readAuxiliary(bytes, saiz: saiz, saio: saio, base: base, keyInfos: keyInfos)
        }
        for box in children where ["senc", "saiz", "saio", "sgpd"].contains(box.type) { BoxReader.retype(raw, boxAt: box.start, to: "free") }
        if let auxiliary, auxiliary.count != ranges.count {
            throw CENCParseError("senc", "describes \(auxiliary.count) samples but the fragment's 'trun' has \(ranges.count)")
        }
        var jobs: [Job] = []
        for (index, range) in ranges.enumerated() {
            let info = keyInfos[index]
            guard info.isProtected else { continue }
            let entry = auxiliary?[index]
            let iv = info.perSampleIVSize > 0 ? (entry?.iv ?? []) : (info.constantIV ?? [])
            guard iv.count == 8 || iv.count == 16 else {
                throw CENCParseError("senc", "gives sample \(index) no IV, and the track has no constant IV")
            }
            let subsamples = entry?.subsamples ?? []
            var total = 0
            for subsample in subsamples { total += subsample.clearBytes + subsample.protectedBytes }
            guard total <= range.count else {
                throw CENCParseError("senc", "gives sample \(index) subsamples of \(total) bytes, past the sample's \(range.count)")
            }
            jobs.append(
                Job(
                    range: range,
                    sample: EncryptedSample(
                        scheme: track.scheme, keyID: info.keyID, iv: iv, subsamples: subsamples, cryptByteBlock: info.cryptByteBlock,
                        skipByteBlock: info.skipByteBlock)))
        }
        return (track, jobs, position)
    }

    private static func readSenc(
        _ bytes: UnsafeRawBufferPointer, _ senc: BoxReader.Box, keyInfos: [TrackProtection.KeyInfo]
    ) throws(CENCParseError) -> [(iv: [UInt8], subsamples: [EncryptedSample.Subsample])] {
        var cursor = BoxReader.Cursor(bytes, senc)
        let (_, flags) = try cursor.versionAndFlags()
        let count = Int(try cursor.u32("sample_count"))
        guard count <= keyInfos.count else {
            throw CENCParseError("senc", "describes \(count) samples but the fragment's 'trun' has \(keyInfos.count)")
        }
        var result: [(iv: [UInt8], subsamples: [EncryptedSample.Subsample])] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let info = keyInfos[index]
            let iv = try cursor.take(info.isProtected ? info.perSampleIVSize : 0, "sample \(index)'s IV")
            result.append((iv, flags & 0x2 != 0 ? try readSubsamples(&cursor, sample: index) : []))
        }
        return result
    }

    private static func readSubsamples(_ cursor: inout BoxReader.Cursor, sample: Int) throws(CENCParseError) -> [EncryptedSample.Subsample] {
        let count = Int(try cursor.u16("sample \(sample)'s subsample_count"))
        guard count <= cursor.remaining / 6 else {
            throw CENCParseError("senc", "gives sample \(sample) \(count) subsamples but holds room for \(cursor.remaining / 6)")
        }
        var list: [EncryptedSample.Subsample] = []
        list.reserveCapacity(count)
        for _ in 0..<count {
            let clear = Int(try cursor.u16("BytesOfClearData"))
            let protected = Int(try cursor.u32("BytesOfProtectedData"))
            list.append(EncryptedSample.Subsample(clearBytes: clear, protectedBytes: protected))
        }
        return list
    }

    private static func readAuxiliary(
        _ bytes: UnsafeRawBufferPointer, saiz: BoxReader.Box, saio: BoxReader.Box, base: Int, keyInfos: [TrackProtection.KeyInfo]
    ) throws(CENCParseError) -> [(iv: [UInt8], subsamples: [EncryptedSample.Subsample])] {
        var sizes = BoxReader.Cursor(bytes, saiz)
        let (_, sizeFlags) = try sizes.versionAndFlags()
        if sizeFlags & 0x1 != 0 { try sizes.skip(8, "aux_info_type and parameter") }
        let defaultSize = Int(try sizes.u8("default_sample_info_size"))
        let count = Int(try sizes.u32("sample_count"))
        guard count <= keyInfos.count else { throw CENCParseError("saiz", "describes \(count) samples but the fragment's 'trun' has \(keyInfos.count)") }
        var sampleSizes: [Int] = []
        for index in 0..<count { sampleSizes.append(defaultSize != 0 ? defaultSize : Int(try sizes.u8("sample \(index)'s info size"))) }
        var offsets = BoxReader.Cursor(bytes, saio)
        let (version, offsetFlags) = try offsets.versionAndFlags()
        if offsetFlags & 0x1 != 0 { try offsets.skip(8, "aux_info_type and parameter") }
        guard try offsets.u32("entry_count") >= 1 else { throw CENCParseError("saio", "gives no offset") }
        let offset = version == 0 ? UInt64(try offsets.u32("offset")) : try offsets.u64("offset")
        let total = sampleSizes.reduce(0, +)
        guard offset <= UInt64(bytes.count), base + Int(offset) + total <= bytes.count else {
            throw CENCParseError("saio", "points at auxiliary information outside the segment")
        }
        let area = BoxReader.Box(type: "saio", start: base + Int(offset), payload: (base + Int(offset))..<(base + Int(offset) + total))
        var cursor = BoxReader.Cursor(bytes, area)
        var result: [(iv: [UInt8], subsamples: [EncryptedSample.Subsample])] = []
        for index in 0..<count {
            let info = keyInfos[index]
            let ivSize = info.isProtected ? info.perSampleIVSize : 0
            let start = cursor.offset
            let iv = try cursor.take(ivSize, "sample \(index)'s IV")
            let subsamples = sampleSizes[index] > ivSize ? try readSubsamples(&cursor, sample: index) : []
            guard cursor.offset - start <= sampleSizes[index] else {
                throw CENCParseError("saiz", "gives sample \(index) less room than its information takes")
            }
            try cursor.skip(sampleSizes[index] - (cursor.offset - start), "padding")
            result.append((iv, subsamples))
        }
        return result
    }
}

/// Whether decrypted samples look like their codec's: a wrong key turns them into noise that a decoder
/// would conceal or choke on, and Cove says so instead (`decryptionFailed`, naming the key).
enum SampleCheck {
    static func plausible(_ bytes: UnsafeMutableRawBufferPointer, samples: [Range<Int>], shape: TrackProtection.SampleShape) -> Bool {
        switch shape {
        case .unknown:
            return true
        case .nalUnits(let lengthSize):
            // The NAL length prefixes must tile each sample exactly; each NAL's forbidden bit is zero.
            return samples.allSatisfy { range in
                var at = range.lowerBound
                while at < range.upperBound {
                    guard range.upperBound - at >= lengthSize + 1 else { return false }
                    var length = 0
                    for i in 0..<lengthSize { length = length << 8 | Int(bytes[at + i]) }
                    at += lengthSize
                    guard length > 0, length <= range.upperBound - at, bytes[at] & 0x80 == 0 else { return false }
                    at += length
                }
                return true
            }
        case .aac:
            // A raw AAC frame starts with a syntax element: SCE/CPE/CCE/LFE/DSE/PCE with instance tag 0 in
            // every stream Cove has met, or a FIL. Noise passes that test about one time in six, so fewer
            // than half of the checked samples passing is a wrong key (real streams pass with all; noise
            // gets half of eight about one time in seventy).
            let nonEmpty = samples.filter { $0.count >= 1 }
            guard !nonEmpty.isEmpty else { return true }
            let passing = nonEmpty.filter { range in
                let first = bytes[range.lowerBound]
                let element = first >> 5
                let tag = (first >> 1) & 0x0F
                return element == 6 || (element < 6 && tag == 0)
            }
            return passing.count * 2 >= nonEmpty.count
        }
    }
}
