import CoveSSAI
import CoveXML
import Testing

/// `VMAPParseError` is the XML reader's error told as the ad document's (the shared core in
/// `CoveInput`): the same kinds by name, the same place and sentences, limits named as an app sets them.
@Suite("VMAP/VAST errors on the shared input core")
struct ParseErrorShapeTests {
    @Test func everyXMLReaderKindIsAnAdDocumentKindOfTheSameName() {
        let adKinds = Set(VMAPParseError.Kind.allCases.map(\.rawValue))
        for kind in XMLReadError.Kind.allCases {
            #expect(adKinds.contains(kind.rawValue), "\(kind) has no VMAPParseError.Kind")
        }
        #expect(adKinds.subtracting(XMLReadError.Kind.allCases.map(\.rawValue)) == ["notVMAP", "notVAST"])
    }

    @Test func anAdDocumentErrorReadsAsItAlwaysHas() {
        let error = VMAPParseError(.notVMAP, line: 1, column: 4, element: "VAST", detail: "D.", advice: "A.")
        #expect(error.description == "Ad document rejected (notVMAP, line 1, column 4, <VAST>): D. A.")
        #expect(VMAPParseError(.nulByte, byteOffset: 200, detail: "D.", advice: "A.").description == "Ad document rejected (nulByte, byte 200): D. A.")
        #expect(VMAPParseError(.empty, detail: "D.", advice: "A.").description == "Ad document rejected (empty): D. A.")
    }

    @Test func theXMLReadersPlaceAndSentencesCarryOver() {
        let error = expectVMAPFailure("<vmap:VMAP xmlns:vmap=\"v\">\n  <a></b>\n</vmap:VMAP>", .malformedXML)
        #expect(error?.line == 2)
        #expect(error?.column != nil)
        #expect(error?.description.hasPrefix("Ad document rejected (malformedXML, line 2, column ") == true, "\(String(describing: error))")
    }

    @Test func limitErrorsNameTheSettingAnAppRaises() {
        let manyElements = "<a>" + String(repeating: "<b/>", count: 1_000) + "</a>"
        let elements = expectVMAPFailure(manyElements, .tooManyElements, limits: VMAPParseLimits(maxElements: 500))
        #expect(elements?.element == "b")
        #expect(elements?.advice == "Ask the server for a smaller document; if it is legitimate, raise VMAPParseLimits.maxElements (now 500).")
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(expectVMAPFailure(deep, .tooDeep)?.advice.hasSuffix("raise VMAPParseLimits.maxDepth (now 64).") == true)
        let large = expectVMAPFailure("<a>" + String(repeating: "x", count: 2_000) + "</a>", .tooLarge, limits: VMAPParseLimits(maxBytes: 1_000))
        #expect(large?.detail == "The document is 2007 bytes; the limit is 1000.")
        #expect(large?.advice.hasSuffix("raise VMAPParseLimits.maxBytes (now 1000).") == true)
    }
}
