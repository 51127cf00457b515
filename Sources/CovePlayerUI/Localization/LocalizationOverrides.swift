/// The app's own strings: replacements for built-in ones, per key and per language or for every
/// language, and whole extra languages (the seed's app-supplied `BrightcoveSDK.strings`).
///
/// Looking a key up in language L tries, in order: the app's string for (L, key), the app's string for
/// (every language, key), the built-in string for (L, key), the built-in English string.
public struct LocalizationOverrides: Sendable, Hashable {
    /// Per-language strings.
    public let strings: [UILanguage: [UIStringKey: String]]
    /// Strings for every language (applied when no per-language string exists).
    public let allLanguages: [UIStringKey: String]

    public init(strings: [UILanguage: [UIStringKey: String]] = [:], allLanguages: [UIStringKey: String] = [:]) {
        self.strings = strings
        self.allLanguages = allLanguages
    }

    /// The same overrides plus `text` for `key` in `language` (nil: every language).
    public func setting(_ key: UIStringKey, to text: String, for language: UILanguage? = nil) -> LocalizationOverrides {
        guard let language else {
            var all = allLanguages
            all[key] = text
            return LocalizationOverrides(strings: strings, allLanguages: all)
        }
        var perLanguage = strings
        perLanguage[language, default: [:]][key] = text
        return LocalizationOverrides(strings: perLanguage, allLanguages: allLanguages)
    }

    /// Languages the app supplies strings for, beyond the built-in ones.
    public var addedLanguages: [UILanguage] {
        strings.keys.filter { !UILanguage.builtIn.contains($0) }.sorted { $0.code < $1.code }
    }

    func text(for key: UIStringKey, in language: UILanguage) -> String? {
        strings[language]?[key] ?? allLanguages[key]
    }
}
