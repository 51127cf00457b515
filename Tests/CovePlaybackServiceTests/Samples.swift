/// Playback API responses as documented (tokens shortened), used verbatim by the decoding tests.
enum Samples {
    /// Sample A: legacy (non-DRM) video with a progressive MP4 and an HLS source.
    static let legacyVideo = #"""
        {
          "description": "A small friendly bird...",
          "poster_sources": [
            {"src": "http://brightcove.vo.llnwd.net/v1/unsecured/media/57838016001/201502/1437/57838016001_4084480075001_Bird-Chickadee-vs.jpg?pubId=57838016001&videoId=4084164751001"},
            {"src": "https://brightcove.hs.llnwd.net/v2/unsecured/media/57838016001/201502/1437/57838016001_4084480075001_Bird-Chickadee-vs.jpg?pubId=57838016001&videoId=4084164751001"}
          ],
          "tags": ["air", "bird", "nature"],
          "cue_points": [{"id": "111637107001", "name": "Pre-roll", "type": "AD", "time": 0, "metadata": null, "force_stop": false},
                         {"id": "111637107002", "name": "Chapter", "type": "CODE", "time": 10.527, "metadata": "chapter=2", "force_stop": true}],
          "custom_fields": {},
          "economics": "AD_SUPPORTED",
          "account_id": "57838016001",
          "sources": [
            {
              "avg_bitrate": 1108347, "width": 640,
              "src": "http://brightcove.vo.llnwd.net/v1/uds/pd/57838016001/201502/1437/57838016001_4084480003001_Bird-Chickadee.mp4?pubId=57838016001&videoId=4084164751001",
              "size": 1141597, "height": 344, "duration": 8240,
              "container": "MP4", "codec": "H264", "asset_id": "4084480003001"
            },
            {
              "type": "application/x-mpegURL",
              "src": "https://secure.brightcove.com/services/mobile/streaming/index/master.m3u8?videoId=4084164751001&pubId=57838016001&secure=true",
              "container": "M2TS", "codec": "H264"
            },
            {"stream_name": "mp4:57838016001/57838016001_4084480003001_Bird-Chickadee.mp4", "app_name": "rtmp://brightcove.fcod.llnwd.net/a500/e1/uds/rtmp/ondemand"}
          ],
          "name": "Chickadee",
          "reference_id": "Bird_Chickadee.mp4_1425064251252",
          "long_description": null,
          "duration": 8240,
          "published_at": "2015-02-27T19:10:55.425Z",
          "text_tracks": [{
            "mime_type": "text/webvtt",
            "account_id": "1752604059001",
            "default": false,
            "sources": [{"src": "http://bcboltbde696aa-a.akamaihd.net/media/v1/text/vtt/clear/text.vtt?akamai_token=abc"},
                        {"src": "https://bcboltbde696aa-a.akamaihd.net/media/v1/text/vtt/clear/text.vtt?akamai_token=abc"}],
            "src": "http://bcboltbde696aa-a.akamaihd.net/media/v1/text/vtt/clear/text.vtt?akamai_token=abc",
            "asset_id": null,
            "label": "EN",
            "id": "92cb36a7-c836-4506-a87f-f649316c0cdf",
            "kind": "captions",
            "in_band_metadata_track_dispatch_type": "",
            "srclang": "en"
          }],
          "updated_at": "2015-02-27T19:11:57.808Z",
          "thumbnail": "http://brightcove.vo.llnwd.net/v1/unsecured/media/57838016001/201502/1437/57838016001_4084480007001_Bird-Chickadee-th.jpg?pubId=57838016001&videoId=4084164751001",
          "poster": "http://brightcove.vo.llnwd.net/v1/unsecured/media/57838016001/201502/1437/57838016001_4084480075001_Bird-Chickadee-vs.jpg?pubId=57838016001&videoId=4084164751001",
          "link": null,
          "id": "4084164751001",
          "ad_keys": null,
          "thumbnail_sources": [{"src": "https://brightcove.hs.llnwd.net/v2/unsecured/media/57838016001/201502/1437/57838016001_4084480007001_Bird-Chickadee-th.jpg?pubId=57838016001&videoId=4084164751001"}],
          "created_at": "2015-02-27T19:10:55.425Z",
          "projection": "equirectangular",
          "labels": ["/nature"]
        }
        """#

    /// Sample B: DRM-packaged Dynamic Delivery (FairPlay HLS, Widevine/PlayReady DASH).
    static let drmVideo = #"""
        {
          "id": "5678", "name": "DRM", "duration": 30000, "account_id": "2728142649001",
          "sources": [
            {
              "ext_x_version": "5",
              "type": "application/x-mpegURL",
              "src": "https://manifest.prod.boltdns.net/manifest/v1/hls/v5/fairplay/2728142649001/9305d071-0c5b-40dd-8374-9cb3dd5e9515/10s/master.m3u8?fastly_token=ft1",
              "key_systems": {
                "com.apple.fps.1_0": {
                  "key_request_url": "https://manifest.prod.boltdns.net/license/v1/fairplay/2728142649001/9305d071-0c5b-40dd-8374-9cb3dd5e9515/22d62151-eccd-421b-8848-e36a4cbae571?fastly_token=ft2",
                  "certificate_url": "https://manifest.prod.boltdns.net/license/v1/fairplay_app_cert/2728142649001"
                }
              }
            },
            {
              "type": "application/dash+xml",
              "src": "https://manifest.prod.boltdns.net/manifest/v1/dash/live-baseurl/bccenc/2728142649001/9305d071-0c5b-40dd-8374-9cb3dd5e9515/2s/manifest.mpd?fastly_token=ft3",
              "profiles": "urn:mpeg:dash:profile:isoff-live:2011",
              "key_systems": {
                "com.widevine.alpha": {"license_url": "https://manifest.prod.boltdns.net/license/v1/cenc/widevine/2728142649001/9305d071/4cbdc140?fastly_token=ft4"},
                "com.microsoft.playready": {"license_url": "https://manifest.prod.boltdns.net/license/v1/cenc/playready/2728142649001/9305d071/4cbdc140?fastly_token=ft5"}
              }
            }
          ],
          "offline_enabled": false
        }
        """#

    /// Clear Dynamic Delivery: HLS v4 and v5, DASH, and progressive MP4 renditions.
    static let clearDynamicDeliveryVideo = #"""
        {
          "id": "9012", "name": "Clear DD", "duration": 30000, "offline_enabled": true, "economics": "FREE",
          "custom_fields": {"bumper_id": "777", "genre": "birds"},
          "sources": [
            {"type": "application/x-mpegURL", "ext_x_version": "4", "src": "https://manifest.prod.boltdns.net/manifest/v1/hls/v4/clear/2728142649001/abc/10s/master.m3u8?fastly_token=t"},
            {"type": "application/x-mpegURL", "ext_x_version": "5", "src": "https://manifest.prod.boltdns.net/manifest/v1/hls/v5/clear/2728142649001/abc/10s/master.m3u8?fastly_token=t"},
            {"type": "application/dash+xml", "profiles": "urn:mpeg:dash:profile:isoff-live:2011", "src": "https://manifest.prod.boltdns.net/manifest/v1/dash/live-baseurl/clear/2728142649001/abc/2s/manifest.mpd?fastly_token=t"},
            {"container": "MP4", "codec": "H264", "avg_bitrate": 2000000, "width": 1280, "height": 720, "size": 7500000, "duration": 30000, "src": "https://bcbolt446c5271-a.akamaihd.net/media/v1/pmp4/static/clear/2728142649001/abc/high.mp4?akamai_token=t"},
            {"container": "MP4", "codec": "H264", "avg_bitrate": 500000, "width": 640, "height": 360, "size": 1875000, "duration": 30000, "src": "http://bcbolt446c5271-a.akamaihd.net/media/v1/pmp4/static/clear/2728142649001/abc/low.mp4?akamai_token=t"}
          ]
        }
        """#

    /// Sample C: SSAI response (with `?ad_config_id=`): every source carries a `vmap`.
    static let ssaiVideo = #"""
        {
          "account_id": "1752604059001",
          "sources": [
            {
              "ext_x_version": "4",
              "src": "https://ssaimanifest.prod.boltdns.net/playback/once/v1/hls/v4/clear/1752604059001/d6190656/dca41ae8/master.m3u8?bc_token=b1",
              "type": "application/x-mpegURL",
              "vmap": "https://ssaimanifest.prod.boltdns.net/playback/once/v1/vmap/hls/v4/clear/1752604059001/d6190656/dca41ae8/content.vmap?bc_token=b1"
            },
            {
              "codecs": "avc1,mp4a",
              "ext_x_version": "7",
              "src": "https://ssaimanifest.prod.boltdns.net/playback/once/v1/hls/v7/clear/codec_avc1_mp4a/master.m3u8?bc_token=b2",
              "type": "application/x-mpegURL",
              "vmap": "https://ssaimanifest.prod.boltdns.net/playback/once/v1/vmap/hls/v7/clear/codec_avc1_mp4a/content.vmap?bc_token=b2"
            },
            {
              "profiles": "urn:mpeg:dash:profile:isoff-live:2011",
              "src": "https://ssaimanifest.prod.boltdns.net/playback/once/v1/dash/live-timeline/clear/manifest.mpd?bc_token=b3",
              "type": "application/dash+xml",
              "vmap": "https://ssaimanifest.prod.boltdns.net/playback/once/v1/vmap/dash/live-timeline/clear/content.vmap?bc_token=b3"
            }
          ],
          "name": "Mt Audubon",
          "duration": 24128,
          "economics": "AD_SUPPORTED",
          "text_tracks": [],
          "offline_enabled": false,
          "id": "6156696074001",
          "ad_keys": null
        }
        """#

    /// A playlist whose third entry the API could not deliver.
    static let playlist = #"""
        {
          "videos": [
            {"id": "4084164751001", "name": "Chickadee", "duration": 8240, "sources": [{"type": "application/x-mpegURL", "src": "https://example.com/a/master.m3u8"}]},
            {"id": "4084164751002", "name": "Robin", "duration": 12000, "sources": [{"container": "MP4", "src": "https://example.com/b.mp4"}], "cue_points": [{"time": 3.5, "type": "CODE"}]},
            {"id": "4084164751003", "error_code": "VIDEO_NOT_PLAYABLE", "error_subcode": "CLIENT_GEO", "message": "Access to this resource is forbidden by access policy."}
          ],
          "updated_at": "2015-09-20T18:45:52.606Z",
          "type": "EXPLICIT",
          "reference_id": null,
          "name": "Manual",
          "id": "749117323001",
          "description": null,
          "created_at": "2011-01-13T18:46:03.883Z",
          "account_id": "57838016001"
        }
        """#
}
