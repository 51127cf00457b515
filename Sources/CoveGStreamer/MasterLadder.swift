import CoveCore
import CoveHLS
import Foundation

/// Reads the variant ladder out of the master playlist the engine itself downloaded, so the ladder
/// costs no extra request and always matches what the demuxer sees.
enum MasterLadder {
    /// The master playlist's variants in listed order; nil when the bytes are not a master playlist
    /// (progressive media, a media playlist, or a playlist the parser rejects).
    static func variants(fromPlaylist bytes: [UInt8], baseURL: URL) -> [Variant]? {
        guard bytes.count >= 7, case .master(let master)? = try? HLSPlaylist.parse(bytes), !master.variants.isEmpty else { return nil }
        return master.variants.map { stream in
            let url = HLSURI.resolve(stream.uri, against: baseURL)?.absoluteString ?? stream.uri
            return Variant(
                bandwidth: stream.bandwidth, averageBandwidth: stream.averageBandwidth,
                width: stream.resolution?.width, height: stream.resolution?.height,
                codecs: stream.codecs, frameRate: stream.frameRate, url: Redaction.redact(urlString: url)
            )
        }
    }

    /// Whether the first bytes of a download can be a playlist (worth collecting).
    static func looksLikePlaylist(_ prefix: [UInt8]) -> Bool {
        let magic = Array("#EXTM3U".utf8)
        let body = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(prefix.dropFirst(3)) : prefix
        return body.count >= magic.count ? body.starts(with: magic) : magic.starts(with: body)
    }
}
