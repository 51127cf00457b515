import CoveCore

/// A parsed WebVTT document as the controller's `TimedTextCues`: cue lookups through the document's
/// interval index, and the sorted cue boundaries for "when does the active set next change".
public struct WebVTTTimedText: TimedTextCues {
    public let document: WebVTTDocument
    private let boundaries: [Int64]

    public init(_ document: WebVTTDocument) {
        self.document = document
        var times = Set<Int64>()
        // A cue whose end is not after its start (kept, as the spec says) is never active, so
        // its times change nothing.
        for cue in document.cues where cue.start < cue.end {
            times.insert(Self.nanoseconds(cue.start))
            times.insert(Self.nanoseconds(cue.end))
        }
        boundaries = times.sorted()
    }

    public func cues(at time: MediaTime) -> [TextCue] {
        guard time.isFinite else { return [] }
        return document.cues(at: time.seconds).map { cue in
            TextCue(
                identifier: cue.identifier, start: MediaTime(nanoseconds: Self.nanoseconds(cue.start)),
                end: MediaTime(nanoseconds: Self.nanoseconds(cue.end)), text: cue.text, settings: cue.settings.raw
            )
        }
    }

    /// WebVTT allows hours beyond any real media; those saturate instead of overflowing.
    static func nanoseconds(_ timestamp: WebVTTTimestamp) -> Int64 {
        let (value, overflow) = timestamp.milliseconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? Int64.max : value
    }

    public func nextChange(after time: MediaTime) -> MediaTime? {
        guard let now = time.nanoseconds else { return nil }
        var low = 0
        var high = boundaries.count
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] <= now { low = middle + 1 } else { high = middle }
        }
        return low < boundaries.count ? MediaTime(nanoseconds: boundaries[low]) : nil
    }
}
