import Foundation

/// The `Content-Type` a web server would give a media file by its name: what local answers (a
/// presentation on disk, a downloaded copy) carry, so they pass the same checks as served ones.
public enum MediaContentType {
    /// The type for a file name's extension, or nil when the name says nothing Cove knows (the bytes are
    /// then sniffed, as a server's unlabelled answer is).
    public static func forExtension(_ pathExtension: String) -> String? {
        switch pathExtension.lowercased() {
        case "m3u8", "m3u": return "application/vnd.apple.mpegurl"
        case "mpd": return "application/dash+xml"
        case "ts": return "video/mp2t"
        case "mp4", "m4s", "m4v": return "video/mp4"
        case "m4a": return "audio/mp4"
        case "aac": return "audio/aac"
        case "vtt", "webvtt": return "text/vtt"
        case "ttml", "xml": return "application/ttml+xml"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        default: return nil
        }
    }
}
