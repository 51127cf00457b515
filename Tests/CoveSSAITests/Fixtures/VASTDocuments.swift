/// Standalone VAST responses written for these tests: one VAST 3 and one VAST 4 inline response,
/// plus builders for wrapper chains.
enum VASTDocuments {
    /// VAST 3: a skippable linear ad with AdVerifications in an `Extension` (the pre-4.1 place),
    /// an ad whose `Duration` is garbage (dropped), and an `Ad` with neither InLine nor Wrapper.
    static let vast3 = #"""
        <?xml version="1.0" encoding="utf-8"?>
        <VAST version="3.0">
          <Ad id="v3-good" sequence="1">
            <InLine>
              <AdSystem version="3.1">Example Server</AdSystem>
              <AdTitle>VAST 3 ad</AdTitle>
              <Impression id="i1"><![CDATA[https://imp.example.com/v3?a=1&b=2]]></Impression>
              <Error><![CDATA[https://err.example.com/v3?code=[ERRORCODE]]]></Error>
              <Creatives>
                <Creative id="101" AdID="legacy-ad-id">
                  <Linear skipoffset="10%">
                    <Duration>00:00:20.500</Duration>
                    <TrackingEvents>
                      <Tracking event="pause">https://t.example.com/pause</Tracking>
                      <Tracking event="resume">https://t.example.com/resume</Tracking>
                      <Tracking event="mute">https://t.example.com/mute</Tracking>
                      <Tracking event="unmute">https://t.example.com/unmute</Tracking>
                      <Tracking event="closeLinear">https://t.example.com/close</Tracking>
                      <Tracking event="progress" offset="00:00:05.250">https://t.example.com/p5</Tracking>
                      <Tracking event="progress" offset="soon">https://t.example.com/bad-offset</Tracking>
                    </TrackingEvents>
                    <VideoClicks>
                      <ClickThrough>https://landing.example.com/v3</ClickThrough>
                      <ClickTracking>https://t.example.com/click</ClickTracking>
                    </VideoClicks>
                    <MediaFiles>
                      <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="800">
                        https://media.example.com/v3-360.mp4
                      </MediaFile>
                      <MediaFile delivery="progressive" type="video/webm" width="wide" height="360">https://media.example.com/v3.webm</MediaFile>
                    </MediaFiles>
                  </Linear>
                </Creative>
              </Creatives>
              <Extensions>
                <Extension type="AdVerifications">
                  <AdVerifications>
                    <Verification vendor="legacy-vendor">
                      <JavaScriptResource apiFramework="omid" browserOptional="false">https://verify.example.com/legacy.js</JavaScriptResource>
                      <VerificationParameters>a=1&amp;b=2</VerificationParameters>
                    </Verification>
                  </AdVerifications>
                </Extension>
              </Extensions>
            </InLine>
          </Ad>
          <Ad id="v3-bad-duration" sequence="2">
            <InLine>
              <AdSystem>Example Server</AdSystem>
              <AdTitle>Broken</AdTitle>
              <Creatives>
                <Creative>
                  <Linear>
                    <Duration>about thirty seconds</Duration>
                  </Linear>
                </Creative>
              </Creatives>
            </InLine>
          </Ad>
          <Ad id="v3-empty"/>
        </VAST>
        """#

    /// VAST 4.2 in its default namespace, with most optional parts present.
    static let vast4 = #"""
        <VAST version="4.2" xmlns="http://www.iab.com/VAST">
          <Ad id="v4-ad" sequence="1" adType="video">
            <InLine>
              <AdSystem version="4.2">ExampleAdServer</AdSystem>
              <AdServingId>a532d16d-4d7f-4440-bd29-2ec0e693fc80</AdServingId>
              <AdTitle>VAST 4 linear</AdTitle>
              <Advertiser>Example Co</Advertiser>
              <Impression id="imp-1"><![CDATA[ https://imp.example.com/i?id=1&cb=[CACHEBUSTING] ]]></Impression>
              <Impression id="imp-2">https://imp2.example.com/i</Impression>
              <Error><![CDATA[https://err.example.com/e?code=[ERRORCODE]]]></Error>
              <ViewableImpression id="vi">
                <Viewable><![CDATA[https://v.example.com/viewable]]></Viewable>
                <NotViewable>https://v.example.com/not</NotViewable>
                <ViewUndetermined>https://v.example.com/undetermined</ViewUndetermined>
              </ViewableImpression>
              <AdVerifications>
                <Verification vendor="company.com-omid">
                  <JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://verification.example.com/omid.js]]></JavaScriptResource>
                  <ExecutableResource apiFramework="omid" type="text/javascript">https://verification.example.com/exec</ExecutableResource>
                  <TrackingEvents>
                    <Tracking event="verificationNotExecuted"><![CDATA[https://verification.example.com/not-executed?reason=[REASON]]]></Tracking>
                  </TrackingEvents>
                  <VerificationParameters><![CDATA[{"key":"value","n":1}]]></VerificationParameters>
                </Verification>
              </AdVerifications>
              <Creatives>
                <Creative id="c-1" adId="ad-1" sequence="1">
                  <UniversalAdId idRegistry="Ad-ID">CNPA0484000H</UniversalAdId>
                  <Linear skipoffset="00:00:05.000">
                    <Duration>00:00:30.000</Duration>
                    <TrackingEvents>
                      <Tracking event="creativeView">https://t4.example.com/creativeView</Tracking>
                      <Tracking event="start">https://t4.example.com/start</Tracking>
                      <Tracking event="progress" offset="00:00:10">https://t4.example.com/p10</Tracking>
                      <Tracking event="progress" offset="50%">https://t4.example.com/p50</Tracking>
                      <Tracking event="loaded">https://t4.example.com/loaded</Tracking>
                      <Tracking event="vendorSpecificThing">https://t4.example.com/vendor</Tracking>
                    </TrackingEvents>
                    <VideoClicks>
                      <ClickThrough id="ct">https://advertiser.example.com/v4</ClickThrough>
                      <ClickTracking id="t1">https://t4.example.com/click1</ClickTracking>
                      <ClickTracking id="t2">https://t4.example.com/click2</ClickTracking>
                      <CustomClick id="cc">https://t4.example.com/custom</CustomClick>
                    </VideoClicks>
                    <MediaFiles>
                      <MediaFile id="mf1" delivery="progressive" type="video/mp4" width="1280" height="720" bitrate="2000" codec="H.264"><![CDATA[https://media.example.com/ad-720.mp4]]></MediaFile>
                      <MediaFile delivery="streaming" type="application/x-mpegURL" width="1920" height="1080" minBitrate="1000" maxBitrate="6000">https://media.example.com/ad.m3u8</MediaFile>
                    </MediaFiles>
                  </Linear>
                  <CreativeExtensions>
                    <CreativeExtension type="application/json"><![CDATA[{"a":1}]]></CreativeExtension>
                  </CreativeExtensions>
                </Creative>
                <Creative id="c-2">
                  <CompanionAds required="any">
                    <Companion id="comp-1" width="300" height="250" assetWidth="300" assetHeight="250" adSlotID="slot-a">
                      <StaticResource creativeType="image/png">https://c.example.com/300x250.png</StaticResource>
                      <AltText>An example</AltText>
                      <CompanionClickThrough>https://advertiser.example.com/companion</CompanionClickThrough>
                      <CompanionClickTracking id="cct">https://c.example.com/click</CompanionClickTracking>
                      <TrackingEvents>
                        <Tracking event="creativeView">https://c.example.com/view</Tracking>
                      </TrackingEvents>
                    </Companion>
                    <Companion width="728" height="90">
                      <IFrameResource>https://c.example.com/iframe.html</IFrameResource>
                    </Companion>
                    <Companion width="160" height="600">
                      <HTMLResource><![CDATA[<div class="c">Hi &amp; bye</div>]]></HTMLResource>
                    </Companion>
                  </CompanionAds>
                </Creative>
                <Creative id="c-3">
                  <NonLinearAds>
                    <NonLinear id="nl" width="480" height="70" minSuggestedDuration="00:00:10">
                      <StaticResource creativeType="image/png">https://nl.example.com/o.png</StaticResource>
                      <NonLinearClickThrough>https://nl.example.com/ct</NonLinearClickThrough>
                      <NonLinearClickTracking id="nlt">https://nl.example.com/click</NonLinearClickTracking>
                    </NonLinear>
                    <TrackingEvents>
                      <Tracking event="creativeView">https://nl.example.com/view</Tracking>
                    </TrackingEvents>
                  </NonLinearAds>
                </Creative>
              </Creatives>
              <Extensions>
                <Extension type="Custom"><Data a="1">x &lt; y</Data></Extension>
              </Extensions>
            </InLine>
          </Ad>
        </VAST>
        """#

    /// A wrapper whose ad tag is `next`, with its own impression, error, tracking and click tracking
    /// (all tagged with `name` so tests can see where merged beacons came from).
    static func wrapper(
        _ name: String, next: String, followAdditionalWrappers: Bool? = nil, allowMultipleAds: Bool? = nil,
        fallbackOnNoAd: Bool? = nil
    ) -> String {
        var attributes = ""
        if let followAdditionalWrappers { attributes += #" followAdditionalWrappers="\#(followAdditionalWrappers)""# }
        if let allowMultipleAds { attributes += #" allowMultipleAds="\#(allowMultipleAds)""# }
        if let fallbackOnNoAd { attributes += #" fallbackOnNoAd="\#(fallbackOnNoAd)""# }
        return #"""
            <VAST version="4.0">
              <Ad id="\#(name)">
                <Wrapper\#(attributes)>
                  <AdSystem>Wrapper \#(name)</AdSystem>
                  <VASTAdTagURI><![CDATA[  \#(next)  ]]></VASTAdTagURI>
                  <Impression id="\#(name)">https://wrap.example.com/imp?w=\#(name)</Impression>
                  <Error>https://wrap.example.com/err?w=\#(name)&amp;code=[ERRORCODE]</Error>
                  <Creatives>
                    <Creative>
                      <Linear>
                        <TrackingEvents>
                          <Tracking event="start">https://wrap.example.com/start?w=\#(name)</Tracking>
                          <Tracking event="complete">https://wrap.example.com/complete?w=\#(name)</Tracking>
                        </TrackingEvents>
                        <VideoClicks>
                          <ClickThrough>https://wrap.example.com/ignored-clickthrough?w=\#(name)</ClickThrough>
                          <ClickTracking>https://wrap.example.com/click?w=\#(name)</ClickTracking>
                        </VideoClicks>
                      </Linear>
                    </Creative>
                  </Creatives>
                </Wrapper>
              </Ad>
            </VAST>
            """#
    }

    /// An inline response with one 15-second linear ad.
    static func inline(_ name: String, sequence: Int? = nil) -> String {
        let sequenceAttribute = sequence.map { #" sequence="\#($0)""# } ?? ""
        return #"""
            <VAST version="4.0">
              <Ad id="\#(name)"\#(sequenceAttribute)>
                <InLine>
                  <AdSystem>Final</AdSystem>
                  <AdTitle>\#(name)</AdTitle>
                  <Impression>https://final.example.com/imp?ad=\#(name)</Impression>
                  <Error>https://final.example.com/err?ad=\#(name)</Error>
                  <Creatives>
                    <Creative>
                      <Linear>
                        <Duration>00:00:15</Duration>
                        <TrackingEvents>
                          <Tracking event="start">https://final.example.com/start?ad=\#(name)</Tracking>
                        </TrackingEvents>
                        <VideoClicks>
                          <ClickThrough>https://advertiser.example.com/\#(name)</ClickThrough>
                          <ClickTracking>https://final.example.com/click?ad=\#(name)</ClickTracking>
                        </VideoClicks>
                      </Linear>
                    </Creative>
                  </Creatives>
                </InLine>
              </Ad>
            </VAST>
            """#
    }

    /// A pod of inline ads in one response.
    static func pod(_ names: [String]) -> String {
        let ads = names.enumerated().map { index, name in
            #"<Ad id="\#(name)" sequence="\#(index + 1)"><InLine><AdSystem>Pod</AdSystem><AdTitle>\#(name)</AdTitle><Creatives><Creative><Linear><Duration>00:00:10</Duration></Linear></Creative></Creatives></InLine></Ad>"#
        }
        return #"<VAST version="4.0">\#(ads.joined())</VAST>"#
    }

    /// A no-ad response with a root-level error URL.
    static let noAd = #"<VAST version="4.0"><Error>https://noad.example.com/err?code=[ERRORCODE]</Error></VAST>"#
}
