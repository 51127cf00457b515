import CoveText
import Testing

@Suite("Cue text")
struct CueTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("<i>italic</i> <b>bold</b> <u>under</u>", "italic bold under"),
        ("<c.yellow.bg_blue>classes</c>", "classes"),
        ("<v Roger Bingham>I'm Roger</v>", "I'm Roger"),
        ("<v.loud Esme>Hey!", "Hey!"),
        ("<lang en-GB>colour</lang>", "colour"),
        ("<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>", "漢kan字ji"),
        ("Karaoke <00:00:01.000>one <00:01.500>two", "Karaoke one two"),
        ("a &amp; b &lt;tag&gt; &lrm;&rlm;&nbsp;&quot;&apos;", "a & b <tag> \u{200E}\u{200F}\u{00A0}\"'"),
        ("&#233;&#xE9;&#XE9;&#0233 &#x1F600;", "ééé\u{E9} 😀"),
        ("&#0; &#xD800; &#x110000; &#99999999999999999999;", "\u{FFFD} \u{FFFD} \u{FFFD} \u{FFFD}"),
        ("&unknown; &amp &; &# &#x; & alone", "&unknown; &amp &; &# &#x; & alone"),
        ("a < b", "a "),
        ("unclosed <i", "unclosed "),
        ("</b>stray end tags</i>", "stray end tags"),
        ("line one\n<i>line two</i>", "line one\nline two"),
        ("<b>&lt;b&gt;</b>", "<b>"),
    ])
    func plainText(markup: String, expected: String) {
        #expect(WebVTTCueText.plainText(markup) == expected)
    }

    @Test func cueTextIsPlainByDefaultAndMarkupOnRequest() throws {
        let text = "WEBVTT\n\n00:00.000 --> 00:01.000\n<v Fred><i>Hi</i> &amp; bye</v>"
        let plain = try parse(text)
        #expect(plain.cues[0].text == "Hi & bye")
        #expect(plain.cues[0].payload == "<v Fred><i>Hi</i> &amp; bye</v>")
        let markup = try parse(text, options: WebVTTParseOptions(cueText: .markup))
        #expect(markup.cues[0].text == "<v Fred><i>Hi</i> &amp; bye</v>")
        #expect(markup.cues[0].payload == plain.cues[0].payload)
    }

    @Test func fullFixtureText() throws {
        let document = try parse(Fixtures.full)
        #expect(
            document.cues.map(\.text) == [
                "Hi, my name is Fred",
                "Overlapping & bold\nsecond line",
                "漢kan colour bonjour",
                "Karaoke one two",
            ])
    }
}
