/// The entry point for fuzzers (libFuzzer, AFL, the mutation tests): any bytes either parse or
/// throw, and whatever parses must satisfy the document's invariants and survive
/// write → parse unchanged.
package enum WebVTTFuzz {
    /// Traps with a description when `check` finds a violation.
    package static func run(_ bytes: [UInt8]) {
        if let violation = check(bytes) {
            preconditionFailure("CoveText invariant violated: \(violation)")
        }
    }

    /// The first invariant `bytes` violates, or nil. Tests call this to record failures
    /// instead of trapping.
    package static func check(_ bytes: [UInt8]) -> String? {
        let options = WebVTTParseOptions(keepNotes: true)
        let document: WebVTTDocument
        do {
            document = try WebVTT.parse(bytes, options: options)
        } catch {
            return error.detail.isEmpty || error.advice.isEmpty ? "error without a message: \(error.kind)" : nil
        }
        return checkCues(document) ?? checkLookup(document) ?? checkMarkup(bytes, document) ?? checkRoundTrip(document)
            ?? checkThumbnails(document)
    }

    private static func checkCues(_ document: WebVTTDocument) -> String? {
        for (index, cue) in document.cues.enumerated() {
            // The spec keeps a cue whose end is not after its start; it must never be active.
            guard cue.start < cue.end || !cue.isActive(at: cue.startSeconds) else { return "cue \(index) without a duration is active" }
            guard ![cue.identifier ?? "", cue.payload, cue.settings.raw].contains(where: hasNUL) else { return "cue \(index) kept a NUL character" }
            guard cue.startSeconds.isFinite, cue.endSeconds.isFinite, cue.startSeconds >= 0 else { return "cue \(index) has a non-finite time" }
            guard cue.identifier.map({ !$0.isEmpty && !$0.contains("-->") }) ?? true else { return "cue \(index) has an invalid identifier" }
            guard !cue.payload.contains("\n\n"), !cue.payload.contains("-->") else { return "cue \(index) has a payload that cannot be written" }
            guard cue.text == WebVTTCueText.plainText(cue.payload) else { return "cue \(index) text is not the plain payload" }
        }
        // The spec's preprocessing replaces every NUL, so none reaches the document.
        let texts = [document.headerText] + document.headerLines + document.notes + document.styleSheets + document.regions.map(\.raw)
        guard !texts.contains(where: hasNUL) else { return "the document kept a NUL character" }
        guard document.noteCount >= document.notes.count else { return "more notes kept than counted" }
        guard Set(document.regions.map(\.id)).count == document.regions.count else { return "duplicate region ids" }
        return nil
    }

    /// `cues(at:)` against a linear scan, at times around the cues' edges.
    private static func checkLookup(_ document: WebVTTDocument) -> String? {
        for time in sampleTimes(document.cues.map { ($0.startSeconds, $0.endSeconds) }) {
            let found = document.cues(at: time)
            let expected = time.isNaN ? [] : document.cues.filter { $0.isActive(at: time) }
            guard counts(found) == counts(expected) else { return "cues(at: \(time)) found \(found.count), a scan finds \(expected.count)" }
            guard zip(found, found.dropFirst()).allSatisfy({ $0.start <= $1.start }) else { return "cues(at: \(time)) is not in start order" }
        }
        return nil
    }

    private static func checkMarkup(_ bytes: [UInt8], _ document: WebVTTDocument) -> String? {
        guard let markup = try? WebVTT.parse(bytes, options: WebVTTParseOptions(cueText: .markup, keepNotes: true)) else {
            return "parses with plain text but not with markup"
        }
        guard markup.cues.map(\.payload) == document.cues.map(\.payload), markup.cues.allSatisfy({ $0.text == $0.payload }) else {
            return "markup parse differs from the plain one"
        }
        return nil
    }

    private static func checkRoundTrip(_ document: WebVTTDocument) -> String? {
        let written = document.serialized()
        var options = WebVTTParseOptions(keepNotes: true)
        // Writing normalises times and spacing, so the text may grow a little.
        options.limits.maxBytes = .max
        options.limits.maxLineLength = .max
        let reparsed: WebVTTDocument
        do {
            reparsed = try WebVTT.parse(written, options: options)
        } catch {
            return "wrote a document it cannot read back: \(error)\n--- written ---\n\(written)"
        }
        guard reparsed.headerText == document.headerText, reparsed.headerLines == document.headerLines,
            reparsed.timestampMap == document.timestampMap, reparsed.regions == document.regions,
            reparsed.styleSheets == document.styleSheets, reparsed.notes == document.notes,
            reparsed.cues == document.cues
        else { return "round trip changed the document\n--- written ---\n\(written)" }
        guard reparsed.serialized() == written else { return "writing is not idempotent\n--- written ---\n\(written)" }
        return nil
    }

    private static func checkThumbnails(_ document: WebVTTDocument) -> String? {
        let track = ThumbnailTrack(document: document, baseURL: "https://cdn.example/video/1/thumbs.vtt?token=x")
        guard track.entries.count <= document.cues.count else { return "more thumbnails than cues" }
        for entry in track.entries {
            guard entry.rect.map({ $0.width > 0 && $0.height > 0 }) ?? true else { return "bad thumbnail entry" }
            guard !entry.imageURL.contains("#") else { return "thumbnail URL kept its fragment" }
        }
        for time in sampleTimes(track.entries.map { ($0.startSeconds, $0.endSeconds) }) {
            let active = track.entries.filter { $0.startSeconds <= time && time < $0.endSeconds }
            let found = track.thumbnail(at: time)
            guard (found == nil) == active.isEmpty else { return "thumbnail(at: \(time)) disagrees with a scan" }
            if let found, found.start != active.map(\.start).max() { return "thumbnail(at: \(time)) is not the latest started" }
        }
        return nil
    }

    /// Boundaries, midpoints and points just inside and outside a spread of up to 32 intervals.
    private static func sampleTimes(_ intervals: [(Double, Double)]) -> [Double] {
        var times: [Double] = [-1, 0, .nan, .infinity, -.infinity]
        let step = max(1, intervals.count / 32)
        for index in stride(from: 0, to: intervals.count, by: step) {
            let (start, end) = intervals[index]
            times += [start, end, (start + end) / 2, start - 0.0005, end - 0.0005, end + 0.0005]
        }
        return times
    }

    private static func hasNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    private static func counts(_ cues: [WebVTTCue]) -> [WebVTTCue: Int] {
        cues.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}
