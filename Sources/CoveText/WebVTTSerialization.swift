extension WebVTTDocument {
    /// The document as WebVTT text, LF line endings, times always with hours.
    ///
    /// Parsing the result (with `keepNotes` and limits no tighter than the original's) gives back
    /// the same header, regions, style sheets, notes and cues. Skipped cues and ignored blocks are
    /// not written, and order is normalised: regions, style sheets and notes come before the cues
    /// (the only place the spec allows the first two).
    public func serialized() -> String {
        var out = "WEBVTT"
        if !headerText.isEmpty { out += " " + headerText }
        out += "\n"
        for line in headerLines { out += line + "\n" }
        out += "\n"
        for region in regions { out += "REGION\n" + region.raw + "\n\n" }
        for styleSheet in styleSheets { out += "STYLE\n" + styleSheet + "\n\n" }
        for note in notes { out += note.isEmpty ? "NOTE\n\n" : "NOTE\n" + note + "\n\n" }
        for cue in cues {
            if let identifier = cue.identifier { out += identifier + "\n" }
            out += cue.start.description + " --> " + cue.end.description
            if !cue.settings.raw.isEmpty { out += " " + cue.settings.raw }
            out += "\n"
            if !cue.payload.isEmpty { out += cue.payload + "\n" }
            out += "\n"
        }
        return out
    }
}
