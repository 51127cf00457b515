import CoveCore
import CoveSSAI
import Foundation
import Testing

@Suite("SSAI URL variables")
struct URLVariablesTests {
    static let template = "https://ssai.example/v1/accounts/1/videos/2/content.vmap?foo={{url.foo}}&bar={{url.bar}}&keep={{url.unknown}}"

    @Test func variablesAreListedAndReplacedWithEncodedValues() {
        #expect(SSAIURLVariables.names(in: Self.template) == ["foo", "bar", "unknown"])
        let replaced = SSAIURLVariables.replacing(in: Self.template, with: ["foo": "123", "bar": "hello world&x=1#y"])
        #expect(replaced == "https://ssai.example/v1/accounts/1/videos/2/content.vmap?foo=123&bar=hello%20world%26x%3D1%23y&keep={{url.unknown}}")
        #expect(SSAIURLVariables.names(in: replaced) == ["unknown"], "unknown names are left for the app to see")
        #expect(SSAIURLVariables.names(in: "no variables {{url.}} {{url.open") == [])
    }

    @Test func aVideosVMAPSourcesAreRewrittenAndOthersLeftAlone() throws {
        let hls = Source(url: URL(string: "https://cdn.example/master.m3u8")!, properties: ["vmap": .string(Self.template)])
        let mp4 = Source(url: URL(string: "https://cdn.example/clip.mp4")!)
        let video = Video(sources: [hls, mp4], properties: ["id": "2"])
        let updated = SSAIURLVariables.replacing(in: video, with: ["foo": "1", "bar": "2", "unknown": "3"])
        #expect(updated.sources[0].properties["vmap"]?.stringValue == "https://ssai.example/v1/accounts/1/videos/2/content.vmap?foo=1&bar=2&keep=3")
        #expect(updated.sources[0].vmapURL != nil, "a usable URL once the braces are gone")
        #expect(updated.sources[1] == mp4)
        #expect(updated.id == "2")
    }
}
