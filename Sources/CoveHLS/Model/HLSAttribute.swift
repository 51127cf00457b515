/// An attribute Cove does not model (`PROGRAM-ID`, `PATHWAY-ID`, a DATERANGE `X-…` client
/// attribute), kept in order so the writer can put it back and apps can still read it.
public struct HLSAttribute: Sendable, Hashable {
    public let name: String
    public let value: HLSAttributeValue

    public init(name: String, value: HLSAttributeValue) {
        self.name = name
        self.value = value
    }
}

/// An attribute value as written: quoted strings lose their quotes, everything else (numbers,
/// enumerated strings, hex sequences, resolutions) stays the exact text of the playlist.
public enum HLSAttributeValue: Sendable, Hashable {
    case quoted(String)
    case unquoted(String)

    /// The text without quotes.
    public var text: String {
        switch self {
        case .quoted(let text), .unquoted(let text): return text
        }
    }
}
