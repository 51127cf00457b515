/// Playlists the tests read: the RFC 8216 section 8 examples (continuation backslashes joined),
/// and the shapes Apple's packager and ffmpeg write.
enum Fixtures {
    static let rfcSimpleMedia = """
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-VERSION:3
        #EXTINF:9.009,
        http://media.example.com/first.ts
        #EXTINF:9.009,
        http://media.example.com/second.ts
        #EXTINF:3.003,
        http://media.example.com/third.ts
        #EXT-X-ENDLIST

        """

    static let rfcLiveMedia = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:8
        #EXT-X-MEDIA-SEQUENCE:2680

        #EXTINF:7.975,
        https://priv.example.com/fileSequence2680.ts
        #EXTINF:7.941,
        https://priv.example.com/fileSequence2681.ts
        #EXTINF:7.975,
        https://priv.example.com/fileSequence2682.ts

        """

    static let rfcEncryptedMedia = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-MEDIA-SEQUENCE:7794
        #EXT-X-TARGETDURATION:15

        #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"

        #EXTINF:2.833,
        http://media.example.com/fileSequence52-A.ts
        #EXTINF:15.0,
        http://media.example.com/fileSequence52-B.ts
        #EXTINF:13.333,
        http://media.example.com/fileSequence52-C.ts

        #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=53"

        #EXTINF:15.0,
        http://media.example.com/fileSequence53-A.ts

        """

    static let rfcMaster = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000
        http://example.com/low.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2560000,AVERAGE-BANDWIDTH=2000000
        http://example.com/mid.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=7680000,AVERAGE-BANDWIDTH=6000000
        http://example.com/hi.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5"
        http://example.com/audio-only.m3u8

        """

    static let rfcMasterWithIFrames = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=1280000
        low/audio-video.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="low/iframe.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=2560000
        mid/audio-video.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=150000,URI="mid/iframe.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=7680000
        hi/audio-video.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=550000,URI="hi/iframe.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5"
        audio-only.m3u8

        """

    static let rfcAlternativeAudio = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,AUTOSELECT=YES,LANGUAGE="en",URI="main/english-audio.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",DEFAULT=NO,AUTOSELECT=YES,LANGUAGE="de",URI="main/german-audio.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Commentary",DEFAULT=NO,AUTOSELECT=NO,LANGUAGE="en",URI="commentary/audio-only.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="...",AUDIO="aac"
        low/video-only.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="...",AUDIO="aac"
        mid/video-only.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=7680000,CODECS="...",AUDIO="aac"
        hi/video-only.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5",AUDIO="aac"
        main/english-audio.m3u8

        """

    static let rfcAlternativeVideo = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="low",NAME="Main",DEFAULT=YES,URI="low/main/audio-video.m3u8"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="low",NAME="Centerfield",DEFAULT=NO,URI="low/centerfield/audio-video.m3u8"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="low",NAME="Dugout",DEFAULT=NO,URI="low/dugout/audio-video.m3u8"

        #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="...",VIDEO="low"
        low/main/audio-video.m3u8

        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="mid",NAME="Main",DEFAULT=YES,URI="mid/main/audio-video.m3u8"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="mid",NAME="Centerfield",DEFAULT=NO,URI="mid/centerfield/audio-video.m3u8"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="mid",NAME="Dugout",DEFAULT=NO,URI="mid/dugout/audio-video.m3u8"

        #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="...",VIDEO="mid"
        mid/main/audio-video.m3u8

        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="hi",NAME="Main",DEFAULT=YES,URI="hi/main/audio-video.m3u8"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="hi",NAME="Centerfield",DEFAULT=NO,URI="hi/centerfield/audio-video.m3u8"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="hi",NAME="Dugout",DEFAULT=NO,URI="hi/dugout/audio-video.m3u8"

        #EXT-X-STREAM-INF:BANDWIDTH=7680000,CODECS="...",VIDEO="hi"
        hi/main/audio-video.m3u8

        #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5"
        main/audio-only.m3u8

        """

    /// Apple's fMP4 shape (`mediafilesegmenter`/Bento4 style): one file, an EXT-X-MAP byte range
    /// for the `moov`, and segments as byte ranges, most of them with the offset left implicit.
    static let appleFragmentedMP4 = """
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-VERSION:7
        #EXT-X-MEDIA-SEQUENCE:1
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MAP:URI="main.mp4",BYTERANGE="719@0"
        #EXTINF:6.00000,
        #EXT-X-BYTERANGE:1508000@719
        main.mp4
        #EXTINF:6.00000,
        #EXT-X-BYTERANGE:1510244
        main.mp4
        #EXTINF:6.00000,
        #EXT-X-BYTERANGE:1480000
        main.mp4
        #EXTINF:2.50000,
        #EXT-X-BYTERANGE:610000
        main.mp4
        #EXT-X-ENDLIST

        """

    /// What `ffmpeg -f hls -master_pl_name master.m3u8 -var_stream_map …` writes.
    static let ffmpegMaster = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=1210000,RESOLUTION=426x240,CODECS="avc1.42c015,mp4a.40.2"
        v0/index.m3u8

        #EXT-X-STREAM-INF:BANDWIDTH=2340000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"
        v1/index.m3u8

        #EXT-X-STREAM-INF:BANDWIDTH=5640000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"
        v2/index.m3u8


        """

    static let ffmpegMedia = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:2.000000,
        seg_000.ts
        #EXTINF:2.000000,
        seg_001.ts
        #EXTINF:2.000000,
        seg_002.ts
        #EXTINF:1.480000,
        seg_003.ts
        #EXT-X-ENDLIST

        """

    static let all: [(name: String, text: String)] = [
        ("rfcSimpleMedia", rfcSimpleMedia), ("rfcLiveMedia", rfcLiveMedia), ("rfcEncryptedMedia", rfcEncryptedMedia),
        ("rfcMaster", rfcMaster), ("rfcMasterWithIFrames", rfcMasterWithIFrames),
        ("rfcAlternativeAudio", rfcAlternativeAudio), ("rfcAlternativeVideo", rfcAlternativeVideo),
        ("appleFragmentedMP4", appleFragmentedMP4), ("ffmpegMaster", ffmpegMaster), ("ffmpegMedia", ffmpegMedia),
    ]
}
