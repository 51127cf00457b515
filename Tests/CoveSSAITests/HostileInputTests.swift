import CoveSSAI
import CoveTesting
import Foundation
import Testing

@Suite("Hostile and broken input")
struct HostileInputTests {
    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
        ]>
        <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0"><vmap:Extensions>&lol4;</vmap:Extensions></vmap:VMAP>
        """

    @Test func billionLaughsIsRefusedBeforeParsing() {
        let error = expectVMAPFailure(Self.billionLaughs, .forbiddenDeclaration)
        #expect(error?.byteOffset == 22)
    }

    @Test(arguments: [
        #"<!doctype vmap SYSTEM "file:///etc/passwd"><vmap:VMAP/>"#,
        #"<vmap:VMAP><!-- <!ENTITY x "y"> --></vmap:VMAP>"#,
        #"<vmap:VMAP><![CDATA[<!EnTiTy]]></vmap:VMAP>"#,
        #"<VAST><!DOCTYPE"#,
    ])
    func declarationsAnywhereInAnyCaseAreRefused(_ text: String) {
        expectVMAPFailure(text, .forbiddenDeclaration)
        #expect(throws: VMAPParseError.self) { try VAST.parse(text) }
    }

    @Test(
        arguments: [
            ([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E], 3),  // 0xFF never appears in UTF-8
            ([0x3C, 0x61, 0x3E, 0xC0, 0xAF, 0x3C, 0x2F, 0x61, 0x3E], 3),  // overlong "/"
            ([0x3C, 0x61, 0x3E, 0xED, 0xA0, 0x80, 0x3C, 0x2F, 0x61, 0x3E], 3),  // encoded surrogate
            ([0x3C, 0x61, 0x3E, 0x80], 3),  // lone continuation byte
            ([0x3C, 0x61, 0x3E, 0xE2, 0x82], 3),  // truncated sequence
            ([0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00], 0),  // UTF-16 with its BOM
            ([0xEF, 0xBB, 0xBF, 0x3C, 0xC3], 4),  // offsets count the BOM
        ] as [([UInt8], Int)])
    func invalidUTF8IsRefusedWithItsOffset(_ bytes: [UInt8], _ offset: Int) {
        let error = expectVMAPFailure(bytes, .invalidUTF8)
        #expect(error?.byteOffset == offset)
    }

    @Test func nulIsRefusedWithItsOffset() {
        var bytes = Array(BrightcoveVMAP.dynamicDelivery.utf8)
        bytes.insert(0, at: 200)
        #expect(expectVMAPFailure(bytes, .nulByte)?.byteOffset == 200)
    }

    @Test func tenMegabytesOfJunkAreRefusedBySize() {
        var random = SeededRandom(seed: 0x10_AB)
        let junk = (0..<(10 * 1024 * 1024)).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(expectVMAPFailure(junk, .tooLarge)?.detail.contains("10485760") == true)
        // With the size limit lifted, the junk still fails cleanly, at the byte guard.
        let roomy = VMAPParseLimits(maxBytes: 16 * 1024 * 1024)
        do {
            _ = try VMAP.parse(junk, limits: roomy)
            Issue.record("random bytes parsed")
        } catch {
            #expect([.invalidUTF8, .nulByte].contains(error.kind), "\(error)")
        }
    }

    @Test func tenMegabytesOfTextJunkFailAsXML() {
        let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 10 * 1024 * 1024)
        expectVMAPFailure(junk, .malformedXML, limits: VMAPParseLimits(maxBytes: 16 * 1024 * 1024))
    }

    @Test func tenThousandDeepNestingIsRefused() {
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        let error = expectVMAPFailure(deep, .tooDeep)
        #expect(error?.detail.contains("64") == true)
        // A limit set absurdly high is held to the ceiling the recursive readers can take.
        expectVMAPFailure(deep, .tooDeep, limits: VMAPParseLimits(maxDepth: 1_000_000))
    }

    @Test func truncatedDocumentsFail() {
        let bytes = Array(BrightcoveVMAP.dynamicDelivery.utf8)
        expectVMAPFailure(Array(bytes.prefix(bytes.count / 2)), .malformedXML)
        // Every cut either fails or (cut inside the trailing white space) parses; none traps.
        for cut in stride(from: 1, to: bytes.count, by: 61) {
            #expect(throws: VMAPParseError.self) { try VMAP.parse(Array(bytes.prefix(cut))) }
        }
    }

    @Test(arguments: [
        "hello, world",
        "{\"sources\": []}",
        "<html><body>503</body>",
        "<<<>>>",
        "<a></b>",
        "<a/><b/>",
        "<a>&nbsp;</a>",
        "<a>&#0;</a>",
        "<a>&#xD800;</a>",
        "<a x='1' x='2'/>",
        "<a>\u{1}</a>",
        "<?xml version=\"1.0\"?>",
    ])
    func nonXMLIsMalformed(_ text: String) {
        expectVMAPFailure(text, .malformedXML)
    }

    @Test(arguments: ["", "   \n\t ", "\u{FEFF}"])
    func emptyInputIsEmpty(_ text: String) {
        expectVMAPFailure(text, .empty)
    }

    @Test func hugeAttributeIsRefused() {
        let huge = String(repeating: "A", count: 100_000)
        let text =
            #"<vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0"><vmap:Extensions><bc:Brightcove xmlns:bc="bc" contenturi="https://x.example.com/?t=\#(huge)"/></vmap:Extensions></vmap:VMAP>"#
        let error = expectVMAPFailure(text, .attributeTooLong)
        #expect(error?.element == "bc:Brightcove")
        #expect(error?.description.contains("AAAA") == false, "the value is never quoted")
    }

    @Test func otherLimitsAreEnforced() {
        let manyAttributes = "<a " + (0..<100).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/>"
        expectVMAPFailure(manyAttributes, .tooManyAttributes)
        let manyElements = "<a>" + String(repeating: "<b/>", count: 1_000) + "</a>"
        expectVMAPFailure(manyElements, .tooManyElements, limits: VMAPParseLimits(maxElements: 500))
        let longText = "<a>" + String(repeating: "x", count: 5_000) + "</a>"
        expectVMAPFailure(longText, .textTooLong, limits: VMAPParseLimits(maxTextLength: 4_096))
        let longCDATA = "<a><![CDATA[" + String(repeating: "x", count: 5_000) + "]]></a>"
        expectVMAPFailure(longCDATA, .textTooLong, limits: VMAPParseLimits(maxTextLength: 4_096))
        expectVMAPFailure(BrightcoveVMAP.dynamicDelivery, .tooLarge, limits: VMAPParseLimits(maxBytes: 1_000))
    }

    @Test func nonUTF8EncodingDeclarationIsRefused() {
        expectVMAPFailure(#"<?xml version="1.0" encoding="ISO-8859-1"?><vmap:VMAP/>"#, .unsupportedEncoding)
        expectVMAPFailure(#"<?xml version="1.0" encoding = 'UTF-16'?><vmap:VMAP/>"#, .unsupportedEncoding)
        #expect(throws: Never.self) { try VMAP.parse(#"<?xml version="1.0" encoding="Utf-8"?><VMAP/>"#) }
    }

    @Test func wrongRootIsNotVMAP() {
        let error = expectVMAPFailure(VASTDocuments.vast4, .notVMAP)
        #expect(error?.description.contains("VAST.parse") == true)
        expectVMAPFailure("<rss/>", .notVMAP)
    }

    @Test func errorDescriptionsNeverQuoteURLs() {
        var bytes = Array(BrightcoveVMAP.dynamicDelivery.utf8)
        if let index = bytes.firstIndex(of: UInt8(ascii: "&")) { bytes[index] = UInt8(ascii: "<") }
        let error = expectVMAPFailure(bytes, .malformedXML)
        #expect(error?.description.contains("SECRET") == false)
    }

    @Test(arguments: [
        #"<vmap:VMAP version="1.0"><vmap:AdBreak timeOffset="start"/></vmap:VMAP>"#,
        #"<VMAP xmlns="vmap"><AdBreak timeOffset="start"/></VMAP>"#,
        #"<?xml version="1.1"?><VMAP><AdBreak timeOffset="start"/></VMAP>"#,
        #"<VMAP xmlns:="x"><AdBreak timeOffset="start" xml:space="odd"/></VMAP>"#,
    ])
    func recoverableXMLProblemsAreAWarningNotAFailure(_ text: String) throws {
        let document = try VMAP.parse(text)
        #expect(document.adBreaks.count == 1)
        #expect(document.warnings.map(\.kind) == [.xmlWarning])
    }

    @Test func manyRecoverableProblemsAreRefused() {
        // Each problem libxml2 reports leaks a little inside Foundation on Linux, so they are capped.
        let text = "<VMAP>" + String(repeating: "<x:a/>", count: 500) + "</VMAP>"
        expectVMAPFailure(text, .malformedXML)
    }

    @Test func processingInstructionsWithoutDataAreRefused() throws {
        // libxml2 reports `<?name?>` with a null data pointer, and Foundation's XMLParser on Linux
        // crashes on it (found by libFuzzer); the guard refuses it before parsing.
        let crash = Array("<?xf-8?>\n<VAST vejjjjhj".utf8)
        #expect(expectVMAPFailure(crash, .unsupportedMarkup)?.byteOffset == 0)
        VMAPFuzz.run(crash)
        expectVMAPFailure(#"<VMAP><?pi?><AdBreak timeOffset="start"/></VMAP>"#, .unsupportedMarkup)
        // With data, a processing instruction is harmless and ignored.
        let document = try VMAP.parse(#"<?xml version="1.0"?><?xml-stylesheet href="a.xsl"?><VMAP><?pi data?><AdBreak timeOffset="start"/></VMAP>"#)
        #expect(document.adBreaks.count == 1)
        #expect(document.warnings.isEmpty)
    }

    @Test func emptyNamespacePrefixDeclarationKeepsFragmentsReadable() throws {
        // Found by libFuzzer: `xmlns:="…"` was taken for a default namespace and written out twice.
        let text =
            #"<VAST><Ad><InLine><Creatives><Creative><NonLinearAds><NonLinear width="480" xmlns:="360"/></NonLinearAds></Creative></Creatives></InLine></Ad></VAST>"#
        let document = try VAST.parse(text)
        let raw = try #require(document.ads.first?.inLine?.creatives.first?.nonLinearAds?.nonLinears.first?.raw)
        #expect(!raw.xml.contains(#"xmlns="360""#))
        VMAPFuzz.run(Array(text.utf8))
    }
}

@Suite("Bad values inside good documents")
struct BadValueTests {
    static func vmap(_ breaks: String, contentLength: String = "60") -> String {
        #"""
        <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:bc="bc" version="1.0">
          <vmap:Extensions><bc:Brightcove contenturi="https://s.example.com/c.m3u8" contentlength="\#(contentLength)" payloadlength="bad"/></vmap:Extensions>
          \#(breaks)
        </vmap:VMAP>
        """#
    }

    static func adBreak(_ offset: String, id: String, duration: String = "00:00:15") -> String {
        #"""
        <vmap:AdBreak breakType="linear" breakId="\#(id)" timeOffset="\#(offset)"><vmap:AdSource><vmap:VASTData><VAST>
        <Ad id="\#(id)-ad"><InLine><Creatives><Creative><Linear><Duration>\#(duration)</Duration></Linear></Creative></Creatives></InLine></Ad>
        </VAST></vmap:VASTData></vmap:AdSource></vmap:AdBreak>
        """#
    }

    @Test func negativeOffsetDropsOnlyThatBreak() throws {
        let document = try VMAP.parse(Self.vmap(Self.adBreak("start", id: "pre") + Self.adBreak("-00:00:01", id: "neg") + Self.adBreak("end", id: "post")))
        #expect(document.adBreaks.map(\.breakId) == ["pre", "post"])
        let warning = try #require(document.warnings.first { $0.kind == .badTimeOffset })
        #expect(warning.location == #"AdBreak[2] "neg""#)
        #expect(warning.message.contains("negative"))
    }

    @Test(arguments: ["", "soon", "00:99:00", "#0", "150%", "00:00:10:00"])
    func badOffsetsDropTheBreakWithAWarning(_ offset: String) throws {
        let document = try VMAP.parse(Self.vmap(Self.adBreak(offset, id: "bad") + Self.adBreak("start", id: "pre")))
        #expect(document.adBreaks.map(\.breakId) == ["pre"])
        #expect(document.warnings.contains { $0.kind == .badTimeOffset })
    }

    @Test func missingOffsetDropsTheBreak() throws {
        let document = try VMAP.parse(Self.vmap(#"<vmap:AdBreak breakId="x"/>"#))
        #expect(document.adBreaks.isEmpty)
        #expect(document.warnings.map(\.kind).contains(.badTimeOffset))
    }

    @Test func badDurationDropsTheAdButKeepsTheBreak() throws {
        let document = try VMAP.parse(Self.vmap(Self.adBreak("00:00:10", id: "mid", duration: "-00:00:05")))
        #expect(document.adBreaks.count == 1)
        #expect(document.adBreaks[0].ads.isEmpty)
        #expect(document.warnings.map(\.kind).contains(.badDuration))
        // The inline document reports its own warning too.
        if case .vast(let vast)? = document.adBreaks[0].adSource?.content {
            #expect(vast.warnings.map(\.kind) == [.badDuration])
        } else {
            Issue.record("expected inline VAST")
        }
    }

    @Test func badStreamLengthIsAWarning() throws {
        let document = try VMAP.parse(Self.vmap(""))
        #expect(document.stream.contentLength == (try seconds("60")))
        #expect(document.stream.payloadLength == nil)
        #expect(document.warnings.map(\.kind) == [.badAttribute])
    }

    @Test func overlappingBreaksAreKept() throws {
        // The 00:00:10 break's ad runs 15 s, past the 00:00:12 break: both are kept.
        let document = try VMAP.parse(Self.vmap(Self.adBreak("00:00:10", id: "a") + Self.adBreak("00:00:12", id: "b") + Self.adBreak("00:00:10", id: "c")))
        #expect(document.adBreaks.map(\.breakId) == ["a", "b", "c"])
        #expect(document.adBreaks.map(\.ads.count) == [1, 1, 1])
    }

    @Test func adsLongerThanTheStreamAreKept() throws {
        let document = try VMAP.parse(Self.vmap(Self.adBreak("start", id: "long", duration: "10:00:00"), contentLength: "5"))
        #expect(document.adBreaks[0].ads.first?.inLine?.creatives.first?.linear?.duration == (try clock("10:00:00")))
        #expect(document.stream.contentLength == (try seconds("5")))
    }

    @Test func emptyAdSourceKeepsTheBreak() throws {
        let document = try VMAP.parse(
            Self.vmap(
                #"<vmap:AdBreak timeOffset="start"><vmap:AdSource/><vmap:TrackingEvents><vmap:Tracking event="error">https://e.example.com/</vmap:Tracking></vmap:TrackingEvents></vmap:AdBreak>"#
            ))
        #expect(document.adBreaks.count == 1)
        #expect(document.adBreaks[0].adSource == nil)
        #expect(document.adBreaks[0].trackingEvents == [VMAPTrackingEvent(event: .error, url: "https://e.example.com/")])
        #expect(document.warnings.map(\.kind).contains(.emptyAdSource))
    }

    @Test func vastInsideCDATAIsRead() throws {
        let inner =
            #"<VAST version="3.0"><Ad id="c"><InLine><Creatives><Creative><Linear><Duration>00:00:07</Duration></Linear></Creative></Creatives></InLine></Ad></VAST>"#
        let document = try VMAP.parse(
            Self.vmap(
                ##"<vmap:AdBreak timeOffset="#2"><vmap:AdSource><vmap:VASTAdData><![CDATA[\##(inner)]]></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>"##))
        #expect(document.adBreaks.first?.timeOffset == .position(2))
        #expect(document.adBreaks.first?.ads.map(\.id) == ["c"])
    }

    @Test func hostileVASTInsideCDATAIsRefusedButTheBreakKept() throws {
        let inner = #"<!DOCTYPE x [<!ENTITY a "b">]><VAST/>"#
        // The outer guard already refuses the DOCTYPE text anywhere in the file.
        expectVMAPFailure(
            Self.vmap(
                #"<vmap:AdBreak timeOffset="start"><vmap:AdSource><vmap:VASTAdData><![CDATA[\#(inner)]]></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>"#),
            .forbiddenDeclaration)
        let broken = try VMAP.parse(
            Self.vmap(
                #"<vmap:AdBreak timeOffset="start"><vmap:AdSource><vmap:VASTAdData><![CDATA[<VAST><Ad>]]></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>"#))
        #expect(broken.adBreaks.count == 1)
        #expect(broken.adBreaks[0].adSource == nil)
        #expect(broken.warnings.map(\.kind).contains(.badInlineVAST))
    }

    @Test func warningsAreCapped() throws {
        let breaks = (0..<50).map { Self.adBreak("bad", id: "b\($0)") }.joined()
        let document = try VMAP.parse(Self.vmap(breaks), limits: VMAPParseLimits(maxWarnings: 10))
        #expect(document.warnings.count == 11)
        #expect(document.warnings.last?.kind == .tooManyWarnings)
        #expect(document.warnings.last?.message.contains("41") == true)
    }
}
