import CoveCore
import CovePlayerUI
import Testing

@Suite("Layout model")
struct LayoutModelTests {
    @Test func tagsKeepTheSeedsNumbers() {
        #expect(ControlTag.builtIn.count == 18)
        #expect(ControlTag.playback.seedTag == 1)
        #expect(ControlTag.progress.seedTag == 8)
        #expect(ControlTag.live.seedTag == 10)
        #expect(ControlTag.empty.seedTag == 11)
        #expect(ControlTag.preferredBitrate.seedTag == 17)
        #expect(ControlTag.pictureInPicture.seedTag == 18)
        #expect(ControlTag.custom("logo").seedTag == nil)
        for n in 1...18 { #expect(ControlTag(seedTag: n)?.seedTag == n) }
        #expect(ControlTag(seedTag: 0) == nil && ControlTag(seedTag: 19) == nil)
        for tag in ControlTag.builtIn { #expect(tag.defaultWidth > 0) }
    }

    @Test func compactBarsAreUsedAtAndBelowTheMaximumWidth() {
        let layout = ControlLayout.vod.withCompactLayoutMaximumWidth(50)
        #expect(layout.bars(forWidth: 49) == layout.compactBars)
        #expect(layout.bars(forWidth: 50) == layout.compactBars)
        #expect(layout.bars(forWidth: 51) == layout.standardBars)
        #expect(layout.isCompact(width: 50) && !layout.isCompact(width: 51))
        #expect(layout.fit(width: 50).count == 2)
        #expect(layout.fit(width: 51).count == 1)
        #expect(ControlLayout.vod.compactLayoutMaximumWidth == ControlLayout.defaultCompactLayoutMaximumWidth)
        #expect(ControlLayout.vod.bars(forWidth: 80) == ControlLayout.vod.standardBars)
    }

    @Test func removingATagRemovesItInStandardAndCompactBars() {
        let shown = ControlLayout.vod.settingRemoved(false, for: .closedCaption)
        let all = (shown.standardBars + shown.compactBars).flatMap(\.views).filter { $0.tag == .closedCaption }
        #expect(all.count == 2 && all.allSatisfy { !$0.isRemoved })
        let hidden = shown.settingRemoved(true, for: .closedCaption)
        #expect(hidden == ControlLayout.vod)
        #expect(shown.fit(width: 100)[0].frame(of: .closedCaption) != nil)
        #expect(hidden.fit(width: 100)[0].frame(of: .closedCaption) == nil)
    }

    /// Every media type × video type combination (the arguments' cartesian product).
    @Test(arguments: [MediaType.audioVideo, .audio], [VideoType.vod, .live, .liveDVR])
    func automaticSelectionFollowsTheSeed(mediaType: MediaType, videoType: VideoType) {
        let expected: [String: SuppliedLayout] = [
            "AudioVideo/VOD": .vod, "AudioVideo/Live": .live, "AudioVideo/LiveDVR": .liveDVR,
            "Audio/VOD": .audioOnly, "Audio/Live": .liveAudio, "Audio/LiveDVR": .liveDVRAudio,
        ]
        let kind = expected["\(mediaType)/\(videoType)"]
        #expect(kind != nil)
        #expect(SuppliedLayout(mediaType: mediaType, videoType: videoType) == kind)
        #expect(ControlLayout.automatic(mediaType: mediaType, videoType: videoType) == kind?.layout)
        #expect(kind?.isAudioOnly == (mediaType == .audio))
    }

    @Test func theSixSuppliedLayoutsAreDistinctAndShapedForTheirStreams() {
        let layouts = SuppliedLayout.allCases.map(\.layout)
        #expect(Set(layouts).count == 6)
        for kind in SuppliedLayout.allCases {
            let tags = kind.layout.allTags
            #expect(tags.contains(.playback), "\(kind)")
            let isLive = kind == .live || kind == .liveAudio || kind == .liveDVR || kind == .liveDVRAudio
            #expect(tags.contains(.live) == isLive, "\(kind)")
            let seekable = kind != .live && kind != .liveAudio
            #expect(tags.contains(.progress) == seekable, "\(kind)")
            #expect(tags.contains(.jumpBack) == seekable, "\(kind)")
            #expect(tags.contains(.screenMode) == !kind.isAudioOnly, "\(kind): no screen mode for audio")
            #expect(tags.contains(.duration) == (kind == .vod || kind == .audioOnly), "\(kind)")
            // Captions start removed everywhere, and every supplied bar fits an 80 and a 40 column terminal
            // without dropping anything.
            for bar in kind.layout.standardBars + kind.layout.compactBars {
                let captionsRemoved = bar.views.filter { $0.tag == .closedCaption }.allSatisfy { $0.isRemoved }
                #expect(captionsRemoved)
            }
            #expect(kind.layout.fit(width: 80).allSatisfy { $0.dropped.isEmpty }, "\(kind) at 80")
            #expect(kind.layout.fit(width: 40).allSatisfy { $0.dropped.isEmpty }, "\(kind) at 40")
        }
    }

    @Test func theVODLayoutAt80ColumnsGivesTheSliderTheSpareRoom() {
        let bars = ControlLayout.vod.fit(width: 80)
        #expect(bars.count == 1)
        let frames = bars[0].frames
        #expect(frames.map(\.view.tag) == [.playback, .jumpBack, .currentTime, .timeSeparator, .duration, .progress, .screenMode])
        #expect(frames.last?.maxX == 80)
        // 80 − (3+5+8+3+8+10+3) − 6 gaps = 34 spare columns, all the slider's.
        #expect(bars[0].frame(of: .progress)?.width == 44)
    }

    @Test func optionsDefaultToTheSeedsValuesAndRejectNonsense() throws {
        let options = PlayerUIOptions.standard
        #expect(options.jumpBackInterval == .seconds(10))
        #expect(options.hideControlsInterval == .seconds(3))
        #expect(!options.keepControlsVisible && !options.automaticControlTypeSelection && options.showBumperControls)
        let defaults = try PlayerUIOptions()
        #expect(defaults == options)
        #expect(options.controlsHideDelay(screenReaderMode: false) == .seconds(3))
        #expect(options.controlsHideDelay(screenReaderMode: true) == nil)
        let kept = try PlayerUIOptions(keepControlsVisible: true)
        #expect(kept.controlsHideDelay(screenReaderMode: false) == nil)
        let fifteen = try PlayerUIOptions(jumpBackInterval: .milliseconds(15_500))
        #expect(fifteen.jumpBackSeconds == 15)
        #expect(throws: PlayerUIError.self) { try PlayerUIOptions(jumpBackInterval: .zero) }
        #expect(throws: PlayerUIError.self) { try PlayerUIOptions(hideControlsInterval: .seconds(-1)) }
        let error = #expect(throws: PlayerUIError.self) { try PlayerUIOptions(jumpBackInterval: .seconds(-5)) }
        #expect(error?.kind == .invalidInterval)
    }

    @Test func resolvedLayoutFollowsOptionsPhaseAndTracks() throws {
        let custom = ControlLayout(standard: [[LayoutView(.playback), LayoutView(.custom("logo"), width: 6)]], compact: [[LayoutView(.playback)]])
        let manual = PlayerUIOptions.standard
        let automatic = try PlayerUIOptions(automaticControlTypeSelection: true)

        // The app's layout unless automatic selection is on (which ignores it, as in the seed).
        #expect(
            ControlLayout.resolved(appLayout: custom, options: manual, mediaType: .audioVideo, videoType: .live, phase: .content, hasTrackChoices: false)
                == custom)
        #expect(
            ControlLayout.resolved(appLayout: custom, options: automatic, mediaType: .audioVideo, videoType: .live, phase: .content, hasTrackChoices: false)
                == .live)
        #expect(
            ControlLayout.resolved(appLayout: nil, options: manual, mediaType: .audio, videoType: .liveDVR, phase: .content, hasTrackChoices: false)
                == .liveDVRAudio)

        // Bumpers use the VOD or AOD layout, without jump back.
        let bumper = ControlLayout.resolved(appLayout: nil, options: automatic, mediaType: .audio, videoType: .live, phase: .bumper, hasTrackChoices: false)
        #expect(bumper == ControlLayout.audioOnly.settingRemoved(true, for: .jumpBack))
        let hiddenBumper = try PlayerUIOptions(automaticControlTypeSelection: true, showBumperControls: false)
        #expect(
            ControlLayout.resolved(appLayout: nil, options: hiddenBumper, mediaType: .audioVideo, videoType: .vod, phase: .bumper, hasTrackChoices: false)
                == .empty)

        // Caption and bitrate buttons appear when there is something to choose.
        let menu = try BitrateMenu(options: [BitrateOption(title: "Low", bitrate: 400_000)])
        let withMenu = try PlayerUIOptions(bitrateMenu: menu)
        let content = ControlLayout.resolved(
            appLayout: .vod, options: withMenu, mediaType: .audioVideo, videoType: .vod, phase: .content, hasTrackChoices: true)
        let frames = content.fit(width: 100)[0]
        #expect(frames.frame(of: .closedCaption) != nil && frames.frame(of: .preferredBitrate) != nil)

        // An ad gets the advertising layout, with "Learn more" only for a click-through.
        let ad = try AdPosition(index: 1, count: 2, timeLeft: .seconds(12))
        let adLayout = ControlLayout.resolved(
            appLayout: custom, options: manual, mediaType: .audioVideo, videoType: .vod, phase: .ad(ad), hasTrackChoices: false)
        #expect(adLayout.fit(width: 100)[0].frames.map(\.view.tag) == [.playback, .adPodCountdown, .progress, .screenMode])
        let clickable = try AdPosition(index: 1, count: 2, clickThroughURL: "https://ads.example/click")
        let clickLayout = ControlLayout.resolved(
            appLayout: custom, options: manual, mediaType: .audioVideo, videoType: .vod, phase: .ad(clickable), hasTrackChoices: false)
        #expect(clickLayout.fit(width: 100)[0].frames.map(\.view.tag) == [.playback, .adPodCountdown, .progress, .learnMore, .screenMode])
    }
}
