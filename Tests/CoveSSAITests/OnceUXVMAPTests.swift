import CoveSSAI
import Testing

@Suite("Legacy Once UX VMAP (uo namespace)")
struct OnceUXVMAPTests {
    let document: VMAPDocument

    init() throws {
        document = try VMAP.parse(BrightcoveVMAP.onceUX)
    }

    @Test func readsTheStreamExtension() throws {
        let stream = document.stream
        #expect(stream.flavour == .unicornOnce)
        #expect(stream.contentURL == "https://once.example.net/now/stitched/mp4/95ea75e1/43f54cc0/3a41c6e4/9b118b95/content.mp4?oasid=8d3b56e6%26umtp=0")
        #expect(stream.contentLength == (try seconds("105.867")))
        #expect(stream.payloadLength == (try seconds("196.067")))
        #expect(stream.contextID == "8d3b56e6-639e-4777-9194-cf82fb386c1e")
        #expect(stream.ttl == 600)
        #expect(stream.thumbnails.isEmpty)
        #expect(document.extensions.map(\.name) == ["uo:unicornOnce", "uo:contentImpressions", "uo:requestParameters"])
    }

    @Test func readsContentImpressions() throws {
        #expect(
            document.stream.contentImpressions == [
                VMAPContentImpression(url: "https://once.example.net/content-start?ctx=8d3b56e6", time: .zero),
                VMAPContentImpression(url: "https://once.example.net/content-half?ctx=8d3b56e6", time: try seconds("52.9")),
            ])
    }

    @Test func readsBreaksWithTheLegacyDurationSuffix() throws {
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(document.adBreaks.map(\.timeOffset) == [.start, .time(try clock("00:00:10")), .end])
        let durations = document.adBreaks.flatMap(\.ads).map { $0.inLine?.creatives.first?.linear?.duration }
        #expect(
            durations == [
                try clock("00:00:30.0666666"), try clock("00:00:32"), try clock("00:00:10"), try clock("00:00:18.1333334"),
            ])
        // 105.867 of content plus 90.2 of ads is the 196.067 payload.
        let total = durations.compactMap(\.self).reduce(document.stream.contentLength!) { $0.adding($1)! }
        #expect(total == document.stream.payloadLength)
    }

    @Test func readsQuartileOffsetsInBareSeconds() throws {
        let linear = try #require(document.adBreaks[0].ads[0].inLine?.creatives[0].linear)
        #expect(
            linear.trackingEvents.map(\.offset) == [
                .time(.zero), .time(try seconds("7")), .time(try seconds("15")), .time(try seconds("22")), .time(try seconds("30")),
            ])
        #expect(linear.videoClicks.clickThrough == VASTClick(id: "abc", url: "https://www.example.com/coffee"))
        #expect(linear.videoClicks.clickTracking == [VASTClick(id: nil, url: "https://clicktracking.example.com/test?click")])
        #expect(linear.mediaFiles.isEmpty)
    }

    @Test func keepsNonLinearAdsMinimally() throws {
        let creatives = try #require(document.adBreaks[1].ads[0].inLine?.creatives)
        #expect(creatives[0].linear?.videoClicks.clickThrough == nil)
        let nonLinear = try #require(creatives[1].nonLinearAds)
        #expect(nonLinear.trackingEvents.map(\.event) == [.creativeView])
        #expect(nonLinear.nonLinears.count == 1)
        #expect(nonLinear.nonLinears[0].id == nil)
        #expect(nonLinear.nonLinears[0].width == 480)
        #expect(nonLinear.nonLinears[0].minSuggestedDuration == (try clock("00:00:30")))
        #expect(nonLinear.nonLinears[0].raw.attributes["scalable"] == "false")
    }

    @Test func keepsAdExtensionsAsXML() throws {
        let extensions = try #require(document.adBreaks[1].ads[0].inLine?.extensions)
        #expect(extensions.count == 2)
        #expect(extensions[0].innerXML.contains(#"<ad adId="adId" ownerId="789"/>"#))
        #expect(extensions[1].attributes["type"] == "geo")
        #expect(extensions[1].xml.contains("<Bandwidth>4</Bandwidth>"))
    }

    @Test func impressionIdsAreKept() throws {
        let inLine = try #require(document.adBreaks[1].ads[0].inLine)
        #expect(inLine.impressions == [VASTImpression(id: "FWi_1085022.0", url: "https://fw.example.com/l/1?s=b151&n=168234&et=i")])
    }

    @Test func aVMAPWithoutExtensionsHasNoStream() throws {
        let text =
            #"<vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0"><vmap:AdBreak timeOffset="start" breakType="linear"><vmap:AdSource><vmap:AdTagURI templateType="vast3"><![CDATA[ https://ads.example.com/tag?cb=[TIMESTAMP] ]]></vmap:AdTagURI></vmap:AdSource></vmap:AdBreak></vmap:VMAP>"#
        let document = try VMAP.parse(text)
        #expect(document.stream == .none)
        #expect(document.adBreaks[0].adSource?.content == .adTagURI(VMAPAdTagURI(uri: "https://ads.example.com/tag?cb=[TIMESTAMP]", templateType: "vast3")))
        #expect(document.adBreaks[0].ads.isEmpty)
    }
}
