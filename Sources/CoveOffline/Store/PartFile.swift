import CoveStreaming
import Crypto
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A file being downloaded: `<name>.part` beside its final name, appended as chunks arrive (each chunk
/// is in the file once `write` returns, so a killed process leaves every byte it had received on disk).
/// Finished by `finishWriting()` and `Written.commit()`: checked, hashed, flushed, renamed into place.
final class PartFile: DownloadSink {
    let finalURL: URL
    let partURL: URL
    private let descriptor = Mutex<Int32>(-1)
    /// What the part holds; nil until opened.
    private let contents = Mutex<Contents?>(nil)
    static let leadingCapacity = 1_024
    private let length: Mutex<(length: Int?, validator: String?)>
    private let onLength: @Sendable (Int, String?) throws -> Void

    /// `knownLength`: the whole file's length as an earlier attempt learned it; `onLength` keeps a newly
    /// learned one (in the index), so a process killed after the last byte but before `seal` does not
    /// fetch the file again.
    init(finalURL: URL, knownLength: Int? = nil, knownValidator: String? = nil, onLength: @escaping @Sendable (Int, String?) throws -> Void = { _, _ in }) {
        self.finalURL = finalURL
        self.partURL = finalURL.appendingPathExtension("part")
        self.length = Mutex((knownLength, knownValidator))
        self.onLength = onLength
    }

    func knownLength() -> Int? { length.withLock { $0.length } }

    func knownValidator() -> String? { length.withLock { $0.validator } }

    func learnLength(_ value: Int, validator: String?) throws {
        let changed = length.withLock { current -> Bool in
            defer { current = (value, validator) }
            return current.length != value || current.validator != validator
        }
        if changed { try onLength(value, validator) }
    }

    deinit {
        let fd = descriptor.withLock { $0 }
        if fd >= 0 { close(fd) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The part's length and first bytes, which change together with every append.
    private struct Contents {
        /// Bytes in the part: its size when opened (a resume's earlier bytes) plus every byte appended since.
        var length: Int
        /// The file's first bytes (up to `leadingCapacity`) as they were appended, when this part started
        /// empty: what a check of the file's kind reads, without opening it again. Nil for a resumed part.
        var leading: Data?

        mutating func append(_ chunk: Data) {
            length += chunk.count
            if let held = leading, held.count < PartFile.leadingCapacity { leading = held + chunk.prefix(PartFile.leadingCapacity - held.count) }
        }
    }

    /// Opens (creating its folder and the part file when needed) for appending.
    private func openedDescriptor() throws -> Int32 {
        try descriptor.withLock { fd in
            if fd >= 0 { return fd }
            var opened = open(partURL.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if opened < 0, errno == ENOENT {
                // The first file of its folder: make the folder, then try again (not before every file).
                do {
                    try FileManager.default.createDirectory(at: partURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw Failure(description: "cannot create the folder \(partURL.deletingLastPathComponent().path): \(OfflineStore.reason(error))")
                }
                opened = open(partURL.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            }
            guard opened >= 0 else { throw Failure(description: "cannot write \(partURL.path): \(String(cString: strerror(errno)))") }
            fd = opened
            var info = stat()
            guard fstat(opened, &info) == 0 else { throw Failure(description: "cannot read \(partURL.path): \(String(cString: strerror(errno)))") }
            contents.withLock { $0 = Contents(length: Int(info.st_size), leading: info.st_size == 0 ? Data() : nil) }
            return opened
        }
    }

    func heldBytes() throws -> Int {
        var info = stat()
        if stat(partURL.path, &info) == 0 { return Int(info.st_size) }
        if errno == ENOENT { return 0 }
        throw Failure(description: "cannot read \(partURL.path): \(String(cString: strerror(errno)))")
    }

    func restart() throws {
        let fd = try openedDescriptor()
        guard ftruncate(fd, 0) == 0 else { throw Failure(description: "cannot truncate \(partURL.path): \(String(cString: strerror(errno)))") }
        contents.withLock { $0 = Contents(length: 0, leading: Data()) }
    }

    /// The file's first bytes (up to 1 KiB), when they were appended by this part; nil for a part that
    /// resumed an earlier attempt's bytes.
    func leadingBytes() -> Data? { contents.withLock { $0?.leading } }

    func append(_ chunk: Data) throws {
        let fd = try openedDescriptor()
        try chunk.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return }
            var remaining = raw.count
            while remaining > 0 {
                let written = write(fd, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "cannot write \(partURL.path): \(String(cString: strerror(errno)))")
                }
                remaining -= written
                pointer += written
            }
        }
        contents.withLock { $0?.append(chunk) }
    }

    /// A part whose bytes are all written, checked against the file's length on disk. The descriptor is
    /// closed; `commit` makes it final.
    struct Written: Sendable {
        let partURL: URL
        let finalURL: URL
        let length: Int

        /// Hashes the part as it is on disk (SHA-256, lowercase hex: what the index keeps), checks its
        /// length again, flushes it (`fsync`) and renames it to its final name; returns the hash. Runs off
        /// the connection's path (the next request is already under way): hashing and flushing are the
        /// slow parts, and reading back bytes just written comes from the page cache.
        func commit() throws -> String {
            let fd = open(partURL.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Failure(description: "cannot reopen \(partURL.path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            let hashed = try PartFile.hashing(descriptor: fd, path: partURL.path)
            guard hashed.length == length else {
                throw Failure(description: "\(partURL.lastPathComponent) holds \(hashed.length) bytes on disk but \(length) were written")
            }
            guard fsync(fd) == 0 else { throw Failure(description: "cannot flush \(partURL.path): \(String(cString: strerror(errno)))") }
            guard rename(partURL.path, finalURL.path) == 0 else {
                throw Failure(description: "cannot rename \(partURL.lastPathComponent) to \(finalURL.lastPathComponent): \(String(cString: strerror(errno)))")
            }
            return PartFile.hex(hashed.hasher.finalize())
        }
    }

    /// Ends writing: closes the part and checks its length on disk against what was written.
    func finishWriting() throws -> Written {
        _ = try openedDescriptor()
        descriptor.withLock { fd in
            close(fd)
            fd = -1
        }
        guard let written = contents.withLock({ $0?.length }) else { throw Failure(description: "\(partURL.lastPathComponent) was never opened") }
        var info = stat()
        guard stat(partURL.path, &info) == 0, Int(info.st_size) == written else {
            throw Failure(description: "\(partURL.lastPathComponent) holds \(info.st_size) bytes on disk but \(written) were written")
        }
        return Written(partURL: partURL, finalURL: finalURL, length: written)
    }

    /// Closes without sealing (a paused or failed file keeps its part for a resume).
    func closeQuietly() {
        descriptor.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// Length and SHA-256 of a file, read in 64 KiB blocks.
    static func sha256(of url: URL) throws -> (length: Int, sha256: String) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot read \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let state = try hashing(descriptor: fd, path: url.path)
        return (state.length, hex(state.hasher.finalize()))
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The hasher fed with an open file's bytes from its start, and their count.
    private static func hashing(descriptor fd: Int32, path: String) throws -> (hasher: SHA256, length: Int) {
        var hasher = SHA256()
        var length = 0
        // Not zero-filled, and small enough to come from the heap's free lists: a fresh megabyte per file
        // cost more (zeroing it and faulting its pages in) than hashing the file did.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            length += count
        }
        return (hasher, length)
    }
}
