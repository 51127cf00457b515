import Foundation

/// Checks that a response is what was asked for before anything parses or decodes it: a captive
/// portal's HTML page, an empty 200 or random bytes become a typed `notMedia` error at once instead of
/// a decoder that waits forever for something it can recognise.
public enum MediaSniffer {
    /// What a segment's first bytes say it is.
    public enum SegmentFormat: String, Sendable, Hashable {
        /// MPEG-2 transport stream (sync byte 0x47 every 188 bytes).
        case mpegTS
        /// ISO BMFF: fMP4/CMAF fragments or init segments (`ftyp`, `styp`, `moof`, `moov`, `sidx`, …).
        case isoBMFF
        /// Packed audio: ADTS AAC, MP3 or AC-3 frames, usually behind an ID3 timestamp tag.
        case packedAudio
        /// WebVTT text.
        case webVTT
    }

    /// A playlist must start with `#EXTM3U` (after an optional byte-order mark and blank space).
    public static func checkPlaylist(_ body: Data, contentType: String?, url: URL) throws(StreamingError) {
        let head = significantHead(body)
        if head.starts(with: Array("#EXTM3U".utf8)) { return }
        throw StreamingError(
            .notMedia,
            "Expected an HLS playlist but the server sent \(describe(head, contentType: contentType)); check the URL (a captive portal or CDN error page answers like this)",
            url: url)
    }

    /// A DASH manifest: XML whose first element (within the first 4 kB, after the declaration and any
    /// comments) is `MPD`.
    public static func isMPD(_ body: Data) -> Bool {
        let head = significantHead(body)
        guard head.first == UInt8(ascii: "<") else { return false }
        let window = [UInt8](body.prefix(4096))
        let marker = Array("<MPD".utf8)
        guard window.count >= marker.count else { return false }
        for start in 0...(window.count - marker.count) where window[start..<start + marker.count].elementsEqual(marker) {
            let next = start + marker.count < window.count ? window[start + marker.count] : UInt8(ascii: " ")
            if next == UInt8(ascii: " ") || next == UInt8(ascii: ">") || next == 0x0A || next == 0x0D || next == 0x09 { return true }
        }
        return false
    }

    /// Recognises a media segment (or init segment) from its first bytes.
    @discardableResult
    public static func checkSegment(_ body: Data, contentType: String?, url: URL) throws(StreamingError) -> SegmentFormat {
        if let format = segmentFormat(body) { return format }
        let head = significantHead(body)
        let description = describe(head, contentType: contentType)
        // A page or document instead of media is a server answering wrongly; unknown bytes are damaged media.
        let code: StreamingError.Code = isDocument(head, contentType: contentType) ? .notMedia : .corruptMedia
        throw StreamingError(code, "Expected a media segment but the server sent \(description); the stream cannot play", url: url)
    }

    /// nil when the bytes are none of the known segment formats.
    public static func segmentFormat(_ body: Data) -> SegmentFormat? {
        let bytes = [UInt8](body.prefix(512))
        guard bytes.count >= 4 else { return nil }
        // At least one whole packet: a short text answer starting with "G" is not a transport stream.
        if bytes[0] == 0x47 && bytes.count >= 188 && (bytes.count == 188 || bytes[188] == 0x47) { return .mpegTS }
        if bytes.count >= 8 {
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "free", "prft", "mdat", "skip"].contains(type) { return .isoBMFF }
        }
        if bytes.starts(with: Array("ID3".utf8)) { return .packedAudio }
        if bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0 { return .packedAudio }  // ADTS or MPEG audio sync
        if bytes[0] == 0x0B && bytes[1] == 0x77 { return .packedAudio }  // AC-3 sync
        let text = significantHead(body)
        if text.starts(with: Array("WEBVTT".utf8)) { return .webVTT }
        return nil
    }

    /// The first 64 bytes after a UTF-8 byte-order mark and leading white space.
    static func significantHead(_ body: Data) -> [UInt8] {
        var bytes = [UInt8](body.prefix(1024))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let start = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? bytes.count
        return Array(bytes[start..<min(bytes.count, start + 64)])
    }

    /// Whether a body is a text document (an HTML page, JSON, a plain-text error) or empty, rather than
    /// media or ciphertext: what a download refuses to store as a segment.
    public static func looksLikeDocument(_ body: Data) -> Bool {
        isDocument(significantHead(body), contentType: nil)
    }

    /// Empty, or text a server sends instead of media (an HTML page, JSON, a plain-text error).
    static func isDocument(_ head: [UInt8], contentType: String?) -> Bool {
        if head.isEmpty || contentType?.lowercased().contains("text/html") == true { return true }
        return head.allSatisfy { (0x20...0x7E).contains($0) || (0x09...0x0D).contains($0) }
    }

    static func describe(_ head: [UInt8], contentType: String?) -> String {
        if head.isEmpty { return "an empty body" }
        let lower = String(decoding: head.prefix(16), as: UTF8.self).lowercased()
        if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") || contentType?.lowercased().contains("text/html") == true {
            return "an HTML page"
        }
        if lower.hasPrefix("<?xml") || lower.hasPrefix("<") { return "an XML or HTML document" }
        if lower.hasPrefix("{") || lower.hasPrefix("[") { return "a JSON document" }
        return "\(head.count < 64 ? "\(head.count) bytes" : "data") that are neither a playlist nor media\(contentType.map { " (Content-Type \($0))" } ?? "")"
    }
}
