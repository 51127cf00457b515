import CoveCore
import CoveTesting
import Foundation
import Testing

/// `cove vmap` on VAST 4.1 ads: the JSON holds the whole parsed ad (icons with their click fallback
/// images, closed captions, media files, verifications, error URLs, universal ad ids, mezzanine,
/// `conditionalAd`) and the text output names the parts a reader checks by eye.
@Suite("cove vmap (VAST 4.1)", .serialized)
struct VMAPCLITests {
    static let vmap = """
        <?xml version="1.0" encoding="UTF-8"?>
        <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:bc="bc" version="1.0">
          <vmap:Extensions>
            <bc:Brightcove contenturi="https://cdn.example/content.m3u8?bc_token=secret123" contentlength="30.0" payloadlength="40.0"/>
          </vmap:Extensions>
          <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
            <vmap:AdSource id="pre"><vmap:VASTAdData><VAST version="4.1"><Ad id="a41" conditionalAd="true"><InLine>
              <AdSystem>t</AdSystem><AdTitle>Four one</AdTitle><Impression>https://b.example/imp</Impression>
              <Error>https://b.example/error?code=[ERRORCODE]</Error>
              <AdVerifications><Verification vendor="om.example"><JavaScriptResource apiFramework="omid">https://om.example/v.js</JavaScriptResource></Verification></AdVerifications>
              <Creatives><Creative>
                <UniversalAdId idRegistry="Ad-ID">CNPA0484000H</UniversalAdId>
                <Linear><Duration>00:00:10.000</Duration>
                  <MediaFiles>
                    <MediaFile delivery="streaming" type="application/x-mpegURL" width="1280" height="720">https://b.example/ad.m3u8</MediaFile>
                    <Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080">https://b.example/mezzanine.mp4</Mezzanine>
                    <ClosedCaptionFiles>
                      <ClosedCaptionFile type="text/vtt" language="en">https://b.example/ad.en.vtt</ClosedCaptionFile>
                      <ClosedCaptionFile type="application/ttml+xml" language="es">https://b.example/ad.es.ttml</ClosedCaptionFile>
                    </ClosedCaptionFiles>
                  </MediaFiles>
                  <Icons>
                    <Icon program="AdChoices" width="77" height="15" xPosition="right" yPosition="top" offset="00:00:01">
                      <StaticResource creativeType="image/png">https://b.example/adchoices.png</StaticResource>
                      <IconClicks>
                        <IconClickThrough>https://b.example/why</IconClickThrough>
                        <IconClickFallbackImages><IconClickFallbackImage width="300" height="150"><AltText>Why this ad</AltText>
                          <StaticResource creativeType="image/png">https://b.example/why.png</StaticResource></IconClickFallbackImage></IconClickFallbackImages>
                      </IconClicks>
                      <IconViewTracking>https://b.example/icon-view</IconViewTracking>
                    </Icon>
                    <Icon program="Broken" xPosition="middle"><IconViewTracking>https://b.example/broken-view</IconViewTracking></Icon>
                  </Icons>
                </Linear>
              </Creative></Creatives></InLine></Ad></VAST></vmap:VASTAdData></vmap:AdSource>
          </vmap:AdBreak>
        </vmap:VMAP>
        """

    func write() throws -> (folder: URL, file: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-vmap41-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("ads.vmap")
        try Data(Self.vmap.utf8).write(to: file)
        return (folder, file)
    }

    @Test func jsonShowsIconsCaptionsAndEverythingElseTheAdHolds() async throws {
        let (folder, file) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await CLITests.cove(["vmap", file.path, "--json"])
        #expect(run.status == 0, "\(run.errorOutput)")
        let json = try JSONValue.parse(Array(run.output.utf8))
        let ad = try #require(json["breaks"]?.arrayValue?.first?["ads"]?.arrayValue?.first)
        // The beacon the player sends at the ad's start, for the icon that has an image.
        #expect(ad["beacons"]?["iconView"]?.arrayValue?.compactMap(\.stringValue) == ["https://b.example/icon-view"])
        let vast = try #require(ad["vast"])
        #expect(vast["conditionalAd"] == true)
        let inLine = try #require(vast["content"]?["inLine"])
        #expect(inLine["errorURLs"]?.arrayValue?.compactMap(\.stringValue) == ["https://b.example/error?code=[ERRORCODE]"])
        #expect(inLine["adVerifications"]?.arrayValue?.first?["vendor"] == "om.example")
        let creative = try #require(inLine["creatives"]?.arrayValue?.first)
        #expect(creative["universalAdIds"]?.arrayValue?.first?["value"] == "CNPA0484000H")
        let linear = try #require(creative["linear"])
        #expect(linear["mediaFiles"]?.arrayValue?.first?["url"] == "https://b.example/ad.m3u8")
        #expect(linear["mezzanines"]?.arrayValue?.first?["url"] == "https://b.example/mezzanine.mp4")
        let captions = try #require(linear["closedCaptionFiles"]?.arrayValue)
        #expect(captions.map { $0["language"]?.stringValue } == ["en", "es"])
        #expect(captions.first?["url"]?.stringValue == "https://b.example/ad.en.vtt")
        #expect(captions.first?["type"]?.stringValue == "text/vtt")
        let icons = try #require(linear["icons"]?.arrayValue)
        #expect(icons.map { $0["program"]?.stringValue } == ["AdChoices", "Broken"])
        #expect(icons[0]["xPosition"]?.stringValue == "right")
        #expect(icons[0]["width"]?.int64Value == 77)
        #expect(icons[0]["offset"]?.doubleValue == 1)
        #expect(icons[0]["clickThrough"] == "https://b.example/why")
        #expect(icons[0]["clickFallbackImages"]?.arrayValue?.first?["altText"] == "Why this ad")
        #expect(icons[0]["clickFallbackImages"]?.arrayValue?.first?["staticResource"]?["url"] == "https://b.example/why.png")
        #expect(icons[0]["viewTracking"]?.arrayValue?.compactMap(\.stringValue) == ["https://b.example/icon-view"])
        // The careless icon is kept, and what is wrong with it is a warning, not a failure.
        let warnings = json["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(warnings.contains { $0.hasPrefix("badAttribute") && $0.contains("xPosition") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("incompleteElement") && $0.contains(#"Icon[2] "Broken""#) }, "\(warnings)")
        #expect(json["stream"]?["contentURL"]?.stringValue?.contains("secret123") == false, "tokens stay redacted")
    }

    @Test func textNamesTheIconsCaptionsAndFiles() async throws {
        let (folder, file) = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await CLITests.cove(["vmap", file.path])
        #expect(run.status == 0, "\(run.errorOutput)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("    conditional ad"), "\(run.output)")
        #expect(lines.contains("    universal ad id: Ad-ID CNPA0484000H"), "\(run.output)")
        #expect(
            lines.contains("    icon AdChoices 77×15 at right, top from 1.000 s; 1 view beacon(s), 0 click beacon(s), 1 click fallback image(s)"),
            "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("    icon Broken") && $0.contains("(nothing to show)") }, "\(run.output)")
        #expect(lines.contains("    closed captions: en (text/vtt), es (application/ttml+xml)"), "\(run.output)")
        #expect(lines.contains("    1 media file(s), 1 mezzanine(s), 1 verification(s), 1 error URL(s)"), "\(run.output)")
        #expect(run.errorOutput.contains("warning: incompleteElement"))
    }
}
