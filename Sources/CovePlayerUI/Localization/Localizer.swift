/// Looks UI strings up in one language, with the app's overrides, and fills templates.
public struct Localizer: Sendable, Hashable {
    public let language: UILanguage
    public let overrides: LocalizationOverrides

    public init(language: UILanguage = .english, overrides: LocalizationOverrides = LocalizationOverrides()) {
        self.language = language
        self.overrides = overrides
    }

    /// The language best matching `preferredLanguages` among the built-in ones and those the app adds
    /// in `overrides` (see `UILanguage.resolve`).
    public init(preferredLanguages: [String], overrides: LocalizationOverrides = LocalizationOverrides()) {
        let available = UILanguage.builtIn + overrides.addedLanguages
        self.init(language: UILanguage.resolve(preferred: preferredLanguages, available: available), overrides: overrides)
    }

    public var isRightToLeft: Bool { language.isRightToLeft }
    public var layoutDirection: LayoutDirection { language.layoutDirection }

    /// The string for `key`, placeholders unfilled.
    public func string(_ key: UIStringKey) -> String {
        if let text = overrides.text(for: key, in: language) { return text }
        let translations = StringTable.translations(for: key)
        return translations.text(for: language) ?? translations.en
    }

    /// The string for `key` with its placeholders filled; a placeholder without a value stays as written,
    /// so a missing argument shows rather than vanishing.
    public func string(_ key: UIStringKey, _ values: [UIStringPlaceholder: String]) -> String {
        Self.fill(string(key), values)
    }

    /// Replaces each `{placeholder}` in one pass, so a value that itself contains a token is kept as is.
    static func fill(_ template: String, _ values: [UIStringPlaceholder: String]) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
                let placeholder = UIStringPlaceholder(rawValue: String(rest[afterOpen..<close])),
                let value = values[placeholder]
            {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result.append("{")
                rest = rest[afterOpen...]
            }
        }
        result += rest
        return result
    }

    // MARK: Common phrases

    /// "Ad 1 of 2", or "Ad 1 of 2, 0:12 left" when the time left is known.
    public func adCountdown(_ ad: AdPosition) -> String {
        var values: [UIStringPlaceholder: String] = [.index: String(ad.index), .count: String(ad.count)]
        guard let left = ad.timeLeft else { return string(.adCountdown, values) }
        values[.time] = TimeText.clock(left, rounding: .up)
        return string(.adCountdownWithTimeLeft, values)
    }

    /// "Jump back 10 s".
    public func jumpBack(seconds: Int) -> String { string(.jumpBack, [.seconds: String(seconds)]) }

    /// "0:12 left".
    public func timeLeft(_ duration: Duration) -> String { string(.timeLeft, [.time: TimeText.clock(duration, rounding: .up)]) }
}
