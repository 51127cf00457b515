import Foundation

/// An audio or text rendition the viewer can choose (the seed's `AVMediaSelectionOption`).
public struct MediaTrack: Sendable, Hashable, Identifiable {
    public enum Kind: String, Sendable, Hashable { case audio, text }

    /// Stable within a session: the engine's stream id, or a sidecar track's id.
    public let id: String
    public let kind: Kind
    /// BCP-47 language code, when declared.
    public let language: String?
    /// The rendition's own name (HLS `NAME`, a sidecar `label`).
    public let title: String?
    public let codec: String?
    /// True for captions/SDH tracks (accessibility characteristics, or `kind: captions`).
    public let isAccessibility: Bool
    public let isDefault: Bool

    public init(
        id: String, kind: Kind, language: String? = nil, title: String? = nil, codec: String? = nil, isAccessibility: Bool = false, isDefault: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.language = language
        self.title = title
        self.codec = codec
        self.isAccessibility = isAccessibility
        self.isDefault = isDefault
    }

    /// A copy with `isDefault` set.
    func markedDefault(_ value: Bool) -> MediaTrack {
        MediaTrack(id: id, kind: kind, language: language, title: title, codec: codec, isAccessibility: isAccessibility, isDefault: value)
    }

    /// The language's name in English plus "SDH" for accessibility tracks, falling back to the title
    /// (the seed's `displayNameFromLegibleMediaSelectionOption`).
    public var displayName: String {
        var name = language.flatMap { Locale(identifier: "en").localizedString(forLanguageCode: $0) } ?? title ?? language ?? "Unknown language"
        if isAccessibility { name += " SDH" }
        return name
    }
}

/// The tracks of one kind and whether "none" is a valid choice (text yes, audio no).
public struct MediaTrackGroup: Sendable, Hashable {
    public let kind: MediaTrack.Kind
    public let tracks: [MediaTrack]
    public let allowsEmptySelection: Bool

    public init(kind: MediaTrack.Kind, tracks: [MediaTrack]) {
        self.kind = kind
        self.tracks = tracks
        self.allowsEmptySelection = kind == .text
    }

    public var isEmpty: Bool { tracks.isEmpty }

    /// The first track whose language matches one of `languages` (by primary subtag), in preference order.
    public func track(preferring languages: [String]) -> MediaTrack? {
        for wanted in languages {
            let primary = wanted.split(separator: "-").first.map(String.init)?.lowercased() ?? wanted.lowercased()
            if let match = tracks.first(where: { ($0.language?.split(separator: "-").first.map(String.init)?.lowercased()) == primary }) {
                return match
            }
        }
        return nil
    }
}
