import Foundation

/// GStreamer hands subtitles on as Pango markup (`<i>`, `<b>`, `<span …>`, XML escapes): the app gets
/// the plain text, like a sidecar track's cue text.
enum PangoMarkup {
    static func plainText(_ markup: String) -> String {
        var text = ""
        var inTag = false
        for character in markup {
            if character == "<" { inTag = true; continue }
            if character == ">" && inTag { inTag = false; continue }
            if !inTag { text.append(character) }
        }
        for (escaped, plain) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: escaped, with: plain)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
