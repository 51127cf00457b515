/// Valid WebVTT files covering the format's features, used by the feature tests and as the
/// seed corpus of the mutation tests.
enum Fixtures {
    static let simple = """
        WEBVTT

        00:00.000 --> 00:02.000
        Hello

        00:02.500 --> 00:04.000
        World
        """

    static let full = """
        WEBVTT - A title
        Kind: captions
        Language: en

        REGION
        id:fred width:40% lines:3
        regionanchor:0%,100% viewportanchor:10%,90% scroll:up

        STYLE
        ::cue { color: yellow; }
        ::cue(b) { color: red; }

        NOTE This file shows every feature
        over two lines

        intro
        00:00:00.000 --> 00:00:04.000 region:fred align:left
        <v Fred>Hi, my name is Fred</v>

        00:00:02.000 --> 00:00:06.500 line:-1 position:30%,line-left size:40% align:start
        <i>Overlapping</i> &amp; <b>bold</b>
        second line

        2
        00:00:05.000 --> 00:00:08.000 vertical:rl line:10%,end
        <ruby>漢<rt>kan</rt></ruby> <c.yellow.bg_blue>colour</c> <lang fr>bonjour</lang>

        00:00:07.000 --> 00:00:09.000
        Karaoke <00:00:07.500>one <00:00:08.000>two
        """

    static let hls = """
        WEBVTT
        X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

        00:00:10.000 --> 00:00:12.000
        Segment cue
        """

    static let thumbnails = """
        WEBVTT

        00:00.000 --> 00:05.000
        sprite.jpg#xywh=0,0,160,90

        00:05.000 --> 00:10.000
        sprite.jpg#xywh=160,0,160,90

        00:10.000 --> 00:15.000
        ../images/big.jpg
        """

    static let all: [(name: String, text: String)] = [
        ("simple", simple), ("full", full), ("hls", hls), ("thumbnails", thumbnails),
    ]
}
