import Crypto
import Foundation
import Testing

@testable import CoveOffline

/// The part file's bookkeeping on real files: the first bytes the media check reads without opening the
/// file again, and the hash the index keeps, read back in blocks smaller than the file.
@Suite("Part files")
struct PartFileTests {
    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "cove-partfile-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Bytes that differ from block to block, so that a block read twice or skipped changes the hash.
    private static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ $0 >> 9) })
    }

    private static func hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    @Test func aFreshPartKeepsItsFirstBytesAndCommitsWithTheHashOfEveryByte() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        // Made in a folder that does not exist yet: the part makes it on its first write.
        let part = PartFile(finalURL: root.appending(path: "video/00001.ts", directoryHint: .notDirectory))
        let content = Self.bytes(200_000)
        // Chunks that cross the 1 KiB head and the 64 KiB blocks the hash reads.
        for range in [0..<300, 300..<2_000, 2_000..<70_000, 70_000..<200_000] { try part.append(content.subdata(in: range)) }
        #expect(part.leadingBytes() == content.prefix(PartFile.leadingCapacity))
        let written = try part.finishWriting()
        #expect(written.length == content.count)
        let sha256 = try written.commit()
        #expect(sha256 == Self.hex(content))
        #expect(try Data(contentsOf: written.finalURL) == content)
        #expect(!FileManager.default.fileExists(atPath: written.partURL.path))
        #expect(try PartFile.sha256(of: written.finalURL) == (content.count, Self.hex(content)))
    }

    @Test func aResumedPartReadsItsFirstBytesFromDiskUntilItStartsOver() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let final = root.appending(path: "00002.ts", directoryHint: .notDirectory)
        let earlier = Self.bytes(500, seed: 1)
        try earlier.write(to: final.appendingPathExtension("part"))
        let part = PartFile(finalURL: final)
        #expect(try part.heldBytes() == 500)
        try part.append(Self.bytes(3_000, seed: 2))
        // The first bytes came from an earlier attempt: the check must read them from the file.
        #expect(part.leadingBytes() == nil)
        try part.restart()
        #expect(part.leadingBytes() == Data())
        let fresh = Self.bytes(100, seed: 3)
        try part.append(fresh)
        #expect(part.leadingBytes() == fresh)
        let written = try part.finishWriting()
        #expect(try written.commit() == Self.hex(fresh))
    }
}
