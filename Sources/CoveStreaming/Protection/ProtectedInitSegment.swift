import CoveCore
import Foundation

/// How one track of an fMP4 is encrypted, from its sample entry's `sinf` (`frma`, `schm`, `schi/tenc`),
/// with what the fragment reader needs besides: the `trex` defaults and a hint for checking decrypted samples.
public struct TrackProtection: Sendable, Hashable {
    /// The key and IV layout a sample group or the track default gives (`tenc`, or an `seig` entry).
    public struct KeyInfo: Sendable, Hashable {
        public let isProtected: Bool
        public let perSampleIVSize: Int
        public let keyID: KeyID
        public let constantIV: [UInt8]?
        public let cryptByteBlock: Int
        public let skipByteBlock: Int
    }

    /// What a decrypted sample of the track must look like (a wrong key shows there).
    public enum SampleShape: Sendable, Hashable {
        /// Length-prefixed H.264/H.265 NAL units with prefixes of this many bytes.
        case nalUnits(lengthSize: Int)
        /// Raw AAC frames.
        case aac
        case unknown
    }

    public let trackID: UInt32
    public let scheme: EncryptionScheme
    /// The clear sample entry's format (`frma`): `avc1`, `mp4a`, …
    public let originalFormat: String
    public let defaults: KeyInfo
    /// `seig` sample group entries of the track's `stbl` (key rotation declared in the init segment).
    public let sampleGroups: [KeyInfo]
    public let shape: SampleShape
    /// `trex` defaults for fragments that leave a sample's size to them.
    public let defaultSampleSize: UInt32
}

/// A `pssh` box: a DRM system's init data (the whole box is what a CDM is given).
public struct ProtectionSystemHeader: Sendable, Hashable {
    public let systemID: String
    public let keyIDs: [KeyID]
    public let data: [UInt8]
    /// The whole box, header included.
    public let box: [UInt8]

    /// The key system it is for, when Cove knows the system ID.
    public var keySystem: KeySystem? { KeySystem(systemID: systemID) }
}

/// An init segment's Common Encryption: each protected track's scheme and default key, its `pssh` boxes,
/// and the same init segment rewritten as clear (so the demuxer sees plain `avc1`/`mp4a` tracks whose
/// samples Cove decrypts before they reach it).
public struct ProtectedInitSegment: Sendable {
    public let tracks: [UInt32: TrackProtection]
    public let systemHeaders: [ProtectionSystemHeader]
    /// The init segment with each `encv`/`enca` sample entry renamed to its `frma` format and its `sinf`,
    /// and every `pssh`, turned into `free` boxes (same sizes, so no offset moves).
    public let clear: Data
    /// Key IDs fragments named beyond the init segment's (key rotation through fragment sample groups).
    public private(set) var extraKeyIDs: [KeyID] = []

    /// The key IDs the tracks name (defaults and sample groups) and those fragments added, sorted.
    public var keyIDs: [KeyID] {
        Array(Set(tracks.values.flatMap { [$0.defaults.keyID] + $0.sampleGroups.map(\.keyID) } + extraKeyIDs)).sorted()
    }

    /// The same content, needing `keyIDs` besides.
    public func adding(keyIDs more: [KeyID]) -> ProtectedInitSegment {
        var copy = self
        copy.extraKeyIDs += more
        return copy
    }

    /// nil when no track is encrypted (a clear init segment, or bytes that are no init segment: those are
    /// the demuxer's to judge). Only a segment with an encrypted sample entry is read strictly.
    public static func read(_ data: Data) throws(CENCParseError) -> ProtectedInitSegment? {
        guard data.range(of: Data("encv".utf8)) != nil || data.range(of: Data("enca".utf8)) != nil else { return nil }
        var copy = data
        let result = try copy.withMutableBytes {
            (raw: UnsafeMutableRawBufferPointer) throws(CENCParseError) -> ([UInt32: TrackProtection], [ProtectionSystemHeader]) in
            let bytes = UnsafeRawBufferPointer(raw)
            guard let moov = try BoxReader.boxes(bytes, in: 0..<bytes.count).first(where: { $0.type == "moov" }) else {
                throw CENCParseError("moov", "is missing: this is not an init segment")
            }
            var tracks: [UInt32: TrackProtection] = [:]
            var headers: [ProtectionSystemHeader] = []
            var trex: [UInt32: UInt32] = [:]
            let children = try BoxReader.boxes(bytes, in: moov.payload, parent: "moov")
            if let mvex = children.first(where: { $0.type == "mvex" }) {
                for box in try BoxReader.boxes(bytes, in: mvex.payload, parent: "mvex") where box.type == "trex" {
                    var cursor = BoxReader.Cursor(bytes, box)
                    _ = try cursor.versionAndFlags()
                    let trackID = try cursor.u32("track_ID")
                    try cursor.skip(8, "default sample description index and duration")
                    trex[trackID] = try cursor.u32("default_sample_size")
                }
            }
            for box in children where box.type == "pssh" {
                headers.append(try readSystemHeader(bytes, box))
                BoxReader.retype(raw, boxAt: box.start, to: "free")
            }
            for trak in children where trak.type == "trak" {
                if let track = try readTrack(raw, trak, trex: trex) { tracks[track.trackID] = track }
            }
            return (tracks, headers)
        }
        guard !result.0.isEmpty else { return nil }
        return ProtectedInitSegment(tracks: result.0, systemHeaders: result.1, clear: copy)
    }

    static func readSystemHeader(_ bytes: UnsafeRawBufferPointer, _ box: BoxReader.Box) throws(CENCParseError) -> ProtectionSystemHeader {
        var cursor = BoxReader.Cursor(bytes, box)
        let (version, _) = try cursor.versionAndFlags()
        let system = try cursor.take(16, "SystemID")
        var kids: [KeyID] = []
        if version > 0 {
            let count = try cursor.u32("KID_count")
            guard Int(count) <= cursor.remaining / 16 else {
                throw CENCParseError("pssh", "declares \(count) key IDs but holds room for \(cursor.remaining / 16)")
            }
            for _ in 0..<count { kids.append(KeyID(try cursor.take(16, "KID"))!) }
        }
        let size = try cursor.u32("DataSize")
        guard Int(size) <= cursor.remaining else { throw CENCParseError("pssh", "declares \(size) bytes of data but holds \(cursor.remaining)") }
        let data = try cursor.take(Int(size), "Data")
        return ProtectionSystemHeader(systemID: uuidString(system), keyIDs: kids, data: data, box: Array(bytes[box.start..<box.end]))
    }

    static func uuidString(_ bytes: [UInt8]) -> String {
        let hex = HexBytes.encode(bytes)
        let h = Array(hex)
        return [String(h[0..<8]), String(h[8..<12]), String(h[12..<16]), String(h[16..<20]), String(h[20..<32])].joined(separator: "-")
    }

    /// One `trak`: nil when its sample entry is not encrypted.
    private static func readTrack(
        _ raw: UnsafeMutableRawBufferPointer, _ trak: BoxReader.Box, trex: [UInt32: UInt32]
    ) throws(CENCParseError) -> TrackProtection? {
        let bytes = UnsafeRawBufferPointer(raw)
        guard let tkhd = try BoxReader.child(bytes, of: trak, "tkhd") else { throw CENCParseError("trak", "has no 'tkhd'") }
        var header = BoxReader.Cursor(bytes, tkhd)
        let (version, _) = try header.versionAndFlags()
        try header.skip(version == 1 ? 16 : 8, "creation and modification times")
        let trackID = try header.u32("track_ID")
        guard let stbl = try BoxReader.find(bytes, path: ["mdia", "minf", "stbl"], in: trak.payload) else { return nil }
        guard let stsd = try BoxReader.child(bytes, of: stbl, "stsd") else { return nil }
        // stsd: version/flags, entry_count, then the sample entries.
        guard stsd.payload.count >= 8 else { throw CENCParseError("stsd", "is shorter than its version, flags and entry count") }
        let entries = try BoxReader.boxes(bytes, in: (stsd.payload.lowerBound + 8)..<stsd.payload.upperBound, parent: "stsd")
        guard let entry = entries.first(where: { $0.type == "encv" || $0.type == "enca" }) else { return nil }
        // Sample entry fields before its child boxes: 8 (reserved, data_reference_index) + 70 (visual) or 20 (audio v0).
        var fieldsSize = entry.type == "encv" ? 78 : 28
        if entry.type == "enca", entry.payload.count >= 10 {
            let soundVersion = UInt16(bytes[entry.payload.lowerBound + 8]) << 8 | UInt16(bytes[entry.payload.lowerBound + 9])
            fieldsSize += soundVersion == 1 ? 16 : soundVersion == 2 ? 36 : 0
        }
        guard entry.payload.count >= fieldsSize else { throw CENCParseError(entry.type, "is shorter than a sample entry's fields") }
        let inner = try BoxReader.boxes(bytes, in: (entry.payload.lowerBound + fieldsSize)..<entry.payload.upperBound, parent: entry.type)
        guard let sinf = inner.first(where: { $0.type == "sinf" }) else {
            throw CENCParseError(entry.type, "has no 'sinf': the track says it is encrypted but not how")
        }
        let sinfChildren = try BoxReader.boxes(bytes, in: sinf.payload, parent: "sinf")
        guard let frma = sinfChildren.first(where: { $0.type == "frma" }), frma.payload.count >= 4 else {
            throw CENCParseError("sinf", "has no 'frma' (original format)")
        }
        let original = BoxReader.fourCC(bytes, frma.payload.lowerBound)
        guard let schm = sinfChildren.first(where: { $0.type == "schm" }) else { throw CENCParseError("sinf", "has no 'schm' (scheme)") }
        var schemeCursor = BoxReader.Cursor(bytes, schm)
        _ = try schemeCursor.versionAndFlags()
        let schemeType = try schemeCursor.take(4, "scheme_type")
        let schemeName = String(decoding: schemeType, as: UTF8.self)
        guard let scheme = EncryptionScheme(rawValue: schemeName) else {
            throw CENCParseError(
                "schm",
                "names the scheme '\(BoxReader.fourCC(bytes, schm.payload.lowerBound + 4))', which is not a Common Encryption scheme (cenc, cbcs, cens, cbc1)")
        }
        guard let schi = sinfChildren.first(where: { $0.type == "schi" }), let tenc = try BoxReader.child(bytes, of: schi, "tenc") else {
            throw CENCParseError("sinf", "has no 'schi/tenc' (default key and IV size)")
        }
        let defaults = try readTenc(bytes, tenc)
        let groups = try readSampleGroups(bytes, in: stbl)
        let shape: TrackProtection.SampleShape
        if let config = inner.first(where: { $0.type == "avcC" || $0.type == "hvcC" }) {
            let at = config.payload.lowerBound + (config.type == "avcC" ? 4 : 21)
            shape = config.payload.contains(at) ? .nalUnits(lengthSize: Int(bytes[at] & 0x03) + 1) : .unknown
        } else {
            shape = original == "mp4a" ? .aac : .unknown
        }
        // The demuxer must see a clear track: the entry becomes its original format, `sinf` padding.
        BoxReader.retype(raw, boxAt: entry.start, to: original)
        BoxReader.retype(raw, boxAt: sinf.start, to: "free")
        return TrackProtection(
            trackID: trackID, scheme: scheme, originalFormat: original, defaults: defaults, sampleGroups: groups, shape: shape,
            defaultSampleSize: trex[trackID] ?? 0)
    }

    static func readTenc(_ bytes: UnsafeRawBufferPointer, _ box: BoxReader.Box) throws(CENCParseError) -> TrackProtection.KeyInfo {
        var cursor = BoxReader.Cursor(bytes, box)
        let (version, _) = try cursor.versionAndFlags()
        try cursor.skip(1, "reserved")
        let pattern = try cursor.u8("pattern")
        return try readKeyInfo(&cursor, pattern: version > 0 ? pattern : 0, box: "tenc")
    }

    /// The fields `tenc` and an `seig` entry share: isProtected, IV size, KID, constant IV.
    static func readKeyInfo(_ cursor: inout BoxReader.Cursor, pattern: UInt8, box: String) throws(CENCParseError) -> TrackProtection.KeyInfo {
        let isProtected = try cursor.u8("isProtected") != 0
        let ivSize = Int(try cursor.u8("Per_Sample_IV_Size"))
        guard [0, 8, 16].contains(ivSize) else { throw CENCParseError(box, "declares a per-sample IV of \(ivSize) bytes (0, 8 or 16 are allowed)") }
        let kid = KeyID(try cursor.take(16, "KID"))!
        var constant: [UInt8]?
        if isProtected && ivSize == 0 {
            let size = Int(try cursor.u8("constant_IV_size"))
            guard size == 8 || size == 16 else { throw CENCParseError(box, "declares a constant IV of \(size) bytes (8 or 16 are allowed)") }
            constant = try cursor.take(size, "constant_IV")
        }
        return TrackProtection.KeyInfo(
            isProtected: isProtected, perSampleIVSize: ivSize, keyID: kid, constantIV: constant, cryptByteBlock: Int(pattern >> 4),
            skipByteBlock: Int(pattern & 0x0F))
    }

    /// `sgpd` entries of grouping type `seig` inside `container` (a `stbl` or a `traf`).
    static func readSampleGroups(_ bytes: UnsafeRawBufferPointer, in container: BoxReader.Box) throws(CENCParseError) -> [TrackProtection.KeyInfo] {
        var result: [TrackProtection.KeyInfo] = []
        for box in try BoxReader.boxes(bytes, in: container.payload, parent: container.type) where box.type == "sgpd" {
            var cursor = BoxReader.Cursor(bytes, box)
            let (version, _) = try cursor.versionAndFlags()
            guard try cursor.take(4, "grouping_type") == Array("seig".utf8) else { continue }
            var defaultLength: UInt32 = 0
            if version == 1 { defaultLength = try cursor.u32("default_length") }
            if version >= 2 { try cursor.skip(4, "default_sample_description_index") }
            let count = try cursor.u32("entry_count")
            guard count <= 1_024 else { throw CENCParseError("sgpd", "declares \(count) key groups (at most 1,024 are read)") }
            for _ in 0..<count {
                if version == 1 && defaultLength == 0 { _ = try cursor.u32("description_length") }
                try cursor.skip(1, "reserved")
                let pattern = try cursor.u8("pattern")
                result.append(try readKeyInfo(&cursor, pattern: pattern, box: "sgpd"))
            }
        }
        return result
    }
}
