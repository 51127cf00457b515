import CoveSSAI
import Testing

/// An in-memory ad server: ad tag URI → response text, with a log of what was fetched.
actor FakeAdServer {
    struct Unreachable: Error {}

    private var responses: [String: String]
    private(set) var fetched: [String] = []

    init(_ responses: [String: String]) {
        self.responses = responses
    }

    func fetch(_ uri: String) throws -> [UInt8] {
        fetched.append(uri)
        guard let text = responses[uri] else { throw Unreachable() }
        return Array(text.utf8)
    }

    nonisolated func resolver(maxDepth: Int = 5) -> VASTWrapperResolver {
        VASTWrapperResolver(maxDepth: maxDepth) { uri in try await self.fetch(uri) }
    }
}

/// Resolves an ad that must fail, returning the typed error (or recording an issue if it resolved).
func resolveFailure(
    _ resolver: VASTWrapperResolver, _ ad: VASTAd, sourceLocation: SourceLocation = #_sourceLocation
) async -> VASTWrapperError? {
    do {
        let ads = try await resolver.resolve(ad)
        Issue.record("expected a wrapper error, got \(ads.count) ad(s)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(!error.description.isEmpty, sourceLocation: sourceLocation)
        return error
    }
}

@Suite("Wrapper resolution")
struct WrapperResolverTests {
    /// The outermost wrapper, as the VMAP or first response would hand it over.
    func startingAd(next: String, sequence: Int? = nil) throws -> VASTAd {
        let document = try VAST.parse(VASTDocuments.wrapper("w0", next: next))
        let ad = try #require(document.ads.first)
        return VASTAd(id: ad.id, sequence: sequence, content: ad.content)
    }

    /// A chain of `count` wrappers after w0, ending in an inline ad.
    func chain(_ count: Int) -> [String: String] {
        var responses: [String: String] = [:]
        for index in 1...max(count, 1) {
            let uri = "https://ads.example.com/\(index)"
            responses[uri] = index == count ? VASTDocuments.inline("final") : VASTDocuments.wrapper("w\(index)", next: "https://ads.example.com/\(index + 1)")
        }
        return responses
    }

    @Test func chainOfTwoMergesEveryWrapperBeacon() async throws {
        let server = FakeAdServer(chain(2))
        let ads = try await server.resolver().resolve(try startingAd(next: "https://ads.example.com/1", sequence: 3))
        #expect(await server.fetched == ["https://ads.example.com/1", "https://ads.example.com/2"])
        #expect(ads.count == 1)
        let ad = try #require(ads.first)
        #expect(ad.id == "final")
        #expect(ad.sequence == 3, "the resolved ad takes the outer wrapper's place in its pod")
        let inLine = try #require(ad.inLine)
        #expect(
            inLine.impressions.map(\.url) == [
                "https://final.example.com/imp?ad=final", "https://wrap.example.com/imp?w=w1", "https://wrap.example.com/imp?w=w0",
            ])
        #expect(
            inLine.errorURLs == [
                "https://final.example.com/err?ad=final", "https://wrap.example.com/err?w=w1&code=[ERRORCODE]",
                "https://wrap.example.com/err?w=w0&code=[ERRORCODE]",
            ])
        let linear = try #require(inLine.creatives.first?.linear)
        #expect(linear.duration == (try clock("00:00:15")))
        #expect(
            linear.trackingEvents.map(\.url) == [
                "https://final.example.com/start?ad=final",
                "https://wrap.example.com/start?w=w1", "https://wrap.example.com/complete?w=w1",
                "https://wrap.example.com/start?w=w0", "https://wrap.example.com/complete?w=w0",
            ])
        #expect(linear.videoClicks.clickThrough?.url == "https://advertiser.example.com/final", "a wrapper's click-through is ignored")
        #expect(
            linear.videoClicks.clickTracking.map(\.url) == [
                "https://final.example.com/click?ad=final", "https://wrap.example.com/click?w=w1", "https://wrap.example.com/click?w=w0",
            ])
    }

    @Test func inlineAdsComeBackUnchanged() async throws {
        let server = FakeAdServer([:])
        let ad = try #require(try VAST.parse(VASTDocuments.inline("plain")).ads.first)
        #expect(try await server.resolver().resolve(ad) == [ad])
        #expect(await server.fetched.isEmpty)
    }

    @Test func cycleIsDetected() async throws {
        let server = FakeAdServer([
            "https://ads.example.com/a": VASTDocuments.wrapper("wa", next: "https://ads.example.com/b"),
            "https://ads.example.com/b": VASTDocuments.wrapper("wb", next: "https://ads.example.com/a"),
        ])
        let error = try #require(await resolveFailure(server.resolver(), try startingAd(next: "https://ads.example.com/a")))
        #expect(error.kind == .cycle)
        #expect(error.depth == 3)
        #expect(error.vastErrorCode == 302)
        #expect(error.errorURLs.count == 3)
        #expect(!error.description.contains("https://"))
    }

    @Test func depthSixExceedsTheDefaultLimit() async throws {
        // w0 plus five more wrappers: the sixth ad tag would be the sixth fetch.
        let server = FakeAdServer(chain(6))
        let error = try #require(await resolveFailure(server.resolver(), try startingAd(next: "https://ads.example.com/1")))
        #expect(error.kind == .depthExceeded)
        #expect(error.depth == 6)
        #expect(error.vastErrorCode == 302)
        #expect(await server.fetched.count == 5)
    }

    @Test func depthSixResolvesWhenTheLimitAllowsIt() async throws {
        let server = FakeAdServer(chain(6))
        let ads = try await server.resolver(maxDepth: 6).resolve(try startingAd(next: "https://ads.example.com/1"))
        #expect(ads.map(\.id) == ["final"])
        #expect(ads.first?.inLine?.impressions.count == 7)
    }

    @Test func fetchFailureIsTypedAndRedacted() async throws {
        let server = FakeAdServer([:])
        let error = try #require(await resolveFailure(server.resolver(), try startingAd(next: "https://ads.example.com/missing?token=SECRET")))
        #expect(error.kind == .fetchFailed)
        #expect(error.vastErrorCode == 301)
        #expect(error.fetchErrorType == "Unreachable")
        #expect(!error.description.contains("SECRET"))
        #expect(error.errorURLs == ["https://wrap.example.com/err?w=w0&code=[ERRORCODE]"])
    }

    @Test func unreadableResponseIsParseFailed() async throws {
        let server = FakeAdServer(["https://ads.example.com/1": "<html><body>502 Bad Gateway</body></html>"])
        let error = try #require(await resolveFailure(server.resolver(), try startingAd(next: "https://ads.example.com/1")))
        #expect(error.kind == .parseFailed)
        #expect(error.parseError?.kind == .notVAST)
        #expect(error.vastErrorCode == 100)
    }

    @Test func emptyResponseIsNoAdWithItsErrorURLs() async throws {
        let server = FakeAdServer(["https://ads.example.com/1": VASTDocuments.noAd])
        let document = try VAST.parse(VASTDocuments.wrapper("w0", next: "https://ads.example.com/1", fallbackOnNoAd: true))
        let wrapper = try #require(document.ads.first)
        let error = try #require(await resolveFailure(server.resolver(), wrapper))
        #expect(error.kind == .noAd)
        #expect(error.vastErrorCode == 303)
        #expect(error.fallbackOnNoAd == true)
        #expect(error.errorURLs.last == "https://noad.example.com/err?code=[ERRORCODE]")
    }

    @Test func followAdditionalWrappersFalseIgnoresFurtherWrappers() async throws {
        let server = FakeAdServer([
            "https://ads.example.com/1": VASTDocuments.wrapper("w1", next: "https://ads.example.com/2"),
            "https://ads.example.com/2": VASTDocuments.inline("final"),
        ])
        let document = try VAST.parse(VASTDocuments.wrapper("w0", next: "https://ads.example.com/1", followAdditionalWrappers: false))
        let wrapper = try #require(document.ads.first)
        let error = await resolveFailure(server.resolver(), wrapper)
        #expect(error?.kind == .noAd)
        #expect(await server.fetched == ["https://ads.example.com/1"])
    }

    @Test func podIsCutToOneAdUnlessMultipleAdsAreAllowed() async throws {
        let server = FakeAdServer(["https://ads.example.com/pod": VASTDocuments.pod(["p1", "p2", "p3"])])
        let single = try await server.resolver().resolve(try startingAd(next: "https://ads.example.com/pod"))
        #expect(single.map(\.id) == ["p1"])
        let allowing = try VAST.parse(VASTDocuments.wrapper("w0", next: "https://ads.example.com/pod", allowMultipleAds: true))
        let podWrapper = try #require(allowing.ads.first)
        let pod = try await server.resolver().resolve(podWrapper)
        #expect(pod.map(\.id) == ["p1", "p2", "p3"])
        #expect(pod.map(\.sequence) == [1, 2, 3])
        #expect(pod.allSatisfy { $0.inLine?.impressions.map(\.url) == ["https://wrap.example.com/imp?w=w0"] })
    }

    @Test func wholeDocumentKeepsGoodAdsAndListsFailures() async throws {
        let server = FakeAdServer(["https://ads.example.com/ok": VASTDocuments.inline("ok")])
        let text = """
            <VAST version="4.0">
              <Ad id="a"><Wrapper><VASTAdTagURI>https://ads.example.com/ok</VASTAdTagURI></Wrapper></Ad>
              <Ad id="b"><Wrapper><VASTAdTagURI>https://ads.example.com/down</VASTAdTagURI></Wrapper></Ad>
              <Ad id="c"><InLine><AdTitle>c</AdTitle></InLine></Ad>
            </VAST>
            """
        let resolution = await server.resolver().resolve(try VAST.parse(text))
        #expect(resolution.ads.map(\.id) == ["ok", "c"])
        #expect(resolution.failures.map(\.kind) == [.fetchFailed])
    }

    @Test func cancellationIsNotAFetchFailure() async throws {
        let resolver = VASTWrapperResolver { _ in throw CancellationError() }
        let error = try #require(await resolveFailure(resolver, try startingAd(next: "https://ads.example.com/1")))
        #expect(error.kind == .cancelled)
        #expect(error.vastErrorCode == nil)
    }
}
