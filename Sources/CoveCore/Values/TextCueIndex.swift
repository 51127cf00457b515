/// Cues collected as they arrive (the stream's own subtitle rendition, delivered segment by segment):
/// kept sorted by start, duplicates dropped (a seek back delivers the same cues again), bounded.
public struct TextCueIndex: TimedTextCues, Hashable {
    public private(set) var cues: [TextCue] = []
    /// Most cues kept; the earliest go first (a long stream's subtitles are not all needed at once).
    public let capacity: Int

    public init(capacity: Int = 5_000) {
        self.capacity = max(1, capacity)
    }

    /// Adds `cue` unless an identical one is already there. Returns whether it was new.
    @discardableResult
    public mutating func insert(_ cue: TextCue) -> Bool {
        let index = firstIndex(startingAtOrAfter: cue.start)
        var probe = index
        while probe < cues.count, cues[probe].start == cue.start {
            if cues[probe] == cue { return false }
            probe += 1
        }
        cues.insert(cue, at: index)
        if cues.count > capacity { cues.removeFirst(cues.count - capacity) }
        return true
    }

    public func cues(at time: MediaTime) -> [TextCue] {
        // Cues are short: look back from the first cue starting after `time`.
        let end = firstIndex(startingAtOrAfter: time.advanced(by: .nanoseconds(1)))
        return cues[..<end].filter { $0.start <= time && time < $0.end }
    }

    public func nextChange(after time: MediaTime) -> MediaTime? {
        var next: MediaTime?
        for cue in cues {
            if cue.start > time { next = min(next ?? cue.start, cue.start) }
            if cue.end > time { next = min(next ?? cue.end, cue.end) }
        }
        return next
    }

    private func firstIndex(startingAtOrAfter time: MediaTime) -> Int {
        var low = 0
        var high = cues.count
        while low < high {
            let middle = (low + high) / 2
            if cues[middle].start < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
