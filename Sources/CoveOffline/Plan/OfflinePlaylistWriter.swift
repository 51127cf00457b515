import CoveStreaming
import Foundation

/// Writes the offline copy's HLS playlists. Whatever the origin was (HLS or DASH, byte ranges or whole
/// files), the copy is HLS over one file per segment: Cove's streaming plays it like any other HLS stream,
/// so everything it does online (seeking, captions, audio renditions, AES-128) works offline unchanged.
/// URIs are relative to the download's folder, so the copy can move with its store.
enum OfflinePlaylistWriter {
    /// One stored track: its media playlist's name and its segments, renamed to stored files.
    struct Track: Sendable {
        let playlistPath: String
        let folder: String
        let timeline: MediaTimeline
    }

    /// A track's stored files and media playlist. Keys are named `key/N` (answered offline from the
    /// index); each encrypted segment gets its IV written out, so the playlist needs no media sequence
    /// rules to decrypt.
    static func mediaPlaylist(
        for track: Track, bitrate: Int, keyNames: inout [URL: String]
    ) throws(OfflineError) -> (playlist: String, files: [PlannedFile], keys: [PlannedKey]) {
        var files: [PlannedFile] = []
        var keys: [PlannedKey] = []
        var initNames: [InitSection: String] = [:]
        let segments = track.timeline.segments
        let longest = segments.map(\.duration).max() ?? 1
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(max(1, Int(longest.rounded(.up))))\n"
        text += "#EXT-X-MEDIA-SEQUENCE:\(segments.first?.sequence ?? 0)\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        var discontinuity = segments.first?.discontinuity
        var currentInit: InitSection?
        var currentKey: String?
        for (index, segment) in segments.enumerated() {
            if segment.discontinuity != discontinuity {
                text += "#EXT-X-DISCONTINUITY\n"
                discontinuity = segment.discontinuity
            }
            if let section = segment.initSection, section != currentInit {
                let name: String
                if let known = initNames[section] {
                    name = known
                } else {
                    name = "\(track.folder)/init-\(initNames.count).\(fileExtension(section.url, fallback: "mp4"))"
                    initNames[section] = name
                    files.append(
                        PlannedFile(
                            path: name, url: section.url, byteRange: section.byteRange, kind: .initSegment,
                            estimatedBytes: Int64(section.byteRange?.length ?? 4_096)))
                }
                text += "#EXT-X-MAP:URI=\"\(name)\"\n"
                currentInit = section
            }
            let keyLine = try self.keyLine(segment, keyNames: &keyNames, keys: &keys)
            if keyLine != currentKey {
                text += keyLine + "\n"
                currentKey = keyLine
            }
            let name = "\(track.folder)/\(padded(index)).\(fileExtension(segment.url, fallback: "seg"))"
            text += "#EXTINF:\(format(segment.duration)),\n"
            if segment.isGap {
                text += "#EXT-X-GAP\n\(name)\n"
                continue
            }
            text += "\(name)\n"
            let estimate = segment.byteRange.map { Int64($0.length) } ?? Int64(Double(bitrate) * segment.duration / 8)
            files.append(PlannedFile(path: name, url: segment.url, byteRange: segment.byteRange, kind: .segment, estimatedBytes: max(estimate, 1)))
        }
        text += "#EXT-X-ENDLIST\n"
        return (text, files, keys)
    }

    /// `#EXT-X-KEY` for a segment: `METHOD=NONE` for a clear one, AES-128 with the stored key's name and
    /// the IV (the tag's, or the media sequence number as RFC 8216 §5.2 derives it). Any other method
    /// cannot be stored and played by Cove.
    private static func keyLine(_ segment: SegmentReference, keyNames: inout [URL: String], keys: inout [PlannedKey]) throws(OfflineError) -> String {
        guard let key = segment.key else { return "#EXT-X-KEY:METHOD=NONE" }
        let sampleEncrypted = (key.method == .sampleAES || key.method == .sampleAESCTR) && segment.initSection != nil
        if sampleEncrypted, key.keyFormat != "identity" {
            // Common Encryption under a key system: the licence is kept with the copy; the fragments say the rest.
            return "#EXT-X-KEY:METHOD=NONE"
        }
        guard key.method == .aes128 || sampleEncrypted, key.keyFormat == "identity", let url = key.keyURL else {
            throw OfflineError(
                .unsupported,
                "The stream is encrypted with \(key.method.rawValue) (key format \(key.keyFormat)), which Cove cannot store; clear, AES-128 and fMP4 SAMPLE-AES HLS can be downloaded"
            )
        }
        let name: String
        if let known = keyNames[url] {
            name = known
        } else {
            name = "key/\(keyNames.count)"
            keyNames[url] = name
            keys.append(PlannedKey(name: name, url: url))
        }
        if sampleEncrypted {
            // The fragments carry their IVs; the stored key serves every key ID of the content (identity format).
            return "#EXT-X-KEY:METHOD=\(key.method.rawValue),URI=\"\(name)\",KEYFORMAT=\"identity\""
        }
        let iv = key.iv ?? ivBytes(sequence: segment.sequence)
        return "#EXT-X-KEY:METHOD=AES-128,URI=\"\(name)\",IV=0x" + iv.map { String(format: "%02x", $0) }.joined()
    }

    /// The sequence number as a 16-byte big-endian IV.
    static func ivBytes(sequence: Int) -> [UInt8] {
        let value = UInt64(truncatingIfNeeded: sequence)
        return Array(repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    /// An audio rendition of the master playlist.
    struct AudioEntry {
        let name: String
        let language: String?
        let isDefault: Bool
        let playlistPath: String
    }

    /// A subtitle rendition of the master playlist.
    struct TextEntry {
        let name: String
        let language: String?
        let isDefault: Bool
        let isForced: Bool
        let playlistPath: String
    }

    static func masterPlaylist(variant: VariantTrack, videoPath: String, audio: [AudioEntry], text: [TextEntry], extraCodecs: [String]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for entry in audio {
            lines.append(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio\",NAME=\"\(quoted(entry.name))\"" + (entry.language.map { ",LANGUAGE=\"\(quoted($0))\"" } ?? "")
                    + ",DEFAULT=\(entry.isDefault ? "YES" : "NO"),AUTOSELECT=YES,URI=\"\(entry.playlistPath)\""
            )
        }
        for entry in text {
            lines.append(
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"\(quoted(entry.name))\"" + (entry.language.map { ",LANGUAGE=\"\(quoted($0))\"" } ?? "")
                    + ",DEFAULT=\(entry.isDefault ? "YES" : "NO"),AUTOSELECT=YES,FORCED=\(entry.isForced ? "YES" : "NO"),URI=\"\(entry.playlistPath)\""
            )
        }
        var attributes = ["BANDWIDTH=\(max(variant.bandwidth, 1))"]
        if let average = variant.averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(average)") }
        if let width = variant.width, let height = variant.height { attributes.append("RESOLUTION=\(width)x\(height)") }
        var codecs: [String] = []
        for codec in (variant.codecs + extraCodecs).map(quoted) where !codec.isEmpty && !codecs.contains(codec) { codecs.append(codec) }
        if !codecs.isEmpty { attributes.append("CODECS=\"\(codecs.joined(separator: ","))\"") }
        if let rate = variant.frameRate, rate.isFinite, rate > 0 { attributes.append("FRAME-RATE=\(format(rate))") }
        if !audio.isEmpty { attributes.append("AUDIO=\"audio\"") }
        if !text.isEmpty { attributes.append("SUBTITLES=\"subs\"") }
        lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
        lines.append(videoPath)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value inside a quoted attribute: no quotes, commas kept, no line breaks.
    static func quoted(_ value: String) -> String {
        String(value.filter { $0 != "\"" && !$0.isNewline })
    }

    /// Five digits at least: names sort in playback order.
    static func padded(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.6f", seconds.isFinite ? max(seconds, 0) : 0)
    }

    /// The URL's extension when it is a short alphanumeric one, else `fallback`.
    static func fileExtension(_ url: URL, fallback: String) -> String {
        let ext = url.pathExtension.lowercased()
        return (1...5).contains(ext.count) && ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? ext : fallback
    }
}
