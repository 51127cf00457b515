import Testing

@testable import CoveText

/// Simple TTML sidecars to cues: timing forms, nesting offsets, spans and line breaks, and refusals.
@Suite struct TTMLTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="25" ttp:tickRate="10000000" xml:lang="fr">
          <head><styling/></head>
          <body><div>
            <p xml:id="c1" begin="00:00:00.000" end="00:00:01.900">Réplique   1
              à 0s</p>
            <p begin="2s" dur="1900ms"><span>Deux</span><br/>lignes</p>
            <p begin="00:00:04:00" end="00:00:05:20">Trames</p>
            <p begin="60000000t" end="79000000t">Ticks</p>
            <div begin="10s"><p begin="0.5s" end="1.5s">Décalé</p></div>
            <p begin="20s">sans fin</p>
          </div></body>
        </tt>
        """

    @Test func paragraphsBecomeCuesWithTheirTimes() throws {
        let cues = try TTML.parse(Array(Self.document.utf8))
        #expect(cues.map(\.text) == ["Réplique 1 à 0s", "Deux\nlignes", "Trames", "Ticks", "Décalé"])
        #expect(cues.map(\.start) == [0, 2, 4, 6, 10.5])
        let ends: [Double] = [1.9, 3.9, 5.8, 7.9, 11.5]
        #expect(zip(cues.map(\.end), ends).allSatisfy { abs($0 - $1) < 1e-9 }, "\(cues.map(\.end))")
        #expect(cues.first?.identifier == "c1")
    }

    @Test func notTTMLIsATypedError() {
        #expect(throws: TTML.ParseError.self) { try TTML.parse(Array("<html><body>portal</body></html>".utf8)) }
        #expect(throws: TTML.ParseError.self) { try TTML.parse(Array("<tt><body><p begin=\"1s\" end=\"2s\">x</body></tt>".utf8)) }
        #expect(throws: TTML.ParseError.self) { try TTML.parse(Array("<!DOCTYPE tt [<!ENTITY a \"b\">]><tt/>".utf8)) }
        #expect(TTML.time("-1s", .init(frameRate: 30, tickRate: 1)) == nil)
        #expect(TTML.time("1e400s", .init(frameRate: 30, tickRate: 1)) == nil)
    }
}
