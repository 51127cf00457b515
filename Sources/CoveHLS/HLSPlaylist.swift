/// An HLS playlist (RFC 8216, plus `EXT-X-GAP`, `EXT-X-DATERANGE` and the other tags players
/// commonly meet), parsed from bytes by a pure, bounded function and written back to text.
public enum HLSPlaylist: Sendable, Hashable {
    case master(MasterPlaylist)
    case media(MediaPlaylist)

    /// Parses a playlist. Never traps: anything the RFC does not allow, anything over `limits`,
    /// and anything ambiguous throws an `HLSParseError` naming the line and what to do.
    ///
    /// Accepts an optional UTF-8 byte-order mark, LF or CRLF line endings, and spaces or tabs
    /// around a line (they are trimmed). Blank lines and `#` comments are ignored; unknown
    /// `#EXT` tags are kept verbatim.
    public static func parse(_ bytes: some Collection<UInt8>, limits: HLSParseLimits = .init()) throws(HLSParseError) -> HLSPlaylist {
        // Refuse oversized input before copying it.
        let count = bytes.count
        try limits.check(.maxBytes, count, detail: "The playlist is \(count) bytes; the limit is \(limits.maxBytes).")
        return try PlaylistParser.parse(Array(bytes), limits: limits)
    }

    /// Parses playlist text (for tests, literals and playlists already decoded).
    public static func parse(_ text: String, limits: HLSParseLimits = .init()) throws(HLSParseError) -> HLSPlaylist {
        try parse(Array(text.utf8), limits: limits)
    }

    /// The playlist as text. `parse(serialized())` gives back an equal value for every parsed
    /// playlist; see `MediaPlaylist.serialized()` for the normalisation applied.
    public func serialized() -> String {
        switch self {
        case .master(let playlist): return playlist.serialized()
        case .media(let playlist): return playlist.serialized()
        }
    }

    public var master: MasterPlaylist? {
        if case .master(let playlist) = self { return playlist }
        return nil
    }

    public var media: MediaPlaylist? {
        if case .media(let playlist) = self { return playlist }
        return nil
    }
}
