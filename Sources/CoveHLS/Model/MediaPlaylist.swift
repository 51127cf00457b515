/// A media playlist: the segments of one rendition.
public struct MediaPlaylist: Sendable, Hashable {
    public let version: Int?
    /// `EXT-X-TARGETDURATION`, in whole seconds.
    public let targetDuration: Int
    /// `EXT-X-MEDIA-SEQUENCE`: the sequence number of the first segment.
    public let mediaSequence: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE`: the discontinuity number of the first segment.
    public let discontinuitySequence: Int
    public let playlistType: PlaylistType?
    /// `EXT-X-ENDLIST` is present: no segments will be added.
    public let hasEndList: Bool
    public let isIFramesOnly: Bool
    public let hasIndependentSegments: Bool
    public let start: StartPoint?
    /// Segments in playlist order, each numbered and timed.
    public let segments: [MediaSegment]
    /// Every `EXT-X-DATERANGE`, in playlist order. Their position among segments is not kept:
    /// a date range is placed by its `START-DATE`, not by where it is written.
    public let dateRanges: [DateRange]
    /// Tags after the last segment that belong to none, kept verbatim: unrecognised tags, and
    /// segment tags (a key rotation, a discontinuity) announced for a segment not yet listed.
    public let unknownTags: [String]

    /// Numbers and times the segments from `mediaSequence`, `discontinuitySequence` and their
    /// durations, whatever values they carried before.
    public init(
        version: Int? = nil, targetDuration: Int, mediaSequence: Int = 0, discontinuitySequence: Int = 0,
        playlistType: PlaylistType? = nil, hasEndList: Bool = false, isIFramesOnly: Bool = false,
        hasIndependentSegments: Bool = false, start: StartPoint? = nil, segments: [MediaSegment],
        dateRanges: [DateRange] = [], unknownTags: [String] = []
    ) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.isIFramesOnly = isIFramesOnly
        self.hasIndependentSegments = hasIndependentSegments
        self.start = start
        self.dateRanges = dateRanges
        self.unknownTags = unknownTags
        var placed = segments
        var time = 0.0
        var discontinuity = discontinuitySequence
        for index in placed.indices {
            if placed[index].isDiscontinuity { discontinuity = discontinuity.addingReportingOverflow(1).partialValue }
            placed[index].mediaSequence = mediaSequence.addingReportingOverflow(index).partialValue
            placed[index].discontinuitySequence = discontinuity
            placed[index].startTime = time
            time += placed[index].duration
        }
        self.segments = placed
    }

    /// No `EXT-X-ENDLIST`: the server may still add segments, so the playlist must be reloaded.
    public var isLive: Bool { !hasEndList }

    /// The sum of all segment durations, in seconds.
    public var totalDuration: Double { segments.last.map(\.endTime) ?? 0 }

    /// The segment playing at `time` seconds from the playlist start, if any.
    public func segment(at time: Double) -> MediaSegment? {
        guard time >= 0, let last = segments.last, time < last.endTime else { return nil }
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].startTime <= time { low = middle } else { high = middle - 1 }
        }
        return segments[low]
    }
}
