#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Resolving playlist URIs. Playlists keep URIs exactly as written (they may be relative, carry
/// tokens, or use schemes like `skd://`); resolution happens when something is fetched.
public enum HLSURI {
    /// The longest URI `resolve` attempts; longer ones are refused rather than handed to Foundation.
    public static let maxLength = 16 * 1024

    /// `uri` resolved against `base` (RFC 3986 section 5.2), or nil when it is empty, too long,
    /// contains control characters, or is not a URI. Never traps.
    public static func resolve(_ uri: String, against base: URL) -> URL? {
        let utf8 = uri.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength,
            !utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
        else { return nil }
        return URL(string: uri, relativeTo: base)?.absoluteURL
    }
}
