import CoveSSAI
import Testing

@Suite("Raw XML fragments")
struct RawXMLTests {
    @Test func fragmentsAreStandaloneAndReparse() throws {
        let text = #"""
            <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" xmlns:x="urn:x" version="1.0">
              <vmap:Extensions>
                <x:Custom b="2" a="q&quot;uote&#9;tab&#13;cr">text &amp; more<x:Child/><![CDATA[raw <b>]]></x:Custom>
              </vmap:Extensions>
            </vmap:VMAP>
            """#
        let fragment = try #require(try VMAP.parse(text).extensions.first)
        #expect(fragment.name == "x:Custom")
        #expect(fragment.localName == "Custom")
        #expect(fragment.attributes == ["a": "q\"uote\ttab\rcr", "b": "2"])
        #expect(fragment.text == "text & moreraw <b>")
        // Only the prefixes the fragment uses are declared on it (x, not vmap).
        #expect(fragment.xml == #"<x:Custom a="q&quot;uote&#9;tab&#13;cr" b="2" xmlns:x="urn:x">text &amp; more<x:Child/><![CDATA[raw <b>]]></x:Custom>"#)
        #expect(fragment.innerXML == #"text &amp; more<x:Child/><![CDATA[raw <b>]]>"#)
        #expect(fragment.data == Array(fragment.xml.utf8))
        // Wrapped in a VMAP, the fragment reads back to the same values.
        let again = try VMAP.parse(#"<vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0"><vmap:Extensions>\#(fragment.xml)</vmap:Extensions></vmap:VMAP>"#)
        // The namespace declarations added to make it standalone come back as attributes.
        #expect(again.extensions.first?.attributes.filter { !$0.key.hasPrefix("xmlns") } == fragment.attributes)
        #expect(again.extensions.first?.attributes["xmlns:x"] == "urn:x")
        #expect(again.extensions.first?.text == fragment.text)
    }

    /// Thousands of declared prefixes and thousands of elements must not multiply: declarations
    /// are shared down the tree and fragments declare only the prefixes they use.
    @Test func manyNamespaceDeclarationsStayCheap() throws {
        let depth = 60
        var text = #"<vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0"><vmap:Extensions>"#
        for level in 0..<depth {
            let declarations = (0..<60).map { #"xmlns:p\#(level)_\#($0)="urn:\#(level)-\#($0)""# }.joined(separator: " ")
            text += "<p\(level)_0:d \(declarations)>"
        }
        text += String(repeating: #"<leaf xmlns:z="urn:z" z:a="1"/>"#, count: 20_000)
        for level in (0..<depth).reversed() { text += "</p\(level)_0:d>" }
        text += "</vmap:Extensions></vmap:VMAP>"
        let document = try VMAP.parse(text)
        let raw = try #require(document.stream.rawExtensions)
        #expect(raw.xml.utf8.count < 2 * text.utf8.count)
        #expect(document.extensions.first?.xml.hasPrefix(#"<p0_0:d xmlns:p0_0="urn:0-0" "#) == true)
    }
}

@Suite("Concurrency")
struct ConcurrencyTests {
    /// libxml2 keeps per-parser state; parsing from many tasks at once must neither crash nor mix results.
    @Test func parsesInParallelGiveTheSameResults() async throws {
        let expected = try VMAP.parse(BrightcoveVMAP.dynamicDelivery)
        let expectedVAST = try VAST.parse(VASTDocuments.vast4)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return (try? VMAP.parse(BrightcoveVMAP.dynamicDelivery)) == expected
                    }
                    return (try? VAST.parse(VASTDocuments.vast4)) == expectedVAST
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0 })
    }
}
