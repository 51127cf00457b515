import CoveSSAI
import Foundation
import Testing

@Suite("Brightcove Dynamic Delivery VMAP (bc namespace)")
struct BrightcoveVMAPTests {
    let document: VMAPDocument

    init() throws {
        document = try VMAP.parse(BrightcoveVMAP.dynamicDelivery)
    }

    @Test func readsTheStreamExtension() throws {
        let stream = document.stream
        #expect(stream.flavour == .brightcove)
        #expect(
            stream.contentURL
                == "https://ssaimanifest.example.net/us-east-1/playback/once/v1/hls/v4/clear/1752604059001/d6190656/dca41ae8/6830b2e4/content.m3u8?bc_token=SECRET-TOKEN-123&fastly=1"
        )
        #expect(stream.contentLength == (try seconds("60.0574")))
        #expect(stream.payloadLength == (try seconds("101.1834")))
        #expect(stream.contentType == "application/x-mpegURL")
        #expect(stream.ttl == 3600)
        #expect(stream.contextID == nil)
        #expect(stream.contentImpressions.isEmpty)
    }

    @Test func readsTheThumbnailTrackTrimmed() {
        #expect(
            document.stream.thumbnailsURL
                == "https://ssai.playback.example.net/v1/thumbnail/1752604059001/dca41ae8/low-res/6830b2e4/thumbnail.vtt?bc_token=SECRET-TOKEN-123")
        let track = document.stream.thumbnails.first
        #expect(track?.type == "thumbnail")
        #expect(track?.width == 480)
        #expect(track?.height == 270)
        #expect(track?.bandwidth == 0)
    }

    @Test func keepsTheRawExtensionAsStandaloneXML() throws {
        let raw = try #require(document.stream.rawExtensions)
        #expect(raw.name == "vmap:Extensions")
        #expect(raw.xml.contains("<bc:Brightcove "))
        #expect(raw.xml.contains(#"xmlns:bc="bc""#))
        #expect(raw.xml.contains("&amp;fastly=1"))
        #expect(document.extensions.map(\.name) == ["bc:Brightcove", "bc:thumbnailURL"])
        #expect(document.extensions[0].attributes["ttl"] == "3600")
    }

    @Test func readsThreeBreaksInOrder() throws {
        #expect(document.version == "1.0")
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(document.adBreaks.map(\.timeOffset) == [.start, .time(try clock("00:00:10")), .end])
        #expect(document.adBreaks.map(\.breakId) == ["PreRoll_0_0", "MidRoll_10_0", "PostRoll_60_0"])
        #expect(document.adBreaks.allSatisfy { $0.breakType == "linear" })
        #expect(document.adBreaks.map(\.ads.count) == [1, 2, 1])
        let source = try #require(document.adBreaks[0].adSource)
        #expect(source.id == "0")
        #expect(source.allowMultipleAds == true)
        #expect(source.followRedirects == true)
    }

    @Test func payloadLengthIsContentPlusEveryAdExactly() throws {
        let durations = document.adBreaks.flatMap(\.ads).compactMap { $0.inLine?.creatives.first?.linear?.duration }
        #expect(durations.count == 4)
        let total = try durations.reduce(try #require(document.stream.contentLength)) { try #require($0.adding($1)) }
        #expect(total == document.stream.payloadLength)
    }

    @Test func readsTheMidRollPod() throws {
        let ads = document.adBreaks[1].ads
        #expect(ads.map(\.id) == ["2", "3"])
        #expect(ads.map(\.sequence) == [1, 2])
        let first = try #require(ads[0].inLine?.creatives.first?.linear)
        #expect(first.duration == (try clock("00:00:12.1788")))
        #expect(first.skipOffset == .time(try clock("00:00:05")))
        #expect(first.videoClicks.clickThrough == VASTClick(id: "learn-more", url: "https://advertiser.example.com/landing?src=ssai"))
        #expect(first.videoClicks.clickTracking.map(\.id) == ["ct-1", "ct-2"])
        #expect(first.trackingEvents.map(\.event) == [.start, .skip])
        let second = try #require(ads[1].inLine?.creatives.first?.linear)
        #expect(second.skipOffset == .percentage(25))
        #expect(second.trackingEvents.last == VASTTrackingEvent(event: .progress, url: "https://beacons.example.net/t?e=half&ad=3", offset: .percentage(50)))
    }

    @Test func readsPreRollImpressionsTrackingAndExtensions() throws {
        let inLine = try #require(document.adBreaks[0].ads.first?.inLine)
        #expect(inLine.adSystem == VASTAdSystem(name: "Test Ad Server", version: "2.1"))
        #expect(inLine.adTitle == "Portals")
        #expect(inLine.description == "Demo ad number 6")
        #expect(
            inLine.impressions == [
                VASTImpression(id: "imp-1", url: "https://beacons.example.net/impression?ad=1&cb=[CACHEBUSTING]"),
                VASTImpression(url: "https://second.example.net/imp?ad=1&x=2"),
            ])
        #expect(inLine.errorURLs.isEmpty)
        let creative = try #require(inLine.creatives.first)
        #expect(creative.id == "cr-1")
        #expect(creative.adId == "bc-ad-1")
        #expect(creative.sequence == 1)
        #expect(creative.creativeExtensions.count == 1)
        #expect(creative.creativeExtensions[0].xml.contains("<BrightcoveForeignKey>1</BrightcoveForeignKey>"))
        let linear = try #require(creative.linear)
        #expect(linear.trackingEvents.map(\.event.rawValue) == ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress"])
        #expect(linear.trackingEvents.last?.offset == .time(try clock("00:00:03")))
        #expect(linear.videoClicks == VASTVideoClicks())
        #expect(linear.adParameters == "<xml/>")
        #expect(inLine.extensions.count == 1)
        #expect(inLine.extensions[0].innerXML.contains("<xml>data</xml>"))
    }

    @Test func readsBreakTracking() {
        #expect(
            document.adBreaks[0].trackingEvents == [
                VMAPTrackingEvent(event: .breakStart, url: "https://beacons.example.net/break?e=start&b=pre"),
                VMAPTrackingEvent(event: .breakEnd, url: "https://beacons.example.net/break?e=end&b=pre"),
            ])
    }

    @Test func readsTheCompanion() throws {
        let companions = try #require(document.adBreaks[1].ads[0].inLine?.creatives.last?.companionAds?.companions)
        #expect(
            companions == [
                VASTCompanion(
                    id: "comp-300", width: 300, height: 250,
                    staticResources: [VASTStaticResource(creativeType: "image/jpeg", url: "https://cdn.example.net/companion-300x250.jpg")],
                    clickThrough: "https://advertiser.example.com/companion",
                    trackingEvents: [VASTTrackingEvent(event: .creativeView, url: "https://beacons.example.net/companion?ad=2")]
                )
            ])
    }

    @Test func differentPrefixesAndNoPrefixReadTheSame() throws {
        let renamed = BrightcoveVMAP.dynamicDelivery
            .replacingOccurrences(of: "vmap:", with: "v:")
            .replacingOccurrences(of: "xmlns:vmap=", with: "xmlns:v=")
            .replacingOccurrences(of: "bc:", with: "brightcove:")
            .replacingOccurrences(of: "xmlns:bc=", with: "xmlns:brightcove=")
        let unprefixed = BrightcoveVMAP.dynamicDelivery
            .replacingOccurrences(of: "vmap:", with: "")
            .replacingOccurrences(of: "xmlns:vmap=", with: "xmlns=")
        for text in [renamed, unprefixed] {
            let other = try VMAP.parse(text)
            #expect(other.warnings.isEmpty, "\(other.warnings)")
            // Raw XML fragments carry the renamed namespace declarations; everything read is equal.
            #expect(other.adBreaks.map(\.timeOffset) == document.adBreaks.map(\.timeOffset))
            #expect(other.adBreaks.map(\.trackingEvents) == document.adBreaks.map(\.trackingEvents))
            #expect(other.adBreaks.map(\.ads.count) == document.adBreaks.map(\.ads.count))
            for (mine, theirs) in zip(other.adBreaks.flatMap(\.ads), document.adBreaks.flatMap(\.ads)) {
                #expect(mine.id == theirs.id)
                #expect(mine.inLine?.impressions == theirs.inLine?.impressions)
                #expect(mine.inLine?.creatives.map(\.linear) == theirs.inLine?.creatives.map(\.linear))
                #expect(mine.inLine?.creatives.map(\.companionAds) == theirs.inLine?.creatives.map(\.companionAds))
            }
            #expect(other.stream.contentURL == document.stream.contentURL)
            #expect(other.stream.payloadLength == document.stream.payloadLength)
            #expect(other.stream.flavour == .brightcove)
        }
    }

    @Test func parsesWithAByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(BrightcoveVMAP.dynamicDelivery.utf8)
        #expect(try VMAP.parse(bytes) == document)
    }

    @Test func parsingIsDeterministic() throws {
        #expect(try VMAP.parse(BrightcoveVMAP.dynamicDelivery) == document)
    }
}
