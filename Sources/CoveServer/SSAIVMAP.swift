import Foundation

/// The VMAP for `SSAIFixture`, in the Brightcove Dynamic Delivery flavour (`bc:Brightcove`
/// extension), written against a live server so every URL in it — the stitched stream, the images,
/// every tracking beacon — points back at that server and a test can watch what a player calls.
///
/// Beacons are `<base>/beacons/<adID>/<event>`; break beacons use the break id as `<adID>`. The
/// pre-roll's impression carries `?cb=[CACHEBUSTING]`, so tests see whether a client fills macros in.
/// `ad-mid-1` is skippable after 2 s and has a 300×250 companion; the other ads are not skippable.
/// `ad-pre` carries an AdChoices icon (VAST 3 `<Icons>`) whose view beacon is `ad-pre/iconView?cb=[CACHEBUSTING]`.
public enum SSAIVMAP {
    /// The linear tracking events every ad reports.
    public static let linearEvents = ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "pause", "resume", "skip", "close"]

    /// Break ids, in order: pre-roll, mid-roll, post-roll.
    public static let breakIDs = ["preroll", "midroll-1", "postroll"]

    /// The ad id whose linear has a `skipoffset` (00:00:02).
    public static let skippableAdID = "ad-mid-1"
    /// The ad id with the companion banner.
    public static let companionAdID = "ad-mid-1"
    /// The ad id with the AdChoices icon.
    private static let iconAdID = "ad-pre"
    /// The ads whose linear carries VAST 4.1 `<ClosedCaptionFiles>` in the captioned VMAP
    /// (`document(base:mediaPrefix:adCaptions: true)`): English WebVTT and French TTML (served under
    /// `<mediaPrefix>captions/`), and an SRT file no one serves (a format Cove does not read).
    public static let captionedAdIDs = ["ad-pre", "ad-mid-1"]

    /// An ad's English WebVTT captions, timed from the ad's start: "<adID> caption one" over [0, 2) s and
    /// "<adID> caption two" from 2 s to 6 s — past the 4 s ad's end, which a player cuts it at.
    public static func adCaptionTrack(adID: String) -> String {
        "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n\(adID) caption one\n\n00:00:02.000 --> 00:00:06.000\n\(adID) caption two\n"
    }

    /// An ad's French TTML captions: "<adID> sous-titre un" over [0, 2) s, "<adID> sous-titre deux" over [2, 4) s.
    public static func adCaptionTTML(adID: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="fr"><body><div>
        <p begin="0s" end="2s">\(adID) sous-titre un</p>
        <p begin="2s" end="4s">\(adID) sous-titre deux</p>
        </div></body></tt>

        """
    }

    /// Content captions for the whole stitched stream ("Content caption" throughout), for a video that
    /// shows captions (served as `<mediaPrefix>captions/content.en.vtt`).
    public static func contentCaptionTrack() -> String {
        "WEBVTT\n\n00:00:00.000 --> 00:00:\(SSAIFixture.streamDuration).000\nContent caption\n"
    }

    /// The document, with URLs under `base` (ending in `/`) and the fixture served under `mediaPrefix`
    /// (a path relative to `base`, such as `ssai/`). With `adCaptions`, the `captionedAdIDs` carry
    /// closed-caption files.
    public static func document(base: URL, mediaPrefix: String, adCaptions: Bool = false) -> String {
        let root = base.absoluteString.hasSuffix("/") ? base.absoluteString : base.absoluteString + "/"
        let media = root + mediaPrefix
        let ads = SSAIFixture.pieces.filter(\.isAd)
        let breaks: [(id: String, offset: String, ads: [SSAIFixture.Piece])] = [
            (breakIDs[0], "start", ads.filter { $0.streamStart == 0 }),
            (
                breakIDs[1], "00:00:\(String(format: "%02d", SSAIFixture.midRollContentOffset)).000",
                ads.filter { $0.streamStart > 0 && $0.streamStart < SSAIFixture.streamDuration - 4 }
            ),
            (breakIDs[2], "end", ads.filter { $0.streamRange.upperBound == SSAIFixture.streamDuration }),
        ]
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <vmap:VMAP xmlns:bc="bc" xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0">
              <vmap:Extensions>
                <bc:Brightcove ttl="3600" contenturi="\(escape(media + SSAIFixture.masterPath))" contentlength="\(SSAIFixture.contentDuration)" payloadlength="\(SSAIFixture.streamDuration)" contenttype="application/x-mpegURL"/>
                <bc:thumbnailURL type="thumbnail" width="160" height="90" bandwidth="0">\(escape(media + "thumbnails.vtt"))</bc:thumbnailURL>
              </vmap:Extensions>

            """
        for (number, adBreak) in breaks.enumerated() {
            xml += "  <vmap:AdBreak breakType=\"linear\" breakId=\"\(adBreak.id)\" timeOffset=\"\(adBreak.offset)\">\n"
            xml +=
                "    <vmap:AdSource allowMultipleAds=\"true\" followRedirects=\"true\" id=\"\(number)\">\n      <vmap:VASTData>\n        <VAST version=\"3.0\">\n"
            for (sequence, ad) in adBreak.ads.enumerated() {
                xml += vast(ad, sequence: sequence + 1, beacons: root + "beacons/", media: media, captions: adCaptions)
            }
            xml += "        </VAST>\n      </vmap:VASTData>\n    </vmap:AdSource>\n    <vmap:TrackingEvents>\n"
            for event in ["breakStart", "breakEnd"] {
                xml += "      <vmap:Tracking event=\"\(event)\">\(escape(root + "beacons/\(adBreak.id)/\(event)"))</vmap:Tracking>\n"
            }
            xml += "    </vmap:TrackingEvents>\n  </vmap:AdBreak>\n"
        }
        return xml + "</vmap:VMAP>\n"
    }

    /// The WebVTT thumbnail track the `bc:thumbnailURL` names: one still for the whole stream.
    public static func thumbnailTrack() -> String {
        "WEBVTT\n\n00:00:00.000 --> 00:00:\(SSAIFixture.streamDuration).000\n\(SSAIFixture.thumbnailPath)#xywh=0,0,160,90\n"
    }

    private static func vast(_ ad: SSAIFixture.Piece, sequence: Int, beacons: String, media: String, captions: Bool) -> String {
        let id = ad.adID ?? "content"
        let beacon = { (event: String) in escape(beacons + "\(id)/\(event)") }
        let impression = ad.streamStart == 0 ? beacons + "\(id)/impression?cb=[CACHEBUSTING]" : beacons + "\(id)/impression"
        let skip = id == skippableAdID ? " skipoffset=\"00:00:02\"" : ""
        var xml = """
                      <Ad id="\(id)" sequence="\(sequence)">
                        <InLine>
                          <AdSystem version="1.0">Cove test ad server</AdSystem>
                          <AdTitle>Cove test ad \(id)</AdTitle>
                          <Impression id="imp-\(id)"><![CDATA[\(impression)]]></Impression>
                          <Creatives>
                            <Creative id="cr-\(id)" sequence="1" adId="\(id)">
                              <Linear\(skip)>
                                <Duration>00:00:\(String(format: "%02d", ad.duration)).000</Duration>
                                <TrackingEvents>

            """
        for event in linearEvents {
            xml += "                  <Tracking event=\"\(event)\">\(beacon(event))</Tracking>\n"
        }
        xml += """
                                </TrackingEvents>
                                <VideoClicks>
                                  <ClickThrough id="landing-\(id)">\(escape("https://advertiser.example.com/\(id)?from=cove"))</ClickThrough>
                                  <ClickTracking id="ct-\(id)">\(beacon("clickTracking"))</ClickTracking>
                                </VideoClicks>

            """
        if captions, captionedAdIDs.contains(id) {
            xml += """
                                <MediaFiles>
                                  <ClosedCaptionFiles>
                                    <ClosedCaptionFile type="application/x-subrip" language="en">\(escape(media + "captions/\(id).en.srt"))</ClosedCaptionFile>
                                    <ClosedCaptionFile type="application/ttml+xml" language="fr">\(escape(media + "captions/\(id).fr.ttml"))</ClosedCaptionFile>
                                    <ClosedCaptionFile type="text/vtt" language="en">\(escape(media + "captions/\(id).en.vtt"))</ClosedCaptionFile>
                                  </ClosedCaptionFiles>
                                </MediaFiles>

                """
        }
        if id == iconAdID {
            xml += """
                                <Icons>
                                  <Icon program="AdChoices" width="32" height="32" xPosition="right" yPosition="top">
                                    <StaticResource creativeType="image/png">\(escape(media + SSAIFixture.companionPath))</StaticResource>
                                    <IconClicks><IconClickThrough>\(escape("https://advertiser.example.com/adchoices"))</IconClickThrough></IconClicks>
                                    <IconViewTracking>\(escape(beacons + "\(id)/iconView?cb=[CACHEBUSTING]"))</IconViewTracking>
                                  </Icon>
                                </Icons>

                """
        }
        xml += """
                              </Linear>
                            </Creative>

            """
        if id == companionAdID {
            xml += """
                            <Creative id="cr-\(id)-companion" sequence="1">
                              <CompanionAds>
                                <Companion id="companion-\(id)" width="300" height="250">
                                  <StaticResource creativeType="image/png">\(escape(media + SSAIFixture.companionPath))</StaticResource>
                                  <TrackingEvents>
                                    <Tracking event="creativeView">\(beacon("companionCreativeView"))</Tracking>
                                  </TrackingEvents>
                                  <CompanionClickThrough>\(escape("https://advertiser.example.com/\(id)/companion"))</CompanionClickThrough>
                                </Companion>
                              </CompanionAds>
                            </Creative>

                """
        }
        return xml + "              </Creatives>\n            </InLine>\n          </Ad>\n"
    }

    /// XML text and attribute escaping.
    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
