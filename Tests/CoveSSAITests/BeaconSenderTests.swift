import CoveCore
import CoveSSAI
import CoveTesting
import Foundation
import Synchronization
import Testing

@Suite("Ad beacons")
struct BeaconSenderTests {
    static func transport(_ status: @escaping @Sendable (HTTPRequest) -> Int) -> ScriptedHTTPTransport {
        ScriptedHTTPTransport { request in
            HTTPResponse(status: status(request), headers: HTTPHeaders(), body: Data(), url: request.url)
        }
    }

    @Test func eachBeaconOfAnAdPlayFiresOnceAndAnotherPlayFiresAgain() async {
        let transport = Self.transport { _ in 204 }
        let sender = BeaconSender(transport: transport, policy: .init(attempts: 3, initialDelay: .zero), random: { 12345 })
        let start = BeaconKey(breakIndex: 1, adIndex: 0, play: 0, event: "start")
        #expect(await sender.fire(["https://b.example/start?cb=[CACHEBUSTING]", "https://c.example/s"], for: start))
        #expect(await sender.fire(["https://b.example/start?cb=[CACHEBUSTING]"], for: start) == false, "once per play")
        // The seed: a watched ad crossed again plays again and beacons again.
        #expect(await sender.fire(["https://b.example/start?cb=[CACHEBUSTING]"], for: BeaconKey(breakIndex: 1, adIndex: 0, play: 1, event: "start")))
        await sender.drain()
        let urls = transport.requests.map(\.url.absoluteString).sorted()
        #expect(urls == ["https://b.example/start?cb=00012345", "https://b.example/start?cb=00012345", "https://c.example/s"])
        #expect(await sender.results.allSatisfy(\.succeeded))
    }

    @Test func failuresAreRetriedBoundedlyAndFourHundredsAreNot() async {
        let hits = Mutex<[String: Int]>([:])
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            let path = request.url.path
            let count = hits.withLock { h -> Int in
                h[path, default: 0] += 1
                return h[path]!
            }
            switch path {
            case "/flaky": return HTTPResponse(status: count < 2 ? 503 : 204, headers: HTTPHeaders(), body: Data(), url: request.url)
            case "/down": throw HTTPTransportError(.connectionFailed, url: request.url, detail: "refused")
            case "/gone": return HTTPResponse(status: 404, headers: HTTPHeaders(), body: Data(), url: request.url)
            default: return HTTPResponse(status: 500, headers: HTTPHeaders(), body: Data(), url: request.url)
            }
        }
        let sender = BeaconSender(transport: transport, policy: .init(attempts: 3, initialDelay: .zero))
        for (index, path) in ["/flaky", "/down", "/gone", "/broken"].enumerated() {
            await sender.fire(["https://b.example\(path)"], for: BeaconKey(breakIndex: 0, adIndex: index, play: 0, event: "impression"))
        }
        await sender.drain()
        let results = Dictionary(uniqueKeysWithValues: await sender.results.map { (URL(string: $0.url)!.path, $0) })
        #expect(results["/flaky"]?.succeeded == true && results["/flaky"]?.attempts == 2)
        #expect(results["/down"]?.status == nil && results["/down"]?.attempts == 3)
        #expect(results["/gone"]?.status == 404 && results["/gone"]?.attempts == 1, "4xx is final")
        #expect(results["/broken"]?.status == 500 && results["/broken"]?.attempts == 3)
        #expect(hits.withLock { $0 } == ["/flaky": 2, "/down": 3, "/gone": 1, "/broken": 3])
    }

    @Test func unusableURLsAreRecordedNotRequestedAndTokensAreRedacted() async {
        let transport = Self.transport { _ in 204 }
        let sender = BeaconSender(transport: transport, policy: .init(attempts: 2, initialDelay: .zero))
        await sender.fire(
            ["javascript:alert(1)", "not a url", "https://b.example/t?bc_token=secret999&e=start"],
            for: BeaconKey(breakIndex: 0, adIndex: 0, play: 0, event: "start"))
        await sender.drain()
        let results = await sender.results
        #expect(results.filter { $0.attempts == 0 && $0.status == nil }.count == 2)
        #expect(transport.requests.count == 1)
        #expect(!results.contains { $0.url.contains("secret999") })
    }

    @Test func macrosAreFilledWithVASTFormats() {
        let url = BeaconSender.fill(
            "https://b.example/t?cb=[CACHEBUSTING]&c=[CONTENTPLAYHEAD]&a=[ADPLAYHEAD]&e=[ERRORCODE]&u=[UNKNOWN]",
            macros: BeaconMacros(contentPlayhead: .milliseconds(3_723_456), adPlayhead: .seconds(2.5), errorCode: 405), cacheBuster: 7
        )
        #expect(url == "https://b.example/t?cb=00000007&c=01%3A02%3A03.456&a=00%3A00%3A02.500&e=405&u=[UNKNOWN]")
    }
}
