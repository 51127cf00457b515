import CoveCore
import Foundation

/// Reads a `file:` URL the way a server answers a request — the whole file or one byte range — so a
/// presentation on disk (an HLS or DASH folder a packager wrote) streams through the same loader, checks
/// and accounting as one served over HTTP.
///
/// Only a presentation that is itself a local file may read local files (`StreamingLoader.localScheme`):
/// a playlist or manifest fetched over the network never turns Cove into a reader of the device's files.
enum LocalFileReader {
    static func read(_ url: URL, byteRange: ByteSpan?, maxBytes: Int) throws(StreamingError) -> HTTPResponse {
        let path = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw StreamingError(.fileUnreadable, "No file at \(path): check the path, or whether the file was moved", url: url)
        }
        // Only a regular file: a FIFO or a device would block the read (or never end).
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw StreamingError(
                .fileUnreadable, "\(path) is not a regular file (a folder, a pipe or a device); a presentation's files are plain files", url: url)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StreamingError(.fileUnreadable, "The file \(path) cannot be opened: check its permissions", url: url)
        }
        defer { try? handle.close() }
        let size: UInt64
        do {
            size = try handle.seekToEnd()
        } catch {
            throw StreamingError(.fileUnreadable, "The file \(path) cannot be read (\(error.localizedDescription))", url: url)
        }
        let span: Range<UInt64>
        if let byteRange {
            let start = UInt64(byteRange.offset)
            guard start < size else {
                throw StreamingError(
                    .fileUnreadable, "The byte range \(byteRange) starts past the end of \(path) (\(size) bytes): the playlist does not match the file",
                    url: url)
            }
            span = start..<min(start + UInt64(max(byteRange.length, 1)), size)
        } else {
            span = 0..<size
        }
        guard span.count <= UInt64(maxBytes) else {
            throw StreamingError(.tooLarge, "The file \(path) has \(span.count) bytes to read; no playlist or segment is larger than \(maxBytes)", url: url)
        }
        let body: Data
        do {
            try handle.seek(toOffset: span.lowerBound)
            body = try handle.read(upToCount: Int(span.count)) ?? Data()
        } catch {
            throw StreamingError(.fileUnreadable, "The file \(path) cannot be read (\(error.localizedDescription))", url: url)
        }
        var headers = HTTPHeaders()
        if let type = MediaContentType.forExtension(url.pathExtension) { headers["Content-Type"] = type }
        if byteRange != nil { headers["Content-Range"] = "bytes \(span.lowerBound)-\(span.upperBound - 1)/\(size)" }
        return HTTPResponse(status: byteRange == nil ? 200 : 206, headers: headers, body: body, url: url)
    }
}
