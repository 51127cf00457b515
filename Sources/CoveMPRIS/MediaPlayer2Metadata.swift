import CoveCore
import Foundation

/// The `Metadata` a desktop's "now playing" shows for the current video, worked out from the session
/// as a pure function so what each key holds is tested without a bus.
///
/// Keys: `mpris:trackid` (an object path naming this session's track), `mpris:length` (µs, left out
/// while unknown or live), `xesam:title` (the video's name), `mpris:artUrl` (its poster), `xesam:url`
/// (the source, redacted: any client on the session bus reads it, and a signed URL's token is no
/// business of theirs) and `cove:videoId` (the catalog's video ID).
struct MediaPlayer2Metadata: Sendable, Hashable {
    let trackID: String
    let length: Duration?
    let title: String?
    let artURL: String?
    let url: String?
    let videoID: String?

    /// - Parameters:
    ///   - duration: The engine's duration (`durationChanged`); the catalog's `duration` stands in until
    ///     it is known. A live stream's nil leaves the length out.
    init(video: Video, sourceURL: URL?, sessionID: Int, duration: Duration?) {
        self.trackID = Self.trackID(videoID: video.id, sessionID: sessionID)
        let length = duration ?? video.duration
        self.length = length.flatMap { $0 > .zero ? $0 : nil }
        self.title = video.name.flatMap { $0.isEmpty ? nil : $0 }
        // The art is fetched by the desktop, so its URL stays whole (poster URLs carry no tokens).
        self.artURL = (video.poster ?? video.posterSources.first ?? video.thumbnail)?.absoluteString
        self.url = (sourceURL ?? video.sources.first?.url).map { Redaction.redact(url: $0) }
        self.videoID = video.id.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `mpris:length` in microseconds.
    var lengthMicroseconds: Int64? { length.map(Self.microseconds) }

    /// `/org/cove/Video/<escaped video ID>/<session>`, or `/org/cove/Session/<session>` for a video without
    /// an ID. The session number keeps a video that plays twice in a queue two tracks (clients tell
    /// tracks apart by this path), and SetPosition for the earlier one is refused as stale. Object path
    /// elements allow only `[A-Za-z0-9_]`, so every other byte of the ID becomes `_xx` (hex) and `_`
    /// itself `_5f`: two IDs never share a path.
    static func trackID(videoID: String?, sessionID: Int) -> String {
        guard let videoID, !videoID.isEmpty else { return "/org/cove/Session/\(sessionID)" }
        var element = ""
        for byte in videoID.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                element.append(Character(Unicode.Scalar(byte)))
            default:
                element += "_" + String(byte, radix: 16).leftPadded(to: 2)
            }
        }
        return "/org/cove/Video/\(element)/\(sessionID)"
    }

    /// Whole microseconds (MPRIS's unit), rounded toward zero and clamped to Int64's range.
    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        return overflowed ? (seconds < 0 ? .min : .max) : sum
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
