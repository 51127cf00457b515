import CovePlayerUI
import Testing

@Suite("Localization")
struct LocalizationTests {
    /// Fails if a built-in language is missing a key (its text would fall back to English), if a text is
    /// blank, or if a translation lost or gained a placeholder.
    @Test(arguments: UILanguage.builtIn)
    func everyKeyIsTranslatedWithTheSamePlaceholders(language: UILanguage) {
        let english = Localizer(language: .english)
        let localizer = Localizer(language: language)
        for key in UIStringKey.allCases {
            let text = localizer.string(key)
            let blank = text.allSatisfy { $0.isWhitespace }
            #expect(!blank, "\(language) \(key) is blank")
            let expected = Set(key.placeholders.map(\.token))
            let found = Set(UIStringPlaceholder.allCases.map(\.token).filter { text.contains($0) })
            #expect(found == expected, "\(language) \(key): placeholders \(found) ≠ \(expected)")
            #expect(Set(UIStringPlaceholder.allCases.map(\.token).filter { english.string(key).contains($0) }) == expected, "English \(key)")
        }
    }

    @Test func theNineLanguagesAreDistinctTranslations() {
        #expect(UILanguage.builtIn.map(\.code) == ["ar", "de", "en", "es", "fr", "ja", "ko", "zh-Hans", "zh-Hant"])
        // A key that differs in every language: a copy-paste from another language would show here.
        let learnMore = UILanguage.builtIn.map { Localizer(language: $0).string(.learnMore) }
        #expect(Set(learnMore).count == 9, "\(learnMore)")
        // Most keys must not be left in English.
        for language in UILanguage.builtIn where language != .english {
            let localizer = Localizer(language: language)
            let untranslated = UIStringKey.allCases.filter { localizer.string($0) == Localizer(language: .english).string($0) }
            #expect(untranslated.count <= 8, "\(language) looks untranslated: \(untranslated)")
        }
    }

    @Test func spotChecks() {
        #expect(Localizer(language: .english).string(.live) == "Live")
        #expect(Localizer(language: .german).string(.learnMore) == "Mehr erfahren")
        #expect(Localizer(language: .french).string(.auto) == "Automatique")
        #expect(Localizer(language: .spanish).string(.off) == "Desactivado")
        #expect(Localizer(language: .japanese).string(.captions) == "字幕")
        #expect(Localizer(language: .korean).string(.play) == "재생")
        #expect(Localizer(language: .simplifiedChinese).string(.pause) == "暂停")
        #expect(Localizer(language: .traditionalChinese).string(.pause) == "暫停")
        #expect(Localizer(language: .arabic).string(.live) == "مباشر")
    }

    @Test(arguments: [
        (["zh-Hant-TW"], "zh-Hant"),
        (["zh-TW"], "zh-Hant"),
        (["zh_HK.UTF-8"], "zh-Hant"),
        (["zh-Hans-CN"], "zh-Hans"),
        (["zh-CN"], "zh-Hans"),
        (["zh"], "zh-Hans"),
        (["pt"], "en"),
        (["pt-BR", "fr-CA"], "fr"),
        (["de_DE.UTF-8"], "de"),
        (["ES-mx"], "es"),
        (["ar-EG"], "ar"),
        (["ja_JP"], "ja"),
        (["ko-KR"], "ko"),
        (["C", "POSIX"], "en"),
        ([], "en"),
    ])
    func preferredLanguagesResolve(preferred: [String], expected: String) {
        #expect(UILanguage.resolve(preferred: preferred).code == expected)
        #expect(Localizer(preferredLanguages: preferred).language.code == expected)
    }

    @Test func linuxEnvironmentGivesThePreferredLanguages() {
        let env = ["LANGUAGE": "pt_BR:ja", "LC_ALL": "", "LANG": "de_DE.UTF-8"]
        #expect(UILanguage.preferredLanguages(environment: env) == ["pt_BR", "ja", "de_DE.UTF-8"])
        #expect(UILanguage.resolve(preferred: UILanguage.preferredLanguages(environment: env)) == .japanese)
        #expect(UILanguage.preferredLanguages(environment: ["LANG": "C.UTF-8"]).isEmpty)
        #expect(UILanguage.preferredLanguages(environment: ["LC_MESSAGES": "fr_FR", "LANG": "en_US"]) == ["fr_FR", "en_US"])
    }

    @Test func overridesWinPerLanguageThenForAllLanguages() throws {
        let overrides = LocalizationOverrides()
            .setting(.learnMore, to: "Visit advertiser")
            .setting(.learnMore, to: "Zum Werbepartner", for: .german)
            .setting(.play, to: "Abspielen", for: .german)
        let german = Localizer(language: .german, overrides: overrides)
        #expect(german.string(.learnMore) == "Zum Werbepartner")
        #expect(german.string(.play) == "Abspielen")
        #expect(german.string(.pause) == "Pause", "keys not overridden keep the built-in text")
        #expect(Localizer(language: .french, overrides: overrides).string(.learnMore) == "Visit advertiser")
        #expect(Localizer(language: .french, overrides: overrides).string(.play) == "Lecture")
        // Overridden templates are filled too.
        let ads = Localizer(language: .english, overrides: LocalizationOverrides().setting(.adCountdown, to: "Sponsor {index}/{count}"))
        let second = try AdPosition(index: 2, count: 3)
        #expect(ads.adCountdown(second) == "Sponsor 2/3")
    }

    @Test func anAppCanAddALanguage() {
        let portuguese = UILanguage("pt")
        let overrides = LocalizationOverrides(strings: [portuguese: [.play: "Reproduzir", .learnMore: "Saiba mais"]])
        let localizer = Localizer(preferredLanguages: ["pt-BR", "en"], overrides: overrides)
        #expect(localizer.language == portuguese)
        #expect(localizer.string(.learnMore) == "Saiba mais")
        #expect(localizer.string(.pause) == "Pause", "keys the app did not supply fall back to English")
        #expect(overrides.addedLanguages == [portuguese])
        #expect(UILanguage("ZH_hant_tw").code == "zh-Hant-TW")
    }

    @Test func placeholdersAreFilledOnceAndMissingOnesStayVisible() {
        let en = Localizer(language: .english)
        #expect(en.string(.captionsSelection, [.name: "{time} English"]) == "Captions: {time} English")
        #expect(en.string(.adCountdownWithTimeLeft, [.index: "1", .count: "2"]) == "Ad 1 of 2, {time} left")
        #expect(en.jumpBack(seconds: 10) == "Jump back 10 s")
        #expect(Localizer(language: .japanese).jumpBack(seconds: 15) == "15秒戻る")
        #expect(en.timeLeft(.milliseconds(11_200)) == "0:12 left")
    }

    @Test func arabicIsRightToLeftAndMirrorsTheBars() {
        for language in UILanguage.builtIn {
            #expect(language.isRightToLeft == (language == .arabic), "\(language)")
        }
        #expect(UILanguage("he").isRightToLeft && UILanguage("fa-IR").isRightToLeft)
        let arabic = Localizer(preferredLanguages: ["ar-SA"])
        #expect(arabic.isRightToLeft && arabic.layoutDirection == .rightToLeft)
        #expect(Localizer(language: .english).layoutDirection == .leftToRight)

        let layout = ControlLayout.vod
        let rtl = layout.fit(width: 80, direction: arabic.layoutDirection)[0]
        let ltr = layout.fit(width: 80)[0]
        #expect(rtl.frames.map(\.view.tag) == Array(ltr.frames.map(\.view.tag).reversed()))
        #expect(rtl.frame(of: .playback)?.maxX == 80, "play/pause sits at the right edge")
        #expect(rtl.frame(of: .screenMode)?.x == 0)
    }

    @Test func timeText() {
        #expect(TimeText.clock(.zero) == "0:00")
        #expect(TimeText.clock(.milliseconds(12_900)) == "0:12")
        #expect(TimeText.clock(.milliseconds(12_100), rounding: .up) == "0:13")
        #expect(TimeText.clock(.seconds(12), rounding: .up) == "0:12")
        #expect(TimeText.clock(.seconds(754)) == "12:34")
        #expect(TimeText.clock(.seconds(3723)) == "1:02:03")
        #expect(TimeText.clock(.seconds(-30)) == "-0:30")
        #expect(TimeText.clock(.milliseconds(-400)) == "0:00")
    }

    @Test func terminalColumns() {
        #expect(TerminalColumns.width(of: "Live") == 4)
        #expect(TerminalColumns.width(of: "字幕") == 4)
        #expect(TerminalColumns.width(of: "자막") == 4)
        #expect(TerminalColumns.width(of: "ライブ") == 6)
        #expect(TerminalColumns.width(of: "مباشر") == 5)
        #expect(TerminalColumns.width(of: "e\u{301}") == 1)
        #expect(TerminalColumns.width(of: "全螢幕") == 6)
    }
}

@Suite("Sizing controls for localized text")
struct LabelSizingTests {
    @Test func textViewsAreWidenedForLongerTranslationsButNeverNarrowed() {
        let ad = ControlLayout.advertising(mediaType: .audioVideo).settingRemoved(false, for: .learnMore)
        let german = ad.sizedForText(Localizer(language: .german))
        let learnMore = german.standardBars[0].views.first(where: { $0.tag == .learnMore })
        #expect(learnMore?.width == TerminalColumns.width(of: "Mehr erfahren") + 2)
        let countdown = german.standardBars[0].views.first(where: { $0.tag == .adPodCountdown })
        #expect(countdown?.width == TerminalColumns.width(of: "Werbung 9 von 9, noch 0:00") + 2)

        let japanese = ad.sizedForText(Localizer(language: .japanese))
        #expect(japanese.standardBars[0].views.first(where: { $0.tag == .learnMore })?.width == ControlTag.learnMore.defaultWidth, "詳細 fits the default")

        let live = ControlLayout.live.sizedForText(Localizer(language: .spanish))
        #expect(live.standardBars[0].views.first(where: { $0.tag == .live })?.width == 15, "'Ir al directo' (longer than '● En directo') + padding")
        #expect(ControlLayout.vod.sizedForText(Localizer(language: .french)) == .vod, "no text views in the VOD layout")
        // Every language's supplied layouts still fit 80 and 40 columns without dropping anything.
        for language in UILanguage.builtIn {
            for kind in SuppliedLayout.allCases {
                let sized = kind.layout.sizedForText(Localizer(language: language))
                #expect(sized.fit(width: 80).allSatisfy { $0.dropped.isEmpty }, "\(language) \(kind)")
                #expect(sized.fit(width: 40).allSatisfy { $0.dropped.isEmpty }, "\(language) \(kind)")
            }
        }
    }
}
