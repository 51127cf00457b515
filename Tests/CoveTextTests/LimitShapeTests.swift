import Testing

@testable import CoveText

/// WebVTT's and TTML's limits on the shared input core (`CoveInput`): the error names the limit, the
/// line, what to do and the setting to raise with its value (none for TTML's fixed limits).
@Suite("WebVTT and TTML limits on the shared input core")
struct LimitShapeTests {
    @Test func aWebVTTLimitErrorSaysWhatToDoAndWhatToRaise() {
        let cues = "WEBVTT\n\n" + (0..<11).map { "00:00.000 --> 00:01.000\ncue \($0)\n" }.joined(separator: "\n")
        let error = expectFailure(cues, .limitExceeded(.maxCues, limit: 10), line: 33, options: WebVTTParseOptions(limits: WebVTTParseLimits(maxCues: 10)))
        #expect(
            error?.description
                == "WebVTT rejected (limitExceeded maxCues=10) at line 33: The file has more than 10 cues. Check that the file is really WebVTT and not generated in a loop; if it is legitimate, raise WebVTTParseLimits.maxCues (now 10)."
        )
        let long = expectFailure(
            "WEBVTT\n\n" + String(repeating: "x", count: 300), .limitExceeded(.maxLineLength, limit: 200), line: 3,
            options: WebVTTParseOptions(limits: WebVTTParseLimits(maxLineLength: 200)))
        #expect(
            long?.advice
                == "Check that the file is WebVTT and not binary or minified data; if it is legitimate, raise WebVTTParseLimits.maxLineLength (now 200).")
    }

    @Test func everyWebVTTLimitIsNamedInItsError() {
        let limits = WebVTTParseLimits()
        for limit in WebVTTParseLimits.Limit.allCases {
            let error = limits.exceeded(limit, line: 2, detail: "Over.")
            #expect(error.kind == .limitExceeded(limit, limit: limits.value(of: limit)))
            #expect(error.advice.hasSuffix("raise WebVTTParseLimits.\(limit.rawValue) (now \(limits.value(of: limit)))."))
        }
    }

    @Test func webVTTEncodingErrorsReadAsTheyAlwaysHave() {
        let error = WebVTTParseError(.invalidUTF8, line: 2, byteOffset: 34, detail: "D.", advice: "A.")
        #expect(error.description == "WebVTT rejected (invalidUTF8) at line 2, byte 34: D. A.")
        #expect(WebVTTParseError(.missingHeader, line: nil, detail: "D.", advice: "A.").description == "WebVTT rejected (missingHeader): D. A.")
    }

    @Test func ttmlsFixedLimitsNameNoSetting() {
        let deep = "<tt>" + String(repeating: "<div>", count: 70) + String(repeating: "</div>", count: 70) + "</tt>"
        do {
            _ = try TTML.parse(Array(deep.utf8))
            Issue.record("a TTML file 71 elements deep was read")
        } catch {
            #expect(error.xml?.kind == .tooDeep)
            #expect(error.xml?.advice.contains("raise") == false, "\(error)")
        }
    }
}
