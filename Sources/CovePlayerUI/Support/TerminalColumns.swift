/// How many terminal columns text takes, so localized labels can be sized for a bar: Chinese, Japanese
/// and Korean characters take two columns, combining marks none.
///
/// An approximation of Unicode's East Asian Width (wide and fullwidth ranges) that matches what common
/// terminals do for the scripts the UI is localized in; it does not try to be `wcwidth` for all of Unicode.
public enum TerminalColumns: Sendable {
    public static func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initials
        0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE30...0xFE4F,  // CJK compatibility forms
        0xFF00...0xFF60,  // Fullwidth forms
        0xFFE0...0xFFE6,  // Fullwidth signs
        0x20000...0x2FFFD,  // CJK extensions B…
        0x30000...0x3FFFD,
    ]
}
