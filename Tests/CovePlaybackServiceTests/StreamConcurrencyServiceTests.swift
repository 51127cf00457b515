import CoveCore
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

/// The stream-concurrency client against a real loopback server: the documented refusal is typed with
/// its active sessions; everything else a service can do wrong — 500, a slow answer, an HTML page, a
/// 413, an unknown 403 — is `unavailable`, promptly, so playback is never disturbed by it.
@Suite("Stream concurrency client")
struct StreamConcurrencyServiceTests {
    static let token = try! PlaybackRightsToken.parse(
        "eyJhbGciOiJIUzI1NiJ9.eyJhY2NpZCI6IjYwMDAwMDAwMDAwMDEiLCJ1aWQiOiJ2aWV3ZXItMSIsImNsaW1pdCI6MX0.c2lnbmF0dXJl"
    )

    static func server(_ answer: @escaping @Sendable (MediaServerRequest) async -> MediaServerResponse) async throws -> MediaServer {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        server.addRoute(prefix: "/api/v1/accounts/", handler: answer)
        return server
    }

    static func service(_ server: MediaServer, timeout: Duration = .seconds(5)) -> StreamConcurrencyService {
        StreamConcurrencyService(accountID: "6000000000001", baseURL: server.baseURL, transport: AsyncHTTPClientTransport.shared, timeout: timeout)
    }

    static func json(_ status: Int, _ text: String) -> MediaServerResponse {
        MediaServerResponse(status: status, contentType: "application/json", body: Data(text.utf8))
    }

    @Test func anAcceptedHeartbeatGivesTheIntervalAndSessionsAndSendsTheDocumentedRequest() async throws {
        let seen = Recorded<MediaServerRequest>()
        let server = try await Self.server { request in
            seen.append(request)
            return Self.json(200, #"{"heartbeat_interval": 90, "sessions": [{"sid": "a"}]}"#)
        }
        defer { Task { await server.stop() } }
        let beat = try await Self.service(server).heartbeat(token: Self.token, sessionID: "a", videoID: "42", renewal: true)
        #expect(beat.interval == .seconds(90))
        #expect(beat.sessions == [["sid": "a"]])
        let request = try #require(seen.all.first)
        #expect(request.method == "POST")
        #expect(request.path == "/api/v1/accounts/6000000000001/sessions")
        #expect(request.headers["authorization"] == "Bearer \(Self.token.compact)")
        let body = try #require(try JSONValue.parse(request.body).objectValue)
        #expect(body == ["sid": "a", "video_id": "42", "renewal": true])
    }

    @Test func aMissingOrSillyIntervalFallsBackOrIsBounded() async throws {
        for (text, expected) in [
            (#"{}"#, StreamConcurrencyService.defaultInterval), (#"{"heartbeat_interval": -5}"#, StreamConcurrencyService.defaultInterval),
            (#"{"heartbeat_interval": 1e12}"#, .seconds(3600)), (#"{"heartbeat_interval": 1e300}"#, .seconds(3600)),
            (#"{"heartbeat_interval": 0.001}"#, .milliseconds(100)),
        ] {
            let server = try await Self.server { _ in Self.json(200, text) }
            let beat = try await Self.service(server).heartbeat(token: Self.token, sessionID: "a", videoID: nil, renewal: false)
            await server.stop()
            #expect(beat.interval == expected, "\(text)")
        }
    }

    @Test func theDocumentedRefusalIsADenialWithTheActiveSessions() async throws {
        let server = try await Self.server { _ in
            Self.json(403, #"{"code": "ACCESS_DENIED", "sub_code": "DENIED_BY_STREAM_LIMIT_CREATE", "sessions": [{"sid": "other"}]}"#)
        }
        defer { Task { await server.stop() } }
        do {
            _ = try await Self.service(server).heartbeat(token: Self.token, sessionID: "a", videoID: nil, renewal: false)
            Issue.record("a refusal was accepted")
        } catch {
            #expect(error == .denied(.streamLimit(renewal: false), sessions: [["sid": "other"]], httpStatus: 403))
            #expect(!error.description.contains(Self.token.compact))
        }
    }

    /// What is not a documented refusal never stops a stream.
    @Test(arguments: [
        ("500", 500, "text/plain", "boom"),
        ("HTML page", 200, "text/html", "<html><body>captive portal</body></html>"),
        ("HTML 403", 403, "text/html", "<html>forbidden by proxy</html>"),
        ("413", 413, "application/json", #"{"code": "PAYLOAD_TOO_LARGE"}"#),
        ("unknown 403 code", 403, "application/json", #"{"code": "ACCESS_DENIED", "sub_code": "SOMETHING_NEW"}"#),
        ("transient rights failure", 502, "application/json", #"{"code": "SERVER_ERROR", "sub_code": "PLAYBACK_RIGHT_RETRIEVE_FAILURE"}"#),
    ])
    func anythingElseIsUnavailable(name: String, status: Int, contentType: String, body: String) async throws {
        let server = try await Self.server { _ in MediaServerResponse(status: status, contentType: contentType, body: Data(body.utf8)) }
        defer { Task { await server.stop() } }
        do {
            _ = try await Self.service(server).heartbeat(token: Self.token, sessionID: "a", videoID: nil, renewal: true)
            Issue.record("\(name) was accepted")
        } catch {
            guard case .unavailable = error else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(error.description.contains("playback goes on"))
        }
    }

    @Test func aSlowServiceIsUnavailableWithinTheTimeout() async throws {
        let server = try await Self.server { _ in Self.json(200, #"{"heartbeat_interval": 60}"#) }
        defer { Task { await server.stop() } }
        server.setFirstByteDelay(.seconds(5))
        let started = ContinuousClock.now
        await #expect(throws: StreamConcurrencyError.self) {
            _ = try await Self.service(server, timeout: .milliseconds(500)).heartbeat(token: Self.token, sessionID: "a", videoID: nil, renewal: true)
        }
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test func aReleaseDeletesTheSlotAndAnUnknownSlotIsFine() async throws {
        let seen = Recorded<MediaServerRequest>()
        let server = try await Self.server { request in
            seen.append(request)
            return MediaServerResponse(status: request.path.hasSuffix("/gone") ? 404 : 204, contentType: "application/json", body: Data())
        }
        defer { Task { await server.stop() } }
        try await Self.service(server).release(token: Self.token, sessionID: "living room")
        try await Self.service(server).release(token: Self.token, sessionID: "gone")
        #expect(seen.all.map(\.method) == ["DELETE", "DELETE"])
        #expect(seen.all.first?.path == "/api/v1/accounts/6000000000001/sessions/living%20room")
    }

    /// The proxy domain routes heartbeats unless the service was given its own base URL.
    @Test func theProxyDomainRoutesHeartbeatsUnlessABaseURLWasGiven() throws {
        let global = GlobalConfiguration()
        try global.setProxyDomain("bcovproxy.example.cn")
        let proxied = StreamConcurrencyService(accountID: "1", transport: AsyncHTTPClientTransport.shared, globalConfiguration: global)
        #expect(proxied.effectiveBaseURL.absoluteString == "https://bcovproxy.example.cn")
        let explicit = StreamConcurrencyService(
            accountID: "1", baseURL: URL(string: "http://127.0.0.1:9")!, transport: AsyncHTTPClientTransport.shared, globalConfiguration: global)
        #expect(explicit.effectiveBaseURL.absoluteString == "http://127.0.0.1:9")
        #expect(
            StreamConcurrencyService(accountID: "1", transport: AsyncHTTPClientTransport.shared, globalConfiguration: GlobalConfiguration()).effectiveBaseURL
                == StreamConcurrencyService.defaultBaseURL)
        #expect(explicit.route.overriddenProxy == "bcovproxy.example.cn")
        #expect(proxied.route.reason == .proxy && proxied.route.overriddenProxy == nil)
        // An explicit base that bypasses the proxy is said, for the heartbeats and for the lookups.
        let logs = LogCapture()
        _ = StreamConcurrencySessionProvider(
            upstream: BasicSessionProvider(), service: explicit, logger: logs.logger(label: "cove.stream-concurrency", level: .notice))
        let factory = PlaybackServiceRequestFactory(
            accountID: "1", policyKey: "key", baseURL: URL(string: "http://127.0.0.1:9/playback/v1")!, globalConfiguration: global)
        _ = PlaybackService(
            requestFactory: factory, transport: AsyncHTTPClientTransport.shared, logger: logs.logger(label: "cove.playback-service", level: .notice))
        #expect(logs.text.components(separatedBy: "not through the proxy domain").count == 3, "\(logs.text)")
    }
}
