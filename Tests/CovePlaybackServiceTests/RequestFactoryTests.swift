import CoveCore
import CovePlaybackService
import Foundation
import Testing

@Suite("Playback Service request factory")
struct RequestFactoryTests {
    static let key = "BCpkADawqM-factory-test-key-0001"

    @Test func videoByIDGoesToThePublicAPIOverHTTPSWithThePolicyKeyHeader() throws {
        let factory = PlaybackServiceRequestFactory(accountID: "57838016001", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        let request = try factory.videoRequest(PlaybackServiceConfiguration(assetID: "4084164751001"))
        #expect(request.url.absoluteString == "https://edge.api.brightcove.com/playback/v1/accounts/57838016001/videos/4084164751001")
        #expect(request.method == .get)
        #expect(request.headers["BCOV-Policy"] == Self.key)
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.headers["Authorization"] == nil)
        #expect(request.timeout == .seconds(15))
        #expect(request.maxResponseBytes == 8 << 20)
        #expect(!request.headers.description.contains(Self.key), "header descriptions never show the key")
    }

    @Test func referenceIDsUseRefAndAnIDWins() throws {
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        let byRef = try factory.playlistRequest(PlaybackServiceConfiguration(assetReferenceID: "summer-2026"))
        #expect(byRef.url.path == "/playback/v1/accounts/1/playlists/ref:summer-2026")
        let both = try factory.videoRequest(PlaybackServiceConfiguration(assetID: "42", assetReferenceID: "ignored"))
        #expect(both.url.path == "/playback/v1/accounts/1/videos/42")
        // Reference IDs may contain characters that must be escaped to stay one path segment.
        let odd = try factory.videoRequest(PlaybackServiceConfiguration(assetReferenceID: "a b/c?d#e"))
        #expect(odd.url.absoluteString.hasSuffix("/videos/ref:a%20b%2Fc%3Fd%23e"))
        #expect(odd.url.query == nil)
    }

    @Test func anAuthTokenGoesToTheAuthBaseAsABearerTokenWithoutThePolicyKey() throws {
        let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJhY2NpZCI6IjEifQ.signature-factory-test"
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        let request = try factory.videoRequest(PlaybackServiceConfiguration(assetID: "42", authToken: jwt))
        #expect(request.url.absoluteString == "https://edge-auth.api.brightcove.com/playback/v1/accounts/1/videos/42")
        #expect(request.headers["Authorization"] == "Bearer \(jwt)")
        #expect(request.headers["BCOV-Policy"] == nil)
        // EPA: no policy key at all is fine when a token is given.
        let epa = PlaybackServiceRequestFactory(accountID: "1", policyKey: nil, globalConfiguration: GlobalConfiguration())
        #expect(try epa.videoRequest(PlaybackServiceConfiguration(assetID: "42", authToken: jwt)).headers["Authorization"] == "Bearer \(jwt)")
        // A custom auth base is used only with a token.
        let custom = PlaybackServiceRequestFactory(
            accountID: "1", policyKey: Self.key, baseURL: URL(string: "https://catalog.example/pb/v1")!,
            authBaseURL: URL(string: "https://auth.example/pb/v1/")!, globalConfiguration: GlobalConfiguration()
        )
        #expect(
            try custom.videoRequest(PlaybackServiceConfiguration(assetID: "42", authToken: jwt)).url.absoluteString
                == "https://auth.example/pb/v1/accounts/1/videos/42")
        #expect(try custom.videoRequest(PlaybackServiceConfiguration(assetID: "42")).url.absoluteString == "https://catalog.example/pb/v1/accounts/1/videos/42")
    }

    @Test func theProxyDomainRewritesServiceHostsUnlessABaseURLWasGiven() throws {
        let global = GlobalConfiguration()
        try global.setProxyDomain("BCovProxy.example.cn")
        let proxied = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, globalConfiguration: global)
        #expect(
            try proxied.videoRequest(PlaybackServiceConfiguration(assetID: "42")).url.absoluteString
                == "https://bcovproxy.example.cn/playback/v1/accounts/1/videos/42")
        #expect(
            try proxied.videoRequest(PlaybackServiceConfiguration(assetID: "42", authToken: "eyJhbGciOiJIUzI1NiJ9.eyJhY2NpZCI6IjEifQ.token-abcdef")).url.host
                == "bcovproxy.example.cn")
        let custom = PlaybackServiceRequestFactory(
            accountID: "1", policyKey: Self.key, baseURL: URL(string: "http://127.0.0.1:9/playback/v1")!, globalConfiguration: global)
        #expect(try custom.videoRequest(PlaybackServiceConfiguration(assetID: "42")).url.host == "127.0.0.1")
        try global.setProxyDomain(nil)
        #expect(try proxied.videoRequest(PlaybackServiceConfiguration(assetID: "42")).url.host == "edge.api.brightcove.com")
    }

    @Test(arguments: ["https://proxy.cn", "proxy.cn/playback", "proxy.cn:8443", "", "pro xy.cn"])
    func proxyDomainsMustBeBareHostNames(bad: String) {
        let global = GlobalConfiguration()
        #expect(throws: PlaybackError.self) { try global.setProxyDomain(bad) }
        #expect(global.proxyDomain == nil)
    }

    @Test func queryParametersUseTheWireNamesAndExtrasOverrideThem() throws {
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        let query = PlaybackServiceQuery(
            limit: 10, offset: 20, adConfigID: "ssai-1", configID: "dr 1", livePlaybackToken: "lpt&x=1", extra: ["sort": "-created_at", "limit": "5"])
        let request = try factory.playlistRequest(PlaybackServiceConfiguration(assetID: "9"), query: query)
        #expect(request.url.query == "offset=20&ad_config_id=ssai-1&config_id=dr%201&livePlaybackToken=lpt%26x%3D1&limit=5&sort=-created_at")
    }

    @Test func additionalHeadersAreSentAndTimeoutsAndLimitsCarryOver() throws {
        var factory = PlaybackServiceRequestFactory(
            accountID: "1", policyKey: Self.key, timeout: .seconds(3), maxResponseBytes: 1000, globalConfiguration: GlobalConfiguration())
        factory.additionalHeaders = ["X-Device": "stb-42", "Accept-Language": "fr"]
        let request = try factory.videoRequest(PlaybackServiceConfiguration(assetID: "42"))
        #expect(request.headers["x-device"] == "stb-42")
        #expect(request.headers["Accept-Language"] == "fr")
        #expect(request.timeout == .seconds(3))
        #expect(request.maxResponseBytes == 1000)
    }

    @Test func requestsThatCannotBeBuiltSayWhatIsMissing() {
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        #expect(message(of: { try factory.videoRequest(PlaybackServiceConfiguration()) })?.contains("asset ID or an asset reference ID") == true)
        #expect(message(of: { try factory.videoRequest(PlaybackServiceConfiguration(assetID: "", assetReferenceID: "")) })?.contains("asset ID") == true)
        let keyless = PlaybackServiceRequestFactory(accountID: "1", policyKey: nil, globalConfiguration: GlobalConfiguration())
        #expect(message(of: { try keyless.videoRequest(PlaybackServiceConfiguration(assetID: "42")) })?.contains("policy key") == true)
        let badAccount = PlaybackServiceRequestFactory(accountID: "1/../2", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        #expect(message(of: { try badAccount.videoRequest(PlaybackServiceConfiguration(assetID: "42")) })?.contains("account ID") == true)
    }

    private func message(of build: () throws -> HTTPRequest) -> String? {
        do {
            _ = try build()
            return nil
        } catch {
            guard let error = error as? PlaybackServiceError, case .invalidRequest = error else { return "wrong case: \(error)" }
            #expect(error.code == 4)
            return error.description
        }
    }
}
