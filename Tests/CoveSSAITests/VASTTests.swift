import CoveSSAI
import Testing

@Suite("VAST 3 and 4")
struct VASTTests {
    @Test func vast3KeepsTheGoodAdAndDropsTheBrokenOnes() throws {
        let document = try VAST.parse(VASTDocuments.vast3)
        #expect(document.version == "3.0")
        #expect(document.ads.map(\.id) == ["v3-good"])
        #expect(document.warnings.map(\.kind) == [.badTrackingOffset, .badAttribute, .badDuration, .emptyAd])
        let badDuration = try #require(document.warnings.first { $0.kind == .badDuration })
        #expect(badDuration.location.contains(#"Ad[2] "v3-bad-duration""#))
        #expect(badDuration.message.contains("about thirty seconds"))
    }

    @Test func vast3LinearDetails() throws {
        let ad = try #require(try VAST.parse(VASTDocuments.vast3).ads.first)
        let inLine = try #require(ad.inLine)
        #expect(ad.sequence == 1)
        #expect(inLine.impressions == [VASTImpression(id: "i1", url: "https://imp.example.com/v3?a=1&b=2")])
        #expect(inLine.errorURLs == ["https://err.example.com/v3?code=[ERRORCODE]"])
        let creative = try #require(inLine.creatives.first)
        #expect(creative.id == "101")
        #expect(creative.adId == "legacy-ad-id")
        let linear = try #require(creative.linear)
        #expect(linear.duration == (try clock("00:00:20.5")))
        #expect(linear.skipOffset == .percentage(10))
        #expect(linear.trackingEvents.map(\.event) == [.pause, .resume, .mute, .unmute, .closeLinear, .progress, .progress])
        #expect(linear.trackingEvents[5].offset == .time(try clock("00:00:05.25")))
        #expect(linear.trackingEvents[6].offset == nil, "an unreadable offset is dropped, the event kept")
        #expect(
            linear.mediaFiles == [
                VASTMediaFile(delivery: "progressive", type: "video/mp4", width: 640, height: 360, bitrate: 800, url: "https://media.example.com/v3-360.mp4"),
                VASTMediaFile(delivery: "progressive", type: "video/webm", width: nil, height: 360, url: "https://media.example.com/v3.webm"),
            ])
    }

    @Test func vast3VerificationsFromTheExtension() throws {
        let inLine = try #require(try VAST.parse(VASTDocuments.vast3).ads.first?.inLine)
        #expect(
            inLine.adVerifications == [
                VASTVerification(
                    vendor: "legacy-vendor",
                    javaScriptResources: [VASTVerificationResource(apiFramework: "omid", browserOptional: false, url: "https://verify.example.com/legacy.js")],
                    verificationParameters: "a=1&b=2"
                )
            ])
        #expect(inLine.extensions.first?.attributes["type"] == "AdVerifications")
    }

    @Test func vast4EverythingRead() throws {
        let document = try VAST.parse(VASTDocuments.vast4)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(document.version == "4.2")
        let ad = try #require(document.ads.first)
        #expect(ad.adType == "video")
        let inLine = try #require(ad.inLine)
        #expect(inLine.adServingId == "a532d16d-4d7f-4440-bd29-2ec0e693fc80")
        #expect(inLine.advertiser == "Example Co")
        #expect(inLine.impressions.map(\.url) == ["https://imp.example.com/i?id=1&cb=[CACHEBUSTING]", "https://imp2.example.com/i"])
        #expect(
            inLine.viewableImpressions == [
                VASTViewableImpression(
                    id: "vi", viewable: ["https://v.example.com/viewable"], notViewable: ["https://v.example.com/not"],
                    viewUndetermined: ["https://v.example.com/undetermined"]
                )
            ])
        #expect(inLine.creatives.count == 3)
    }

    @Test func vast4Verification() throws {
        let inLine = try #require(try VAST.parse(VASTDocuments.vast4).ads.first?.inLine)
        #expect(
            inLine.adVerifications == [
                VASTVerification(
                    vendor: "company.com-omid",
                    javaScriptResources: [
                        VASTVerificationResource(apiFramework: "omid", browserOptional: true, url: "https://verification.example.com/omid.js")
                    ],
                    executableResources: [
                        VASTVerificationResource(apiFramework: "omid", type: "text/javascript", url: "https://verification.example.com/exec")
                    ],
                    verificationParameters: #"{"key":"value","n":1}"#,
                    trackingEvents: [VASTTrackingEvent(event: .verificationNotExecuted, url: "https://verification.example.com/not-executed?reason=[REASON]")]
                )
            ])
    }

    @Test func vast4Linear() throws {
        let creative = try #require(try VAST.parse(VASTDocuments.vast4).ads.first?.inLine?.creatives.first)
        #expect(creative.universalAdIds == [VASTUniversalAdId(idRegistry: "Ad-ID", value: "CNPA0484000H")])
        #expect(creative.adId == "ad-1")
        let linear = try #require(creative.linear)
        #expect(linear.duration == (try clock("00:00:30")))
        #expect(linear.skipOffset == .time(try clock("00:00:05")))
        #expect(linear.trackingEvents.map(\.event.rawValue) == ["creativeView", "start", "progress", "progress", "loaded", "vendorSpecificThing"])
        #expect(linear.trackingEvents[2].offset == .time(try clock("00:00:10")))
        #expect(linear.trackingEvents[3].offset == .percentage(50))
        #expect(
            linear.videoClicks
                == VASTVideoClicks(
                    clickThrough: VASTClick(id: "ct", url: "https://advertiser.example.com/v4"),
                    clickTracking: [VASTClick(id: "t1", url: "https://t4.example.com/click1"), VASTClick(id: "t2", url: "https://t4.example.com/click2")],
                    customClicks: [VASTClick(id: "cc", url: "https://t4.example.com/custom")]
                ))
        #expect(
            linear.mediaFiles == [
                VASTMediaFile(
                    id: "mf1", delivery: "progressive", type: "video/mp4", width: 1280, height: 720, bitrate: 2000, codec: "H.264",
                    url: "https://media.example.com/ad-720.mp4"),
                VASTMediaFile(
                    delivery: "streaming", type: "application/x-mpegURL", width: 1920, height: 1080, minBitrate: 1000, maxBitrate: 6000,
                    url: "https://media.example.com/ad.m3u8"),
            ])
        #expect(creative.creativeExtensions.count == 1)
        #expect(creative.creativeExtensions[0].text == #"{"a":1}"#)
        #expect(creative.creativeExtensions[0].xml.contains(#"xmlns="http://www.iab.com/VAST""#))
    }

    @Test func vast4Companions() throws {
        let companionAds = try #require(try VAST.parse(VASTDocuments.vast4).ads.first?.inLine?.creatives[1].companionAds)
        #expect(companionAds.required == "any")
        #expect(companionAds.companions.count == 3)
        let first = companionAds.companions[0]
        #expect(first.adSlotId == "slot-a")
        #expect(first.assetWidth == 300)
        #expect(first.assetHeight == 250)
        #expect(first.altText == "An example")
        #expect(first.clickTracking == [VASTClick(id: "cct", url: "https://c.example.com/click")])
        #expect(first.trackingEvents == [VASTTrackingEvent(event: .creativeView, url: "https://c.example.com/view")])
        #expect(companionAds.companions[1].iframeResources == ["https://c.example.com/iframe.html"])
        #expect(companionAds.companions[2].htmlResources == [#"<div class="c">Hi &amp; bye</div>"#])
    }

    @Test func vast4NonLinearAndExtensions() throws {
        let inLine = try #require(try VAST.parse(VASTDocuments.vast4).ads.first?.inLine)
        let nonLinear = try #require(inLine.creatives[2].nonLinearAds?.nonLinears.first)
        #expect(nonLinear.clickThrough == "https://nl.example.com/ct")
        #expect(nonLinear.clickTracking == [VASTClick(id: "nlt", url: "https://nl.example.com/click")])
        #expect(inLine.extensions.count == 1)
        #expect(inLine.extensions[0].innerXML == #"<Data a="1">x &lt; y</Data>"#)
    }

    @Test func wrapperIsReturnedAsAWrapper() throws {
        let document = try VAST.parse(
            VASTDocuments.wrapper("w1", next: "https://ads.example.com/next?x=1&amp;y=2", allowMultipleAds: true, fallbackOnNoAd: false))
        let wrapper = try #require(document.ads.first?.wrapper)
        #expect(wrapper.adTagURI == "https://ads.example.com/next?x=1&amp;y=2", "CDATA is taken literally")
        #expect(wrapper.followAdditionalWrappers)
        #expect(wrapper.allowMultipleAds)
        #expect(wrapper.fallbackOnNoAd == false)
        #expect(wrapper.impressions == [VASTImpression(id: "w1", url: "https://wrap.example.com/imp?w=w1")])
        #expect(wrapper.creatives.first?.linear?.duration == nil)
        #expect(wrapper.creatives.first?.linear?.trackingEvents.count == 2)
    }

    @Test func wrapperWithoutAdTagIsDropped() throws {
        let document = try VAST.parse(#"<VAST version="3.0"><Ad id="w"><Wrapper><AdSystem>x</AdSystem><VASTAdTagURI>   </VASTAdTagURI></Wrapper></Ad></VAST>"#)
        #expect(document.ads.isEmpty)
        #expect(document.warnings.map(\.kind) == [.missingAdTagURI])
    }

    @Test func noAdResponseKeepsRootErrors() throws {
        let document = try VAST.parse(VASTDocuments.noAd)
        #expect(document.ads.isEmpty)
        #expect(document.errorURLs == ["https://noad.example.com/err?code=[ERRORCODE]"])
    }

    @Test func inlineAdWithoutDurationIsDropped() throws {
        let document = try VAST.parse(
            #"<VAST version="3.0"><Ad id="a"><InLine><Creatives><Creative><Linear/></Creative></Creatives></InLine></Ad><Ad id="b"><InLine><AdTitle>companion only</AdTitle></InLine></Ad></VAST>"#
        )
        #expect(document.ads.map(\.id) == ["b"])
        #expect(document.warnings.map(\.kind) == [.badDuration])
    }

    @Test func multipleLinearCreativesAreKeptWithAWarning() throws {
        let linear = "<Creative><Linear><Duration>00:00:05</Duration></Linear></Creative>"
        let document = try VAST.parse(#"<VAST><Ad><InLine><Creatives>\#(linear)\#(linear)</Creatives></InLine></Ad></VAST>"#)
        #expect(document.ads.first?.inLine?.creatives.count == 2)
        #expect(document.warnings.map(\.kind) == [.multipleLinear])
    }

    @Test func vmapIsNotVAST() {
        do {
            _ = try VAST.parse(BrightcoveVMAP.dynamicDelivery)
            Issue.record("expected notVAST")
        } catch {
            #expect(error.kind == .notVAST)
            #expect(error.description.contains("VMAP.parse"))
        }
    }
}
