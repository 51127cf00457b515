import CoveTesting
import Foundation
import Testing

@testable import CoveXML

/// Cove's XML scanner against Foundation's XMLParser (libxml2): on every document both accept, the trees
/// are the same; documents XML forbids are refused typed; the limits hold.
@Suite struct XMLScannerTests {
    static let limits = XMLLimits(
        maxBytes: 1 << 20, maxDepth: 64, maxElements: 100_000, maxAttributesPerElement: 64, maxAttributeLength: 8192, maxTextLength: 65_536)

    /// A tree as comparable text: names, sorted attributes, text pieces (CDATA marked).
    static func dump(_ element: XMLTreeElement) -> String {
        var out = "<\(element.name)"
        for key in element.attributes.keys.sorted() { out += " \(key)=\(element.attributes[key]!.debugDescription)" }
        out += ">"
        for child in element.children {
            switch child {
            case .element(let e): out += dump(e)
            case .text(let t, let cdata): out += cdata ? "[CDATA\(t.debugDescription)]" : t.debugDescription
            }
        }
        return out + "</\(element.name)>"
    }

    static func both(_ text: String) -> (foundation: Result<String, XMLReadError>, scanner: Result<String, XMLReadError>) {
        let bytes = Array(text.utf8)
        let f = Result { () throws(XMLReadError) in dump(try GuardedXML.load(bytes, limits: limits, reader: .foundation).root) }
        let s = Result { () throws(XMLReadError) in dump(try GuardedXML.load(bytes, limits: limits, reader: .scanner).root) }
        return (f, s)
    }

    static let documents = [
        timelineMPD,
        "<a/>",
        "<?xml version=\"1.0\"?>\n<!-- c --><root a='1' b=\"x &amp; y &lt;&gt; &quot;&apos; &#65;&#x42;\"><k>text &amp; more</k><k/><![CDATA[raw <b> & ]]></root>\n<!-- after -->",
        "<r>\r\n  <c>line\r\nnext\rthird</c>\r\n</r>",
        "<r x=\"a\tb\nc\r\nd\"/>",
        "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/vmap-1.0\" version=\"1.0\"><vmap:AdBreak timeOffset=\"start\"/></vmap:VMAP>",
        "<r><a>1</a>  <b>2</b>\n<c> 3 </c></r>",
        "<r>é ü 日本 😀</r>",
        "<r><?pi data?><a/></r>",
    ]

    @Test func bothReadersBuildTheSameTree() {
        for document in Self.documents {
            let (f, s) = Self.both(document)
            guard case .success(let expected) = f else { Issue.record("Foundation refused \(document.prefix(60)): \(f)"); continue }
            #expect(s == .success(expected), "\(document.prefix(80))")
        }
    }

    @Test func whatXMLForbidsIsRefusedTyped() {
        let bad = [
            "<a><b></a></b>", "<a>", "<a></b>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<a x=\"<\"/>", "<a>&nbsp;</a>", "<a>&#0;</a>",
            "<a/><b/>", "text<a/>", "<a/>text", "<a>]]></a>", "<a><!-- -- --></a>", "<1a/>", "<a x=\"1\"y=\"2\"/>", "<a><![CDATA[x</a>", "",
        ]
        for document in bad {
            let (_, s) = Self.both(document)
            guard case .failure(let error) = s else { Issue.record("accepted: \(document)"); continue }
            #expect([.malformedXML, .empty].contains(error.kind), "\(document): \(error)")
        }
    }

    @Test func limitsHold() {
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(throws: XMLReadError.self) { try XMLScanner.parse(Array(deep.utf8)[...], limits: Self.limits) }
        let many = "<r>" + String(repeating: "<s/>", count: 100_001) + "</r>"
        do {
            _ = try XMLScanner.parse(Array(many.utf8)[...], limits: Self.limits)
            Issue.record("too many elements accepted")
        } catch {
            #expect(error.kind == .tooManyElements)
        }
        let longAttribute = "<r a=\"" + String(repeating: "x", count: 9000) + "\"/>"
        #expect((try? XMLScanner.parse(Array(longAttribute.utf8)[...], limits: Self.limits)) == nil)
    }

    /// Mutations of the documents: whenever both readers accept, their trees agree; the scanner never crashes.
    @Test func mutatedDocumentsAgreeWhenBothAccept() {
        var random = SeededRandom(seed: 0x5CA7_7E12)
        let mutator = ByteMutator(
            interesting: Array("<>/=\"'&;#x![]-?\r\n \t".utf8),
            splices: ["<![CDATA[", "]]>", "&amp;", "&#x41;", "<!--", "-->", "<?p?>", "/>", "</a>"].map { Array($0.utf8) })
        var agreed = 0
        for _ in 0..<3_000 {
            let input = mutator.mutate(Array(random.pick(Self.documents).utf8), random: &random)
            let text = String(decoding: input, as: UTF8.self)
            let (f, s) = Self.both(text)
            if case .success(let a) = f, case .success(let b) = s {
                #expect(a == b, "\(text)")
                agreed += 1
            }
        }
        #expect(agreed > 100)
    }
}

/// Empty children of chosen elements are kept packed, with their attributes, in document order.
@Suite struct XMLPackedLeavesTests {
    @Test func emptyChildrenOfAPackingElementArePacked() throws {
        let text =
            "<r><SegmentTimeline>\n  <S t=\"0\" d=\"2\" r=\"3\"/>\n  <S d=\"4\"/>\n  <x:S d=\"5\"/>\n  <S d=\"6\">kept</S>\n</SegmentTimeline><S d=\"9\"/></r>"
        let root = try XMLScanner.parse(Array(text.utf8)[...], limits: XMLScannerTests.limits, packingLeavesOf: ["SegmentTimeline"]).root
        let timeline = try #require(root.child("SegmentTimeline"))
        let leaves = try #require(timeline.packedLeaves)
        #expect(leaves.count == 3)
        #expect(leaves.names == ["S", "S", "x:S"])
        #expect(leaves.localName(2) == "S")
        #expect(leaves.attribute("t", of: 0) == "0" && leaves.attribute("r", of: 0) == "3" && leaves.attribute("t", of: 1) == nil)
        #expect(leaves.attribute("d", of: 2) == "5")
        #expect(timeline.children("S").map(\.text) == ["kept"], "an S with content stays a child")
        #expect(root.packedLeaves == nil && root.children("S").count == 1, "only the named element packs")
    }

    @Test func leavesWhoseValuesNeedDecodingArePackedDecoded() throws {
        let text = "<SegmentTimeline><S d=\"1\" x=\"a&amp;b\"/><S\n d=\"2\"\tx='c\nd'/><S d=\"3\"/></SegmentTimeline>"
        let leaves = try #require(
            try XMLScanner.parse(Array(text.utf8)[...], limits: XMLScannerTests.limits, packingLeavesOf: ["SegmentTimeline"]).root.packedLeaves)
        #expect(leaves.count == 3)
        #expect(leaves.attributes(of: 0) == [XMLAttribute(name: "d", value: "1"), XMLAttribute(name: "x", value: "a&b")])
        #expect(leaves.attribute("x", of: 1) == "c d", "line ends in values normalised")
        #expect(leaves.attribute("d", of: 2) == "3")
        #expect((0..<3).allSatisfy { leaves.localNameIs($0, "S") })
        var raw: [String] = []
        leaves.forEachRawAttribute(of: 0) { name, value in raw.append(String(decoding: name, as: UTF8.self) + "=" + String(decoding: value, as: UTF8.self)) }
        #expect(raw == ["d=1", "x=a&b"])
    }
}
