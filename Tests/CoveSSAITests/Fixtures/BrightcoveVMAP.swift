/// VMAP documents in the two shapes Brightcove SSAI serves, written for these tests after the
/// structure in the Brightcove SSAI documentation (tokens and hosts invented).
enum BrightcoveVMAP {
    /// Dynamic Delivery (`bc` namespace): a pre-roll, a two-ad mid-roll at 00:00:10.000 and a
    /// post-roll. `payloadlength` is `contentlength` plus the four ad durations, exactly.
    static let dynamicDelivery = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <vmap:VMAP xmlns:bc="bc" xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.0">
          <vmap:Extensions>
            <bc:Brightcove ttl="3600" contenturi="https://ssaimanifest.example.net/us-east-1/playback/once/v1/hls/v4/clear/1752604059001/d6190656/dca41ae8/6830b2e4/content.m3u8?bc_token=SECRET-TOKEN-123&amp;fastly=1"
              contentlength="60.0574" payloadlength="101.1834" contenttype="application/x-mpegURL" />
            <bc:thumbnailURL type="thumbnail" width="480" height="270" bandwidth="0">
              https://ssai.playback.example.net/v1/thumbnail/1752604059001/dca41ae8/low-res/6830b2e4/thumbnail.vtt?bc_token=SECRET-TOKEN-123
            </bc:thumbnailURL>
          </vmap:Extensions>
          <vmap:AdBreak breakType="linear" breakId="PreRoll_0_0" timeOffset="start">
            <vmap:AdSource allowMultipleAds="true" followRedirects="true" id="0">
              <vmap:VASTData>
                <VAST version="3.0" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
                  <Ad id="1">
                    <InLine>
                      <AdSystem version="2.1">Test Ad Server</AdSystem>
                      <AdTitle>Portals</AdTitle>
                      <Description>Demo ad number 6</Description>
                      <Impression id="imp-1"><![CDATA[
                        https://beacons.example.net/impression?ad=1&cb=[CACHEBUSTING]
                      ]]></Impression>
                      <Impression>https://second.example.net/imp?ad=1&amp;x=2</Impression>
                      <Error></Error>
                      <Creatives>
                        <Creative id="cr-1" sequence="1" adId="bc-ad-1">
                          <Linear>
                            <CreativeExtensions>
                              <CreativeExtension>
                                <BrightcoveForeignKey>1</BrightcoveForeignKey>
                              </CreativeExtension>
                            </CreativeExtensions>
                            <Duration>00:00:05.9392</Duration>
                            <TrackingEvents>
                              <Tracking event="creativeView">https://beacons.example.net/t?e=creativeView&amp;ad=1</Tracking>
                              <Tracking event="start">https://beacons.example.net/t?e=start&amp;ad=1</Tracking>
                              <Tracking event="firstQuartile">https://beacons.example.net/t?e=q1&amp;ad=1</Tracking>
                              <Tracking event="midpoint">https://beacons.example.net/t?e=mid&amp;ad=1</Tracking>
                              <Tracking event="thirdQuartile">https://beacons.example.net/t?e=q3&amp;ad=1</Tracking>
                              <Tracking event="complete">https://beacons.example.net/t?e=complete&amp;ad=1</Tracking>
                              <Tracking event="progress" offset="00:00:03.000">https://beacons.example.net/t?e=progress3&amp;ad=1</Tracking>
                            </TrackingEvents>
                            <AdParameters>
                              <xml></xml>
                            </AdParameters>
                            <VideoClicks/>
                          </Linear>
                        </Creative>
                      </Creatives>
                      <Extensions>
                        <Extension>
                          <xml>data</xml>
                        </Extension>
                      </Extensions>
                    </InLine>
                  </Ad>
                </VAST>
              </vmap:VASTData>
            </vmap:AdSource>
            <vmap:TrackingEvents>
              <vmap:Tracking event="breakStart">https://beacons.example.net/break?e=start&amp;b=pre</vmap:Tracking>
              <vmap:Tracking event="breakEnd">https://beacons.example.net/break?e=end&amp;b=pre</vmap:Tracking>
            </vmap:TrackingEvents>
          </vmap:AdBreak>
          <vmap:AdBreak breakType="linear" breakId="MidRoll_10_0" timeOffset="00:00:10.000">
            <vmap:AdSource allowMultipleAds="true" followRedirects="true" id="1">
              <vmap:VASTData>
                <VAST version="3.0">
                  <Ad id="2" sequence="1">
                    <InLine>
                      <AdSystem>Test Ad Server</AdSystem>
                      <AdTitle>Marketing</AdTitle>
                      <Impression id="imp-2">https://beacons.example.net/impression?ad=2</Impression>
                      <Creatives>
                        <Creative>
                          <Linear skipoffset="00:00:05">
                            <CreativeExtensions>
                              <CreativeExtension>
                                <BrightcoveForeignKey>2</BrightcoveForeignKey>
                              </CreativeExtension>
                            </CreativeExtensions>
                            <Duration>00:00:12.1788</Duration>
                            <TrackingEvents>
                              <Tracking event="start">https://beacons.example.net/t?e=start&amp;ad=2</Tracking>
                              <Tracking event="skip">https://beacons.example.net/t?e=skip&amp;ad=2</Tracking>
                            </TrackingEvents>
                            <VideoClicks>
                              <ClickThrough id="learn-more"><![CDATA[ https://advertiser.example.com/landing?src=ssai ]]></ClickThrough>
                              <ClickTracking id="ct-1">https://beacons.example.net/click?ad=2&amp;n=1</ClickTracking>
                              <ClickTracking id="ct-2">https://beacons.example.net/click?ad=2&amp;n=2</ClickTracking>
                            </VideoClicks>
                          </Linear>
                        </Creative>
                        <Creative>
                          <CompanionAds>
                            <Companion id="comp-300" width="300" height="250">
                              <StaticResource creativeType="image/jpeg">https://cdn.example.net/companion-300x250.jpg</StaticResource>
                              <TrackingEvents>
                                <Tracking event="creativeView">https://beacons.example.net/companion?ad=2</Tracking>
                              </TrackingEvents>
                              <CompanionClickThrough>https://advertiser.example.com/companion</CompanionClickThrough>
                            </Companion>
                          </CompanionAds>
                        </Creative>
                      </Creatives>
                    </InLine>
                  </Ad>
                  <Ad id="3" sequence="2">
                    <InLine>
                      <AdSystem>Test Ad Server</AdSystem>
                      <AdTitle>Second in pod</AdTitle>
                      <Impression>https://beacons.example.net/impression?ad=3</Impression>
                      <Creatives>
                        <Creative>
                          <Linear skipoffset="25%">
                            <Duration>00:00:15.000</Duration>
                            <TrackingEvents>
                              <Tracking event="start">https://beacons.example.net/t?e=start&amp;ad=3</Tracking>
                              <Tracking event="progress" offset="50%">https://beacons.example.net/t?e=half&amp;ad=3</Tracking>
                            </TrackingEvents>
                          </Linear>
                        </Creative>
                      </Creatives>
                    </InLine>
                  </Ad>
                </VAST>
              </vmap:VASTData>
            </vmap:AdSource>
          </vmap:AdBreak>
          <vmap:AdBreak breakType="linear" breakId="PostRoll_60_0" timeOffset="end">
            <vmap:AdSource allowMultipleAds="true" followRedirects="true" id="2">
              <vmap:VASTData>
                <VAST version="3.0">
                  <Ad id="4">
                    <InLine>
                      <AdSystem>Test Ad Server</AdSystem>
                      <AdTitle>Brand</AdTitle>
                      <Creatives>
                        <Creative>
                          <Linear>
                            <Duration>00:00:08.0080</Duration>
                          </Linear>
                        </Creative>
                      </Creatives>
                    </InLine>
                  </Ad>
                </VAST>
              </vmap:VASTData>
            </vmap:AdSource>
          </vmap:AdBreak>
        </vmap:VMAP>
        """#

    /// Legacy Once UX (`uo` namespace): content impressions, durations with a `+00:00` suffix,
    /// quartile offsets in bare seconds, as the public Once UX test fixtures have them.
    static let onceUX = #"""
        <vmap:VMAP version="1.0" xmlns:uo="uo" xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <vmap:Extensions>
            <uo:unicornOnce contentlength="105.867" contenturi="https://once.example.net/now/stitched/mp4/95ea75e1/43f54cc0/3a41c6e4/9b118b95/content.mp4?oasid=8d3b56e6%26umtp=0" contextid="8d3b56e6-639e-4777-9194-cf82fb386c1e" payloadlength="196.067" ttl="600"/>
            <uo:contentImpressions>
              <uo:Impression url="https://once.example.net/content-start?ctx=8d3b56e6" time="0"/>
              <uo:Impression url="https://once.example.net/content-half?ctx=8d3b56e6" time="52.9"/>
            </uo:contentImpressions>
            <uo:requestParameters/>
          </vmap:Extensions>
          <vmap:AdBreak breakId="PreRoll_0_0" breakType="linear" timeOffset="start">
            <vmap:AdSource allowMultipleAds="true" followRedirects="true" id="0">
              <vmap:VASTData>
                <VAST xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
                  <Ad id="UmCoffee">
                    <InLine>
                      <AdSystem>UnicornInternal</AdSystem>
                      <AdTitle>videoadvertisement</AdTitle>
                      <Description>video ad</Description>
                      <Impression>https://impression.example.com/impression/coffee</Impression>
                      <Creatives>
                        <Creative>
                          <Linear>
                            <Duration>00:00:30.0666666+00:00</Duration>
                            <TrackingEvents>
                              <Tracking event="start" offset="0">https://tracking.example.com/start/coffee</Tracking>
                              <Tracking event="firstQuartile" offset="7">https://tracking.example.com/firstQuartile/coffee</Tracking>
                              <Tracking event="midpoint" offset="15">https://tracking.example.com/midpoint/coffee</Tracking>
                              <Tracking event="thirdQuartile" offset="22">https://tracking.example.com/thirdQuartile/coffee</Tracking>
                              <Tracking event="complete" offset="30">https://tracking.example.com/complete/coffee</Tracking>
                            </TrackingEvents>
                            <VideoClicks>
                              <ClickThrough id="abc">https://www.example.com/coffee</ClickThrough>
                              <ClickTracking id="">https://clicktracking.example.com/test?click</ClickTracking>
                            </VideoClicks>
                            <MediaFiles/>
                          </Linear>
                        </Creative>
                        <Creative>
                          <CompanionAds>
                            <Companion height="250" id="54061052904921234300x250" width="300">
                              <StaticResource creativeType="image/jpeg">https://demo.example.com/ads/coffee300.jpg</StaticResource>
                              <TrackingEvents>
                                <Tracking event="creativeView">https://companiontrack.example.com/companion/coffee</Tracking>
                              </TrackingEvents>
                              <CompanionClickThrough>https://www.example.com/coffee</CompanionClickThrough>
                            </Companion>
                          </CompanionAds>
                        </Creative>
                      </Creatives>
                    </InLine>
                  </Ad>
                </VAST>
              </vmap:VASTData>
            </vmap:AdSource>
          </vmap:AdBreak>
          <vmap:AdBreak breakId="MidRoll_10_0" breakType="linear" timeOffset="00:00:10.000">
            <vmap:AdSource allowMultipleAds="true" followRedirects="true" id="1">
              <vmap:VASTData>
                <VAST>
                  <Ad id="pod-a" sequence="1">
                    <InLine>
                      <AdSystem>FreeWheel</AdSystem>
                      <AdTitle>Unknown</AdTitle>
                      <Impression id="FWi_1085022.0">https://fw.example.com/l/1?s=b151&amp;n=168234&amp;et=i</Impression>
                      <Creatives>
                        <Creative sequence="1">
                          <Linear>
                            <Duration>00:00:32.0000000+00:00</Duration>
                            <VideoClicks>
                              <ClickThrough />
                              <ClickTracking id="FWc_1085022.0">https://fw.example.com/l/1?s=b151&amp;et=c</ClickTracking>
                            </VideoClicks>
                            <MediaFiles />
                          </Linear>
                        </Creative>
                        <Creative sequence="1">
                          <NonLinearAds>
                            <TrackingEvents>
                              <Tracking event="creativeView">https://fw.example.com/nonlinear/view</Tracking>
                            </TrackingEvents>
                            <NonLinear id="" width="480" height="360" scalable="false" maintainAspectRatio="false" minSuggestedDuration="00:00:30.0000000+00:00" />
                          </NonLinearAds>
                        </Creative>
                      </Creatives>
                      <Extensions>
                        <Extension>
                          <ad ownerId="789" adId="adId" />
                        </Extension>
                        <Extension type="geo">
                          <Bandwidth>4</Bandwidth>
                        </Extension>
                      </Extensions>
                    </InLine>
                  </Ad>
                  <Ad id="pod-b" sequence="2">
                    <InLine>
                      <AdSystem>FreeWheel</AdSystem>
                      <AdTitle>Unknown</AdTitle>
                      <Creatives>
                        <Creative>
                          <Linear>
                            <Duration>00:00:10.0000000+00:00</Duration>
                          </Linear>
                        </Creative>
                      </Creatives>
                    </InLine>
                  </Ad>
                </VAST>
              </vmap:VASTData>
            </vmap:AdSource>
          </vmap:AdBreak>
          <vmap:AdBreak breakId="PostRoll_105_0" breakType="linear" timeOffset="end">
            <vmap:AdSource allowMultipleAds="true" followRedirects="true" id="2">
              <vmap:VASTData>
                <VAST>
                  <Ad id="post">
                    <InLine>
                      <AdSystem>UnicornInternal</AdSystem>
                      <AdTitle>post</AdTitle>
                      <Creatives>
                        <Creative>
                          <Linear>
                            <Duration>00:00:18.1333334+00:00</Duration>
                          </Linear>
                        </Creative>
                      </Creatives>
                    </InLine>
                  </Ad>
                </VAST>
              </vmap:VASTData>
            </vmap:AdSource>
          </vmap:AdBreak>
        </vmap:VMAP>
        """#
}
