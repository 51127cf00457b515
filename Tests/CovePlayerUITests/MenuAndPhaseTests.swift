import CoveCore
import CovePlayerUI
import Testing

@Suite("Bitrate menu")
struct BitrateMenuTests {
    @Test func anAutoEntryIsAddedFirstWhenNoOptionHasBitrateZero() throws {
        let menu = try BitrateMenu(
            title: "Select an Option",
            options: [
                BitrateOption(title: "Setting 1", bitrate: 800_000), BitrateOption(title: "Setting 2", bitrate: 2_500_000),
            ])
        #expect(menu.options.map(\.title) == ["Auto", "Setting 1", "Setting 2"])
        #expect(menu.options[0].bitrate == 0 && menu.options[0].isAutomatic)
        #expect(menu.initialSelection == 0, "no initial selection: automatic")
        #expect(menu.displayTitle(Localizer()) == "Select an Option")
    }

    @Test func anAppsOwnZeroEntryIsKeptWhereItIs() throws {
        let options = [BitrateOption(title: "Low", bitrate: 400_000), BitrateOption(title: "Best available", bitrate: 0)]
        let menu = try BitrateMenu(options: options)
        #expect(menu.options == options)
        #expect(menu.initialSelection == 1)
        #expect(menu.index(ofBitrate: 400_000) == 0)
        #expect(menu.displayTitle(Localizer(language: .german)) == "Bitrate")
    }

    @Test func theInitialSelectionIndexesTheAppsOptions() throws {
        let options = [BitrateOption(title: "Low", bitrate: 400_000), BitrateOption(title: "High", bitrate: 2_000_000)]
        let shifted = try BitrateMenu(options: options, initialSelection: 1)
        #expect(shifted.initialSelection == 2, "shifted past the added Auto")
        let withOwnAuto = try BitrateMenu(options: options + [BitrateOption(title: "Auto", bitrate: 0)], initialSelection: 1)
        #expect(withOwnAuto.initialSelection == 1)
        let outOfRange = #expect(throws: PlayerUIError.self) { try BitrateMenu(options: options, initialSelection: 2) }
        #expect(outOfRange?.kind == .selectionOutOfRange)
        let negative = #expect(throws: PlayerUIError.self) { try BitrateMenu(options: [BitrateOption(title: "Odd", bitrate: -1)]) }
        #expect(negative?.kind == .invalidBitrateOption)
        #expect(throws: PlayerUIError.self) { try BitrateMenu(options: [BitrateOption(title: "  ", bitrate: 1)]) }
    }

    @Test func theAutoTitleIsLocalized() throws {
        let japanese = Localizer(language: .japanese)
        let menu = try BitrateMenu(options: [BitrateOption(title: "低", bitrate: 300_000)], autoTitle: japanese.string(.auto))
        #expect(menu.options.first?.title == "自動")
        #expect(BitrateMenu(ladder: VariantLadder([]), localizer: japanese).options == [BitrateOption(title: "自動", bitrate: 0)])
    }

    @Test func aMenuFromAVariantLadderListsRenditionsHighestFirst() {
        let ladder = VariantLadder([
            Variant(bandwidth: 400_000, width: 426, height: 240, url: "v0.m3u8"),
            Variant(bandwidth: 2_600_000, width: 1280, height: 720, url: "v2.m3u8"),
            Variant(bandwidth: 1_100_000, width: 854, height: 480, url: "v1.m3u8"),
            Variant(bandwidth: 1_100_000, width: 854, height: 480, url: "backup/v1.m3u8"),
            Variant(bandwidth: 64_000, url: "audio.m3u8"),
        ])
        let menu = BitrateMenu(ladder: ladder)
        #expect(menu.options.map(\.title) == ["Auto", "720p · 2.6 Mbit/s", "480p · 1.1 Mbit/s", "240p · 400 kbit/s", "64 kbit/s"])
        #expect(menu.options.map(\.bitrate) == [0, 2_600_000, 1_100_000, 400_000, 64_000])
        #expect(menu.initialSelection == 0)
        #expect(BitrateMenu.formatBitrate(3_000_000) == "3 Mbit/s")
    }
}

@Suite("Ad and bumper control states")
struct ControlAvailabilityTests {
    @Test func contentHasEverythingButAdControls() {
        let content = ControlAvailability(phase: .content)
        #expect(content.isSeekingAllowed && content.showsBufferProgress && content.progressStyle == .content)
        for tag in [ControlTag.playback, .jumpBack, .progress, .live, .closedCaption, .preferredBitrate] {
            #expect(content.isEnabled(tag), "\(tag)")
        }
        for tag in [ControlTag.adPodCountdown, .learnMore, .skip, .skipAdCountdown] {
            #expect(!content.isVisible(tag), "\(tag)")
        }
    }

    @Test func duringAnSSAIAdSeekingIsOffAndTheCountdownShows() throws {
        let ad = try AdPosition(index: 1, count: 2, timeLeft: .seconds(12))
        let state = ControlAvailability(phase: .ad(ad))
        #expect(!state.isSeekingAllowed && state.progressStyle == .ad)
        for tag in [ControlTag.progress, .jumpBack, .live] {
            #expect(!state.isEnabled(tag), "\(tag) must not seek during an ad")
        }
        #expect(state.isVisible(.progress), "the ad's progress still shows")
        #expect(state.isEnabled(.playback), "an ad can be paused")
        #expect(state.isVisible(.adPodCountdown))
        #expect(!state.isVisible(.learnMore) && state.learnMoreURL == nil, "no click-through, no Learn more")
        #expect(!state.isVisible(.skip), "stitched ads are not skippable")
        #expect(Localizer().adCountdown(ad) == "Ad 1 of 2, 0:12 left")
        let last = try AdPosition(index: 2, count: 2)
        #expect(Localizer().adCountdown(last) == "Ad 2 of 2")

        let clickThrough = try AdPosition(index: 1, count: 1, clickThroughURL: "https://ads.example/c")
        let clickable = ControlAvailability(phase: .ad(clickThrough))
        #expect(clickable.isEnabled(.learnMore) && clickable.learnMoreURL == "https://ads.example/c")
        let blank = try AdPosition(index: 1, count: 1, clickThroughURL: " ")
        #expect(!ControlAvailability(phase: .ad(blank)).isVisible(.learnMore))
    }

    @Test func aBumperCannotSeekOrJumpBack() throws {
        let state = ControlAvailability(phase: .bumper)
        #expect(state.areControlsShown && !state.isSeekingAllowed)
        #expect(!state.isVisible(.jumpBack), "the seed: the JumpBack button is not present")
        #expect(state.isVisible(.progress) && !state.isEnabled(.progress))
        #expect(!state.showsBufferProgress && state.progressStyle == .bumper)
        #expect(state.isEnabled(.playback))
        let applied = state.applied(to: .vod).fit(width: 80)[0]
        #expect(applied.frame(of: .jumpBack) == nil && applied.frame(of: .progress) != nil)

        let noBumperControls = try PlayerUIOptions(showBumperControls: false)
        let hidden = ControlAvailability(phase: .bumper, options: noBumperControls)
        #expect(!hidden.areControlsShown && !hidden.isVisible(.playback))
        #expect(hidden.applied(to: .vod) == .empty)
    }

    @Test func adPositionsAreValidated() {
        #expect(throws: PlayerUIError.self) { try AdPosition(index: 0, count: 2) }
        #expect(throws: PlayerUIError.self) { try AdPosition(index: 3, count: 2) }
        #expect(throws: PlayerUIError.self) { try AdPosition(index: 1, count: 0) }
        let negative = #expect(throws: PlayerUIError.self) { try AdPosition(index: 1, count: 1, timeLeft: .seconds(-1)) }
        #expect(negative?.kind == .invalidAdPosition)
    }
}
