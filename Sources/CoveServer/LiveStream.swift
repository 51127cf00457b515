import Foundation

/// A simulated live HLS media playlist: a sliding window over a VOD playlist's segments that moves
/// one segment per segment duration, looping the source with `EXT-X-DISCONTINUITY` at each wrap.
struct LiveStream: Sendable {
    struct Segment: Sendable {
        let duration: Double
        /// Absolute path on the server.
        let path: String
    }

    let segments: [Segment]
    let targetDuration: Int
    let windowSegments: Int
    let startedAt: ContinuousClock.Instant

    init(sourceText: String, sourcePath: String, windowSegments: Int, startedAt: ContinuousClock.Instant) throws {
        let directory = "/" + sourcePath.split(separator: "/").dropLast().joined(separator: "/")
        var segments: [Segment] = []
        var pendingDuration: Double?
        for rawLine in sourceText.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#EXTINF:") {
                pendingDuration = Double(line.dropFirst(8).split(separator: ",").first ?? "")
            } else if !line.isEmpty, !line.hasPrefix("#"), let duration = pendingDuration {
                let path = line.hasPrefix("/") ? line : (directory == "/" ? "/" : directory + "/") + line
                segments.append(Segment(duration: duration, path: path))
                pendingDuration = nil
            }
        }
        guard !segments.isEmpty else { throw FixtureError(description: "\(sourcePath) has no segments to loop") }
        self.segments = segments
        self.targetDuration = Int((segments.map(\.duration).max() ?? 2).rounded(.up))
        self.windowSegments = windowSegments
        self.startedAt = startedAt
    }

    func playlist(at now: ContinuousClock.Instant) -> String {
        let elapsed = now - startedAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let produced = Int(seconds / Double(targetDuration))
        let last = produced + windowSegments
        let first = last - windowSegments
        let wraps = first / segments.count
        var text =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(targetDuration)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(wraps)\n"
        for sequence in first..<last {
            let segment = segments[sequence % segments.count]
            if sequence != first && sequence % segments.count == 0 { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:\(String(format: "%.3f", segment.duration)),\n\(segment.path)\n"
        }
        return text
    }
}
