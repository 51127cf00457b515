import Foundation

/// A DASH Media Presentation Description as values (ISO/IEC 23009-1), read by `MPD.parse`: what the
/// streaming engine needs to place segments on a timeline, with inherited values (segment information,
/// base URLs) already resolved down to each representation.
public struct MPD: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// VOD: the whole presentation is described once.
        case `static`
        /// Live: segments become available over time and the MPD is reloaded.
        case dynamic
    }

    public let kind: Kind
    /// The manifest's URL (after redirects): every relative URL was resolved against it or its `BaseURL`s.
    public let url: URL
    /// Seconds.
    public let mediaPresentationDuration: Double?
    public let minBufferTime: Double?
    /// Seconds since 1970 (live: when the first segment of the first period became available).
    public let availabilityStartTime: Double?
    public let publishTime: Double?
    public let timeShiftBufferDepth: Double?
    public let minimumUpdatePeriod: Double?
    public let suggestedPresentationDelay: Double?
    public let maxSegmentDuration: Double?
    /// `Location`: where to reload the MPD from, when the server moved it.
    public let location: URL?
    public let periods: [Period]
}

/// One period: a span of the presentation with its own adaptation sets (an ad break, a chapter).
public struct Period: Sendable, Hashable {
    public let id: String?
    /// Start on the presentation timeline, in seconds (explicit, or where the previous period ended).
    public let start: Double
    /// Seconds, when known (explicit, or up to the next period's start or the presentation's end).
    public let duration: Double?
    public let adaptationSets: [AdaptationSet]

    public var end: Double? { duration.map { start + $0 } }
}

/// The kind of media an adaptation set holds.
public enum ContentType: String, Sendable, Hashable {
    case video, audio, text, image, other
}

/// Interchangeable encodings of one media component (the video ladder, one audio language).
public struct AdaptationSet: Sendable, Hashable {
    public let id: String?
    public let contentType: ContentType
    public let mimeType: String?
    public let language: String?
    public let label: String?
    /// `Role@value`s (`main`, `alternate`, `subtitle`, `caption`, …).
    public let roles: [String]
    /// Protection schemes declared on the set or on any of its representations.
    public let contentProtections: [ContentProtection]
    public let representations: [Representation]

    /// A set the manifest marks as the main one (`Role` `main`).
    public var isMain: Bool { roles.contains("main") }
}

/// A `ContentProtection` descriptor: which key system the content needs.
public struct ContentProtection: Sendable, Hashable {
    public let schemeIdUri: String
    public let value: String?
    /// `cenc:default_KID`, when given.
    public let defaultKID: String?
    /// The `cenc:pssh` child: a whole `pssh` box (decoded from base64; at most 64 KiB), when given.
    public let pssh: [UInt8]?

    public init(schemeIdUri: String, value: String?, defaultKID: String?, pssh: [UInt8]? = nil) {
        self.schemeIdUri = schemeIdUri
        self.value = value
        self.defaultKID = defaultKID
        self.pssh = pssh
    }

    /// The common name of the key system the scheme URI names (`Widevine`, `PlayReady`, …), or the URI.
    public var keySystemName: String {
        switch schemeIdUri.lowercased() {
        case "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed": return "Widevine"
        case "urn:uuid:9a04f079-9840-4286-ab92-e65be0885f95": return "PlayReady"
        case "urn:uuid:94ce86fb-07ff-4f43-adb8-93d2fa968ca2": return "FairPlay"
        case "urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e": return "ClearKey"
        case "urn:uuid:1077efec-c0b2-4d02-ace3-3c1e52e2fb4b": return "ClearKey (W3C common)"
        case "urn:mpeg:dash:mp4protection:2011": return "MPEG Common Encryption (\(value ?? "cenc"))"
        default: return schemeIdUri
        }
    }

    /// `urn:mpeg:dash:mp4protection:2011` only says the content is CENC-encrypted; the key systems are
    /// the other descriptors.
    public var isCommonEncryptionSignal: Bool { schemeIdUri.lowercased() == "urn:mpeg:dash:mp4protection:2011" }
}

/// One encoding: a bitrate and resolution of the set's media.
public struct Representation: Sendable, Hashable {
    public let id: String
    /// Bits per second.
    public let bandwidth: Int
    public let width: Int?
    public let height: Int?
    public let frameRate: Double?
    /// RFC 6381 codec strings (`avc1.64001f`, `mp4a.40.2`).
    public let codecs: [String]
    public let mimeType: String?
    public let audioSamplingRate: Int?
    /// Where its segments live: the `BaseURL`s from the MPD down to here, resolved.
    public let baseURL: URL
    public let addressing: SegmentAddressing
}

/// How a representation names its segments (its inherited segment information, merged).
public enum SegmentAddressing: Sendable, Hashable {
    case template(SegmentTemplate)
    case list(SegmentList)
    /// One file, indexed by a `sidx` box at `indexRange` (or not indexed at all: one segment).
    case base(SegmentBase)
}

/// An inclusive byte range (`first-last`, as `indexRange` and `mediaRange` write it).
public struct ByteRange: Sendable, Hashable {
    public let first: Int
    public let last: Int
    public var length: Int { last - first + 1 }

    public init(first: Int, last: Int) {
        self.first = first
        self.last = max(last, first)
    }
}

/// A URL with an optional byte range (`Initialization`, `SegmentURL`).
public struct URLWithRange: Sendable, Hashable {
    public let url: URL
    public let range: ByteRange?
}

/// `SegmentTimeline`'s `S` element: `r` repeats of duration `d` from time `t`.
public struct TimelineEntry: Sendable, Hashable {
    public let time: UInt64?
    public let duration: UInt64
    /// Repeats after the first; -1 means up to the next entry, the period's end or (live) now.
    public let repeatCount: Int
}

public struct SegmentTemplate: Sendable, Hashable {
    public let media: String
    public let initialization: String?
    public let startNumber: Int
    public let endNumber: Int?
    public let timescale: UInt64
    /// Constant segment duration, in `timescale` units (when there is no timeline).
    public let duration: UInt64?
    public let presentationTimeOffset: UInt64
    public let timeline: [TimelineEntry]?
}

public struct SegmentList: Sendable, Hashable {
    public let initialization: URLWithRange?
    public let segments: [URLWithRange]
    public let startNumber: Int
    public let timescale: UInt64
    public let duration: UInt64?
    public let presentationTimeOffset: UInt64
    public let timeline: [TimelineEntry]?
}

public struct SegmentBase: Sendable, Hashable {
    public let initialization: URLWithRange?
    /// Where the `sidx` box is in the representation's file.
    public let indexRange: ByteRange?
    public let timescale: UInt64
    public let presentationTimeOffset: UInt64
}
