/// VAST 4.1 pieces the reader used to read past: icons (with VAST 4.1 click fallback images), closed
/// captions, mezzanine and interactive files, several universal ad ids, `conditionalAd` — and
/// careless or hostile icons.
enum VAST41Documents {
    /// One conditional inline ad: two icons (an AdChoices image with every click part, and an HTML
    /// icon placed in pixels), two caption files, a mezzanine, a SIMID file and three universal ad ids
    /// (the last in VAST 4.0's `idValue` form).
    static let iconsAndCaptions = #"""
        <VAST version="4.1" xmlns="http://www.iab.com/VAST">
          <Ad id="v41-ad" conditionalAd="true">
            <InLine>
              <AdSystem>Example 4.1</AdSystem>
              <AdTitle>Icons and captions</AdTitle>
              <Impression>https://imp.example.com/v41</Impression>
              <Error>https://err.example.com/v41?code=[ERRORCODE]</Error>
              <Creatives>
                <Creative id="c41" adId="a41">
                  <UniversalAdId idRegistry="Ad-ID">8465</UniversalAdId>
                  <UniversalAdId idRegistry="clearcast.co.uk">CNP/TEST/123</UniversalAdId>
                  <UniversalAdId idRegistry="legacy" idValue="LEG-1"></UniversalAdId>
                  <Linear>
                    <Duration>00:00:10</Duration>
                    <MediaFiles>
                      <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720" fileSize="2400000" mediaType="2D" scalable="true" maintainAspectRatio="1">https://media.example.com/v41.mp4</MediaFile>
                      <Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080" codec="H.264" id="mz1" fileSize="90000000" mediaType="2D">https://media.example.com/v41-mezzanine.mp4</Mezzanine>
                      <InteractiveCreativeFile type="text/html" apiFramework="SIMID" variableDuration="false">https://simid.example.com/creative.html</InteractiveCreativeFile>
                      <ClosedCaptionFiles>
                        <ClosedCaptionFile type="text/vtt" language="en"><![CDATA[https://cc.example.com/v41.en.vtt]]></ClosedCaptionFile>
                        <ClosedCaptionFile type="application/ttml+xml" language="zh-TW">https://cc.example.com/v41.zh.ttml</ClosedCaptionFile>
                        <ClosedCaptionFile type="text/vtt" language="fr"></ClosedCaptionFile>
                      </ClosedCaptionFiles>
                    </MediaFiles>
                    <Icons>
                      <Icon program="AdChoices" width="77" height="15" xPosition="right" yPosition="top" duration="00:00:05" offset="00:00:01.500" apiFramework="none" pxratio="2">
                        <StaticResource creativeType="image/png"><![CDATA[https://icons.example.com/adchoices.png]]></StaticResource>
                        <IconClicks>
                          <IconClickThrough>https://adchoices.example.com/why</IconClickThrough>
                          <IconClickTracking id="ict">https://t.example.com/icon-click</IconClickTracking>
                          <IconClickFallbackImages>
                            <IconClickFallbackImage width="400" height="200">
                              <AltText>Why this ad</AltText>
                              <StaticResource creativeType="image/png">https://icons.example.com/why-400.png</StaticResource>
                            </IconClickFallbackImage>
                            <IconClickFallbackImage width="800" height="400">
                              <StaticResource creativeType="image/png">https://icons.example.com/why-800.png</StaticResource>
                            </IconClickFallbackImage>
                            <IconClickFallbackImage/>
                          </IconClickFallbackImages>
                        </IconClicks>
                        <IconViewTracking>https://t.example.com/icon-view?cb=[CACHEBUSTING]</IconViewTracking>
                        <IconViewTracking>https://t2.example.com/icon-view</IconViewTracking>
                      </Icon>
                      <Icon program="Sponsor" width="40" height="40" xPosition="10" yPosition="bottom">
                        <HTMLResource><![CDATA[<b>Sponsored</b>]]></HTMLResource>
                        <IconViewTracking>https://t.example.com/sponsor-view</IconViewTracking>
                      </Icon>
                    </Icons>
                  </Linear>
                </Creative>
              </Creatives>
            </InLine>
          </Ad>
        </VAST>
        """#

    /// Icons as careless or hostile servers write them: nothing required, unreadable values, no image.
    static let carelessIcons = #"""
        <VAST version="4.1">
          <Ad id="careless">
            <InLine>
              <AdSystem>x</AdSystem>
              <Creatives>
                <Creative>
                  <Linear>
                    <Duration>00:00:10</Duration>
                    <Icons>
                      <Icon>
                        <StaticResource creativeType="image/png">https://icons.example.com/bare.png</StaticResource>
                        <IconViewTracking>https://t.example.com/bare-view</IconViewTracking>
                      </Icon>
                      <Icon program="AdChoices" width="wide" height="-3" xPosition="10px" yPosition="middle" duration="soon" offset="99:99:99" pxratio="nan">
                        <IFrameResource>https://icons.example.com/frame.html</IFrameResource>
                      </Icon>
                      <Icon program="Invisible" width="10" height="10" xPosition="left" yPosition="top">
                        <IconViewTracking>https://t.example.com/invisible-view</IconViewTracking>
                      </Icon>
                      <Icon program="Rounding" width="10" height="10" xPosition="LEFT" yPosition="0" pxratio="1e3">
                        <StaticResource>https://icons.example.com/r.png</StaticResource>
                      </Icon>
                    </Icons>
                  </Linear>
                </Creative>
              </Creatives>
            </InLine>
          </Ad>
        </VAST>
        """#

    /// One inline ad with `count` icons, each with a view beacon.
    static func manyIcons(_ count: Int) -> String {
        let icon =
            #"<Icon program="P" width="1" height="1" xPosition="left" yPosition="top">"#
            + #"<StaticResource>https://i.example.com/i.png</StaticResource><IconViewTracking>https://t.example.com/v</IconViewTracking></Icon>"#
        return #"<VAST version="4.1"><Ad id="many"><InLine><AdSystem>x</AdSystem><Creatives><Creative><Linear><Duration>00:00:10</Duration><Icons>"#
            + String(repeating: icon, count: count)
            + "</Icons></Linear></Creative></Creatives></InLine></Ad></VAST>"
    }

    /// A wrapper whose linear carries an AdChoices icon (the same program as the inline ad's) and a
    /// `Survey` icon of its own, each with the wrapper's view and click tracking.
    static func iconWrapper(_ name: String, next: String) -> String {
        #"""
        <VAST version="4.1">
          <Ad id="\#(name)">
            <Wrapper>
              <AdSystem>Wrapper \#(name)</AdSystem>
              <VASTAdTagURI>\#(next)</VASTAdTagURI>
              <Creatives>
                <Creative>
                  <Linear>
                    <Icons>
                      <Icon program="adchoices" width="20" height="20" xPosition="left" yPosition="bottom">
                        <StaticResource creativeType="image/png">https://wrap.example.com/adchoices.png</StaticResource>
                        <IconClicks><IconClickTracking>https://wrap.example.com/icon-click?w=\#(name)</IconClickTracking></IconClicks>
                        <IconViewTracking>https://wrap.example.com/icon-view?w=\#(name)</IconViewTracking>
                      </Icon>
                      <Icon program="Survey" width="30" height="30" xPosition="left" yPosition="top">
                        <StaticResource creativeType="image/png">https://wrap.example.com/survey.png</StaticResource>
                        <IconViewTracking>https://wrap.example.com/survey-view?w=\#(name)</IconViewTracking>
                      </Icon>
                    </Icons>
                  </Linear>
                </Creative>
              </Creatives>
            </Wrapper>
          </Ad>
        </VAST>
        """#
    }

    /// `vast` as the inline VAST of a pre-roll break in a Brightcove-style VMAP with a 20 s stream.
    static func vmap(wrapping vast: String) -> String {
        let body = vast.replacingOccurrences(of: #" xmlns="http://www.iab.com/VAST""#, with: "")
        return #"""
            <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:bc="bc" version="1.0">
              <vmap:Extensions><bc:Brightcove contenturi="https://stream.example.com/master.m3u8" contentlength="10" payloadlength="20"/></vmap:Extensions>
              <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
                <vmap:AdSource id="pre"><vmap:VASTAdData>\#(body)</vmap:VASTAdData></vmap:AdSource>
              </vmap:AdBreak>
            </vmap:VMAP>
            """#
    }
}
