/// A UI language, named by its BCP 47 code ("en", "zh-Hant"). The nine the SDK ships are constants; an
/// app can add others by supplying strings for them (`LocalizationOverrides`), as the seed lets an app
/// add its own `BrightcoveSDK.strings` languages.
public struct UILanguage: Sendable, Hashable, CustomStringConvertible {
    /// The code, in canonical case: lower-case language, title-case script, upper-case region.
    public let code: String

    public init(_ code: String) {
        self.code = Self.canonical(code)
    }

    public static let arabic = UILanguage("ar")
    public static let german = UILanguage("de")
    public static let english = UILanguage("en")
    public static let spanish = UILanguage("es")
    public static let french = UILanguage("fr")
    public static let japanese = UILanguage("ja")
    public static let korean = UILanguage("ko")
    public static let simplifiedChinese = UILanguage("zh-Hans")
    public static let traditionalChinese = UILanguage("zh-Hant")

    /// The seed's nine languages, each with every string.
    public static let builtIn: [UILanguage] = [
        .arabic, .german, .english, .spanish, .french, .japanese, .korean, .simplifiedChinese, .traditionalChinese,
    ]

    /// The language subtag ("zh" for "zh-Hant").
    public var languageSubtag: String { String(code.split(separator: "-").first ?? "") }

    /// Arabic, Hebrew, Persian, Urdu and the other right-to-left scripts' languages.
    public var isRightToLeft: Bool { Self.rightToLeftLanguages.contains(languageSubtag) }

    public var layoutDirection: LayoutDirection { isRightToLeft ? .rightToLeft : .leftToRight }

    public var description: String { code }

    private static let rightToLeftLanguages: Set<String> = ["ar", "he", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"]

    /// The first of `preferred` (most preferred first) that one of `available` serves, else English
    /// (else the first available).
    ///
    /// Each preferred tag is tried as language-script-region, language-script, language-region, then
    /// language. Chinese without a script gets one from its region: TW, HK and MO are Traditional, the
    /// rest Simplified. POSIX locale names work too ("de_DE.UTF-8", "sr_RS@latin"); "C" and "POSIX" are
    /// skipped. So "zh-Hant-TW" and "zh_TW" give zh-Hant, "fr-CA" gives fr, and "pt" gives English.
    public static func resolve(preferred: [String], available: [UILanguage] = builtIn) -> UILanguage {
        let byCode = Dictionary(available.map { ($0.code.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for tag in preferred {
            for candidate in candidates(for: tag) {
                if let match = byCode[candidate.lowercased()] { return match }
            }
        }
        return available.contains(.english) ? .english : (available.first ?? .english)
    }

    /// The languages a Linux user asked for, most preferred first: `LANGUAGE` (a colon-separated list,
    /// honoured as gettext does), then `LC_ALL`, `LC_MESSAGES`, `LANG`.
    public static func preferredLanguages(environment: [String: String]) -> [String] {
        var result: [String] = []
        if let list = environment["LANGUAGE"] {
            result += list.split(separator: ":").map(String.init)
        }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { result.append(value) }
        }
        return result.filter { !isPOSIXDefault($0) }
    }

    private static func isPOSIXDefault(_ tag: String) -> Bool {
        let base = tag.split(separator: ".").first.map(String.init) ?? tag
        return base == "C" || base == "POSIX" || base.isEmpty
    }

    /// Match candidates for one preferred tag, most specific first.
    static func candidates(for tag: String) -> [String] {
        guard !isPOSIXDefault(tag) else { return [] }
        // Drop the POSIX encoding and modifier, then split on either separator.
        let trimmed = tag.split(separator: ".").first.map(String.init) ?? tag
        let base = trimmed.split(separator: "@").first.map(String.init) ?? trimmed
        let parts = base.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first?.lowercased(), !language.isEmpty else { return [] }
        var script: String?
        var region: String?
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter), script == nil, region == nil {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if (part.count == 2 && part.allSatisfy(\.isLetter)) || (part.count == 3 && part.allSatisfy(\.isNumber)), region == nil {
                region = part.uppercased()
            }
        }
        if language == "zh", script == nil {
            script = ["TW", "HK", "MO"].contains(region ?? "") ? "Hant" : "Hans"
        }
        var result: [String] = []
        if let script, let region { result.append("\(language)-\(script)-\(region)") }
        if let script { result.append("\(language)-\(script)") }
        if let region { result.append("\(language)-\(region)") }
        result.append(language)
        return result
    }

    private static func canonical(_ code: String) -> String {
        let parts = code.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = parts.first else { return code }
        var result = [first.lowercased()]
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter) {
                result.append(part.prefix(1).uppercased() + part.dropFirst().lowercased())
            } else if part.count == 2 {
                result.append(part.uppercased())
            } else {
                result.append(part)
            }
        }
        return result.joined(separator: "-")
    }
}
