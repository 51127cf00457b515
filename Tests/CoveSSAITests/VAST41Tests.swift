import CoveCore
import CoveSSAI
import Foundation
import Testing

/// The VAST 4.1 pieces in the ad model: icons (and their tracking through wrappers and at ad
/// start), closed captions, mezzanine and interactive files, universal ad ids, `conditionalAd`, and
/// the model's JSON encoding that `cove vmap --json` prints.
@Suite("VAST 4.1 icons, captions and files")
struct VAST41Tests {
    func ad(_ text: String) throws -> VASTAd {
        try #require(try VAST.parse(text).ads.first)
    }

    func linear(_ text: String) throws -> VASTLinear {
        try #require(try ad(text).inLine?.creatives.first?.linear)
    }

    @Test func iconsWithEveryPartAreRead() throws {
        let document = try VAST.parse(VAST41Documents.iconsAndCaptions)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        let icons = try linear(VAST41Documents.iconsAndCaptions).icons
        #expect(icons.count == 2)
        let adChoices = icons[0]
        #expect(adChoices.program == "AdChoices")
        #expect(adChoices.width == 77 && adChoices.height == 15)
        #expect(adChoices.xPosition == .right && adChoices.yPosition == .top)
        #expect(adChoices.duration == (try clock("00:00:05")))
        #expect(adChoices.offset == (try clock("00:00:01.5")))
        #expect(adChoices.apiFramework == "none")
        #expect(adChoices.pxratio == 2)
        #expect(adChoices.staticResources == [VASTStaticResource(creativeType: "image/png", url: "https://icons.example.com/adchoices.png")])
        #expect(adChoices.clickThrough == "https://adchoices.example.com/why")
        #expect(adChoices.clickTracking == [VASTClick(id: "ict", url: "https://t.example.com/icon-click")])
        #expect(
            adChoices.clickFallbackImages == [
                VASTIconClickFallbackImage(
                    width: 400, height: 200, altText: "Why this ad",
                    staticResource: VASTStaticResource(creativeType: "image/png", url: "https://icons.example.com/why-400.png")),
                VASTIconClickFallbackImage(
                    width: 800, height: 400, staticResource: VASTStaticResource(creativeType: "image/png", url: "https://icons.example.com/why-800.png")),
            ], "an empty fallback image says nothing and is skipped")
        #expect(adChoices.viewTracking == ["https://t.example.com/icon-view?cb=[CACHEBUSTING]", "https://t2.example.com/icon-view"])
        #expect(adChoices.hasResource)
        let sponsor = icons[1]
        #expect(sponsor.xPosition == .pixels(10) && sponsor.yPosition == .bottom)
        #expect(sponsor.htmlResources == ["<b>Sponsored</b>"])
        #expect(sponsor.pxratio == nil && sponsor.offset == nil && sponsor.clickThrough == nil)
    }

    @Test func closedCaptionsMezzanineAndInteractiveFilesAreRead() throws {
        let linear = try linear(VAST41Documents.iconsAndCaptions)
        #expect(
            linear.closedCaptionFiles == [
                VASTClosedCaptionFile(type: "text/vtt", language: "en", url: "https://cc.example.com/v41.en.vtt"),
                VASTClosedCaptionFile(type: "application/ttml+xml", language: "zh-TW", url: "https://cc.example.com/v41.zh.ttml"),
            ], "a caption file without a URL is skipped")
        #expect(
            linear.mezzanines == [
                VASTMezzanine(
                    id: "mz1", delivery: "progressive", type: "video/mp4", width: 1920, height: 1080, codec: "H.264", fileSize: 90_000_000,
                    mediaType: "2D", url: "https://media.example.com/v41-mezzanine.mp4")
            ])
        #expect(
            linear.interactiveCreativeFiles == [
                VASTInteractiveCreativeFile(type: "text/html", apiFramework: "SIMID", variableDuration: false, url: "https://simid.example.com/creative.html")
            ])
        #expect(
            linear.mediaFiles == [
                VASTMediaFile(
                    delivery: "progressive", type: "video/mp4", width: 1280, height: 720, fileSize: 2_400_000, mediaType: "2D", scalable: true,
                    maintainAspectRatio: true, url: "https://media.example.com/v41.mp4")
            ])
    }

    @Test func severalUniversalAdIdsAndConditionalAd() throws {
        let ad = try ad(VAST41Documents.iconsAndCaptions)
        #expect(ad.conditionalAd == true)
        #expect(
            ad.inLine?.creatives.first?.universalAdIds == [
                VASTUniversalAdId(idRegistry: "Ad-ID", value: "8465"), VASTUniversalAdId(idRegistry: "clearcast.co.uk", value: "CNP/TEST/123"),
                VASTUniversalAdId(idRegistry: "legacy", value: "LEG-1"),
            ])
    }

    /// Nothing about an icon is fatal: each unreadable value is a warning and nil, an icon missing
    /// what VAST requires is kept and says so, and one with nothing to show is kept without its view.
    @Test func carelessIconsAreWarningsNotErrors() throws {
        let document = try VAST.parse(VAST41Documents.carelessIcons)
        let icons = try #require(document.ads.first?.inLine?.creatives.first?.linear?.icons)
        #expect(icons.map(\.program) == [nil, "AdChoices", "Invisible", "Rounding"])
        let kinds = document.warnings.map(\.kind)
        #expect(kinds == [.incompleteElement] + Array(repeating: .badAttribute, count: 7) + [.incompleteElement, .badAttribute], "\(document.warnings)")
        #expect(document.warnings[0].message.contains("program, width, height, xPosition, yPosition"))
        #expect(document.warnings[0].location.contains("Icon[1]"))
        #expect(document.warnings[8].location.contains(#"Icon[3] "Invisible""#) && document.warnings[8].message.contains("cannot be shown"))
        let bad = icons[1]
        #expect(bad.width == nil && bad.height == nil && bad.xPosition == nil && bad.yPosition == nil)
        #expect(bad.duration == nil && bad.offset == nil && bad.pxratio == nil)
        #expect(bad.iframeResources == ["https://icons.example.com/frame.html"] && bad.hasResource)
        #expect(!icons[2].hasResource && icons[2].viewTracking == ["https://t.example.com/invisible-view"])
        #expect(icons[3].xPosition == .left && icons[3].yPosition == .pixels(0) && icons[3].pxratio == nil)
        #expect(!document.warnings.contains { $0.message.contains("https://") }, "warnings never quote URLs")
    }

    @Test func aHugeNumberOfIconsIsCappedWithAWarning() throws {
        let document = try VAST.parse(VAST41Documents.manyIcons(5_000))
        let icons = try #require(document.ads.first?.inLine?.creatives.first?.linear?.icons)
        #expect(icons.count == VMAPParseLimits.default.maxIconsPerCreative)
        #expect(document.warnings.map(\.kind) == [.tooManyEntries])
        #expect(document.warnings.first?.message.contains("5000") == true)
        var limits = VMAPParseLimits()
        limits.maxIconsPerCreative = 2
        #expect(try VAST.parse(VAST41Documents.manyIcons(3), limits: limits).ads.first?.inLine?.creatives.first?.linear?.icons.count == 2)
        limits.maxIconsPerCreative = -1
        #expect(try VAST.parse(VAST41Documents.manyIcons(3), limits: limits).ads.first?.inLine?.creatives.first?.linear?.icons.isEmpty == true)
    }

    /// Two wrappers around the 4.1 ad: their AdChoices icons (same program, other letter case) are
    /// folded into the inline ad's, which keeps its own image and gains their view and click
    /// tracking, innermost first; their Survey icon, a program the inline ad lacks, is kept once (the
    /// inner wrapper's) with both wrappers' views.
    @Test func wrapperIconsAreKeptOncePerProgramWithTheirTrackingMerged() async throws {
        let server = FakeAdServer([
            "https://ads.example.com/1": VAST41Documents.iconWrapper("w1", next: "https://ads.example.com/2"),
            "https://ads.example.com/2": VAST41Documents.iconsAndCaptions,
        ])
        let outer = try ad(VAST41Documents.iconWrapper("w0", next: "https://ads.example.com/1"))
        let resolved = try #require(try await server.resolver().resolve(outer).first)
        let linear = try #require(resolved.inLine?.creatives.first?.linear)
        #expect(linear.icons.map(\.program) == ["AdChoices", "Sponsor", "Survey"])
        let adChoices = linear.icons[0]
        #expect(adChoices.staticResources.map(\.url) == ["https://icons.example.com/adchoices.png"], "the icon closest to the inline ad is shown")
        #expect(
            adChoices.viewTracking == [
                "https://t.example.com/icon-view?cb=[CACHEBUSTING]", "https://t2.example.com/icon-view",
                "https://wrap.example.com/icon-view?w=w1", "https://wrap.example.com/icon-view?w=w0",
            ])
        #expect(
            adChoices.clickTracking.map(\.url) == [
                "https://t.example.com/icon-click", "https://wrap.example.com/icon-click?w=w1", "https://wrap.example.com/icon-click?w=w0",
            ])
        #expect(linear.icons[2].viewTracking == ["https://wrap.example.com/survey-view?w=w1", "https://wrap.example.com/survey-view?w=w0"])
        #expect(linear.closedCaptionFiles.count == 2, "the inline ad's files stay")
        #expect(resolved.conditionalAd == true)
    }

    /// The icons' view beacons are due once when the ad starts (right after the impression), once
    /// per play of the ad, and only for icons that have something to show.
    @Test func iconViewTrackingFiresOnceWhenTheAdStarts() throws {
        let vast = VAST41Documents.iconsAndCaptions.replacingOccurrences(
            of: "</Icons>",
            with:
                #"<Icon program="Empty" width="1" height="1" xPosition="left" yPosition="top"><IconViewTracking>https://t.example.com/empty-view</IconViewTracking></Icon></Icons>"#
        )
        let timeline = try AdTimeline.make(from: try VMAP.parse(VAST41Documents.vmap(wrapping: vast)))
        #expect(timeline.ads.first?.icons.count == 3)
        var tracker = SSAIPlaybackTracker(timeline: timeline)
        let events = PlaybackTrackerTests.play(&tracker, from: 0, to: 12)
        let names = PlaybackTrackerTests.names(events)
        #expect(names.filter { $0 == "beacon 0.0 iconView #0" }.count == 1, "\(names)")
        let impression = try #require(names.firstIndex(of: "beacon 0.0 impression #0"))
        #expect(names[impression + 1] == "beacon 0.0 iconView #0", "\(names)")
        let urls = events.flatMap { event -> [String] in
            if case .beacon(let key, let urls) = event, key.event == "iconView" { urls } else { [] }
        }
        #expect(
            urls == ["https://t.example.com/icon-view?cb=[CACHEBUSTING]", "https://t2.example.com/icon-view", "https://t.example.com/sponsor-view"],
            "an icon with nothing to show is not viewed")
        // A second play of the break (a seek back over it) views the icons again.
        let again = PlaybackTrackerTests.names(tracker.jump(to: TL.ms(500)))
        #expect(again.contains("beacon 0.0 iconView #1"), "\(again)")
        #expect(PlaybackTrackerTests.names(tracker.advance(to: TL.ms(900))).allSatisfy { !$0.contains("iconView") })
    }

    /// The model encodes whole (what `cove vmap --json` prints): icons, captions, ids and files are
    /// there under their model names, times in seconds, positions as VAST writes them.
    @Test func theAdEncodesAsJSONWithEverythingItHolds() throws {
        let data = try JSONEncoder().encode(try ad(VAST41Documents.iconsAndCaptions))
        let json = try JSONValue.parse(Array(data))
        #expect(json["conditionalAd"] == true)
        let inLine = try #require(json["content"]?["inLine"])
        #expect(inLine["errorURLs"]?.arrayValue?.compactMap(\.stringValue) == ["https://err.example.com/v41?code=[ERRORCODE]"])
        let creative = try #require(inLine["creatives"]?.arrayValue?.first)
        #expect(creative["universalAdIds"]?.arrayValue?.count == 3)
        let linear = try #require(creative["linear"])
        #expect(linear["duration"]?.doubleValue == 10)
        let icon = try #require(linear["icons"]?.arrayValue?.first)
        #expect(icon["xPosition"]?.stringValue == "right")
        #expect(icon["offset"]?.doubleValue == 1.5)
        #expect(linear["icons"]?.arrayValue?.last?["xPosition"]?.int64Value == 10)
        #expect(icon["clickFallbackImages"]?.arrayValue?.first?["altText"] == "Why this ad")
        #expect(linear["closedCaptionFiles"]?.arrayValue?.first?["language"] == "en")
        #expect(linear["mezzanines"]?.arrayValue?.first?["fileSize"]?.int64Value == 90_000_000)
        #expect(linear["mediaFiles"]?.arrayValue?.first?["url"] == "https://media.example.com/v41.mp4")
        let skippable = try ad(VASTDocuments.vast3)
        let encoded = try JSONValue.parse(Array(try JSONEncoder().encode(skippable)))
        let legacyLinear = encoded["content"]?["inLine"]?["creatives"]?.arrayValue?.first?["linear"]
        #expect(legacyLinear?["skipOffset"]?["percent"]?.doubleValue == 10)
        let pause = legacyLinear?["trackingEvents"]?.arrayValue?.first
        #expect(pause?["event"]?.stringValue == "pause")
        #expect(pause?["url"]?.stringValue == "https://t.example.com/pause")
    }
}
