import CoveCore
import CovePlaybackService
import CoveTesting
import Foundation
import Synchronization
import Testing

/// The service against a scripted transport and a manual clock: what it sends, how it retries,
/// how it maps answers to values and typed errors.
@Suite("Playback Service (scripted transport)")
struct ServiceTests {
    static let key = "BCpkADawqM-service-test-key-0002"
    let clock = RecordingClock()
    let logs = LogCapture()

    func service(_ transport: ScriptedHTTPTransport, retry: RetryPolicy = .init(maximumAttempts: 2, initialDelay: .milliseconds(250))) -> PlaybackService {
        PlaybackService(
            requestFactory: PlaybackServiceRequestFactory(accountID: "57838016001", policyKey: Self.key, globalConfiguration: GlobalConfiguration()),
            transport: transport, retry: retry, clock: clock, logger: logs.logger()
        )
    }

    /// The lookup's outcome with its typed error.
    static func outcome<T: Sendable>(_ body: () async throws(PlaybackServiceError) -> T) async -> Result<T, PlaybackServiceError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    static func json(_ status: Int, _ body: String) -> ScriptedHTTPTransport.Handler {
        { request throws(HTTPTransportError) in
            HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8), url: request.url)
        }
    }

    @Test func findVideoReturnsTheValueBesideItsJSON() async throws {
        let transport = ScriptedHTTPTransport(status: 200, json: Samples.legacyVideo)
        let found = try await service(transport).findVideo(PlaybackServiceConfiguration(assetID: "4084164751001"))
        #expect(found.value.name == "Chickadee")
        #expect(found.json["reference_id"] == "Bird_Chickadee.mp4_1425064251252")
        #expect(found.json["sources"]?.arrayValue?.count == 3, "the JSON is the response as sent")
        #expect(found.bumperError == nil)
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].url.path == "/playback/v1/accounts/57838016001/videos/4084164751001")
    }

    @Test func theCompletionHandlerFormDeliversTheSameResult() async throws {
        let transport = ScriptedHTTPTransport(status: 200, json: Samples.playlist)
        let service = self.service(transport)
        let result = await withCheckedContinuation { continuation in
            service.findPlaylist(PlaybackServiceConfiguration(assetReferenceID: "manual"), query: PlaybackServiceQuery(limit: 3)) {
                continuation.resume(returning: $0)
            }
        }
        let playlist = try result.get().value
        #expect(playlist.allPlayableVideos.count == 2)
        #expect(transport.requests[0].url.query == "limit=3")
        transport.answer(with: Self.json(404, #"[{"error_code": "VIDEO_NOT_FOUND"}]"#))
        let failure = await withCheckedContinuation { continuation in
            service.findVideo(PlaybackServiceConfiguration(assetID: "1")) { continuation.resume(returning: $0) }
        }
        guard case .failure(.api(let errors, 404, _)) = failure else { Issue.record("expected an API error, got \(failure)"); return }
        #expect(errors.map(\.code) == ["VIDEO_NOT_FOUND"])
    }

    @Test(arguments: [
        (401, #"[{"error_code": "INVALID_POLICY_KEY", "message": "The policy key provided is not valid"}]"#, "policy key was rejected"),
        (403, #"[{"error_code": "ACCESS_DENIED", "error_subcode": "AD_CONFIG", "message": "Missing required ad_config_id parameter"}]"#, "ad_config_id"),
        (403, #"[{"error_code": "ACCESS_DENIED", "error_subcode": "CLIENT_GEO", "client_geo": "us"}]"#, "geo-restricted"),
        (401, #"[{"error_code": "ACCESS_DENIED", "error_subcode": "TOKEN_REQUIRED"}]"#, "Playback Rights token"),
        (404, #"[{"error_code": "VIDEO_NOT_FOUND"}]"#, "check the ID"),
        (403, #"[{"error_code": "VIDEO_NOT_PLAYABLE"}]"#, "not playable now"),
        (400, #"<html>Bad Request</html>"#, "rejected"),
    ])
    func clientErrorsAreNeverRetriedAndSayWhatToDo(status: Int, body: String, advice: String) async throws {
        let transport = ScriptedHTTPTransport(Self.json(status, body))
        do {
            _ = try await service(transport).findVideo(PlaybackServiceConfiguration(assetID: "42"))
            Issue.record("expected an error")
        } catch {
            guard case .api(_, let answered, let text) = error else { Issue.record("wrong case \(error)"); return }
            #expect(answered == status)
            #expect(text.contains(advice), "\(text)")
            #expect(error.code == 3)
            #expect(error.description.contains("HTTP \(status)"))
            #expect(!error.description.contains(Self.key))
        }
        #expect(transport.requests.count == 1)
    }

    @Test func serverErrorsAreRetriedWithDoublingBackoffOnTheInjectedClock() async throws {
        let count = Mutex(0)
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            let n = count.withLock {
                $0 += 1; return $0
            }
            let status = n == 1 ? 503 : n == 2 ? 429 : 200
            return HTTPResponse(
                status: status, headers: [:], body: Data((status == 200 ? Samples.ssaiVideo : #"[{"error_code":"SERVICE_UNAVAILABLE"}]"#).utf8),
                url: request.url)
        }
        let found = try await service(transport).findVideo(
            PlaybackServiceConfiguration(assetID: "6156696074001"), query: PlaybackServiceQuery(adConfigID: "ssai"))
        #expect(found.value.sources.allSatisfy { $0.vmapURL != nil })
        #expect(clock.sleeps == [.milliseconds(250), .milliseconds(500)])
        #expect(transport.requests.count == 3)
        #expect(logs.all.filter { $0.message == "Playback API answered an error" }.count == 2)
    }

    @Test func retriesAreBoundedAndTheLastAnswerIsReported() async throws {
        let transport = ScriptedHTTPTransport(Self.json(502, #"[{"error_code": "SERVER_ERROR", "error_subcode": "VIDEO_RETRIEVE_FAILURE"}]"#))
        let service = self.service(transport, retry: .init(maximumAttempts: 1, initialDelay: .seconds(1)))
        let result = await Self.outcome { () async throws(PlaybackServiceError) in try await service.findVideo(PlaybackServiceConfiguration(assetID: "42")) }
        guard case .failure(.api(let errors, 502, let advice)) = result else { Issue.record("\(result)"); return }
        #expect(errors.first?.subcode == "VIDEO_RETRIEVE_FAILURE")
        #expect(advice.contains("retry later"))
        #expect(transport.requests.count == 2)
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test func connectionFailuresAreRetriedButInsecureRedirectsAreNot() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            throw HTTPTransportError(.connectionFailed, url: request.url, detail: "connection refused")
        }
        let service = self.service(transport)
        let result = await Self.outcome { () async throws(PlaybackServiceError) in try await service.findVideo(PlaybackServiceConfiguration(assetID: "42")) }
        guard case .failure(.connection(let error)) = result else { Issue.record("expected a connection error"); return }
        #expect(error.kind == .connectionFailed)
        #expect(transport.requests.count == 3)

        // Failures a second attempt cannot cure are reported at once.
        for kind in [HTTPTransportError.Kind.insecureRedirect, .tlsFailure, .tooManyRedirects, .responseTooLarge, .invalidURL] {
            let before = transport.requests.count
            transport.answer { request throws(HTTPTransportError) in throw HTTPTransportError(kind, url: request.url, detail: "\(kind)") }
            let refused = await Self.outcome { () async throws(PlaybackServiceError) in try await service.findVideo(PlaybackServiceConfiguration(assetID: "42"))
            }
            guard case .failure(.connection(let error)) = refused else { Issue.record("expected a connection error for \(kind)"); continue }
            #expect(error.kind == kind)
            #expect(transport.requests.count == before + 1, "\(kind) is not retried")
        }
    }

    @Test func cancellingDuringABackoffEndsTheLookupAtOnce() async throws {
        let transport = ScriptedHTTPTransport(Self.json(503, "[]"))
        // A real clock: cancellation must cut a long backoff short.
        let service = PlaybackService(
            requestFactory: PlaybackServiceRequestFactory(
                accountID: "1", policyKey: Self.key, timeout: .seconds(600), globalConfiguration: GlobalConfiguration()),
            transport: transport, retry: .init(maximumAttempts: 5, initialDelay: .seconds(60), maximumDelay: .seconds(960)), clock: ContinuousClock(),
            logger: logs.logger()
        )
        let (requests, arrived) = AsyncStream<Void>.makeStream()
        transport.answer { request throws(HTTPTransportError) in
            arrived.yield()
            return HTTPResponse(status: 503, headers: [:], body: Data(), url: request.url)
        }
        let lookup = Task {
            await Self.outcome { () async throws(PlaybackServiceError) in try await service.findVideo(PlaybackServiceConfiguration(assetID: "42")) }
        }
        var iterator = requests.makeAsyncIterator()
        _ = await iterator.next()
        lookup.cancel()
        guard case .failure(.connection(let error)) = await lookup.value else { Issue.record("expected cancellation"); return }
        #expect(error.kind == .cancelled)
        #expect(transport.requests.count == 1)
    }

    @Test func undecodableSuccessBodiesKeepTheirBytes() async throws {
        let body = #"{"id": "42", "sources": [{"src": 7}]"#
        let transport = ScriptedHTTPTransport(status: 200, json: body)
        do {
            _ = try await service(transport).findVideo(PlaybackServiceConfiguration(assetID: "42"))
            Issue.record("expected an error")
        } catch {
            guard case .jsonDeserialization(let raw, let detail) = error else { Issue.record("wrong case \(error)"); return }
            #expect(raw == Data(body.utf8))
            #expect(!detail.isEmpty)
            #expect(error.code == 2)
        }
        transport.answer(with: Self.json(200, #"{"id": "42", "sources": [{"src": 7}]}"#))
        do {
            _ = try await service(transport).findVideo(PlaybackServiceConfiguration(assetID: "42"))
            Issue.record("expected an error")
        } catch {
            guard case .jsonDeserialization(_, let detail) = error else { Issue.record("wrong case \(error)"); return }
            #expect(detail.contains("video.sources[0].src"))
        }
    }

    @Test func theVideosBumperIDCustomFieldWinsOverTheConfiguredBumper() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            let id = request.url.lastPathComponent
            let body: String
            switch id {
            case "9012": body = Samples.clearDynamicDeliveryVideo  // custom_fields.bumper_id = 777
            case "42": body = #"{"id": "42", "sources": [{"src": "https://example.com/42.m3u8", "type": "application/x-mpegURL"}]}"#
            default: body = #"{"id": "\#(id)", "name": "bumper \#(id)", "sources": [{"src": "https://example.com/bumper.mp4", "container": "MP4"}]}"#
            }
            return HTTPResponse(status: 200, headers: [:], body: Data(body.utf8), url: request.url)
        }
        let service = self.service(transport)
        let withField = try await service.findVideo(PlaybackServiceConfiguration(assetID: "9012", bumperID: "555"))
        #expect(withField.value.bumper?.id == "777")
        #expect(transport.requests.last?.url.lastPathComponent == "777")
        #expect(transport.requests.last?.headers["BCOV-Policy"] == Self.key)

        let configured = try await service.findVideo(PlaybackServiceConfiguration(assetID: "42", bumperID: "555", bumperReferenceID: "ignored"))
        #expect(configured.value.bumper?.id == "555")
        let byReference = try await service.findVideo(PlaybackServiceConfiguration(assetID: "42", bumperReferenceID: "intro"))
        #expect(transport.requests.last?.url.lastPathComponent == "ref:intro")
        #expect(byReference.value.bumper != nil)
        let none = try await service.findVideo(PlaybackServiceConfiguration(assetID: "42"))
        #expect(none.value.bumper == nil)
        #expect(transport.requests.count == 7)
    }

    @Test func aMissingBumperIsReportedButTheVideoIsStillFound() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            if request.url.lastPathComponent == "42" {
                return HTTPResponse(
                    status: 200, headers: [:], body: Data(#"{"id": "42", "sources": [{"src": "https://example.com/42.m3u8"}]}"#.utf8), url: request.url)
            }
            return HTTPResponse(status: 404, headers: [:], body: Data(#"[{"error_code": "VIDEO_NOT_FOUND"}]"#.utf8), url: request.url)
        }
        let found = try await service(transport).findVideo(PlaybackServiceConfiguration(assetID: "42", bumperID: "404404"))
        #expect(found.value.bumper == nil)
        guard case .api(_, 404, let advice) = found.bumperError else { Issue.record("expected the bumper's error"); return }
        #expect(advice.contains("bumper '404404'"))
        #expect(logs.text.contains("bumper lookup failed"))
    }

    @Test func aPlaylistsBumperIsAttachedToItsFirstPlayableVideo() async throws {
        let failedFirst =
            #"{"id": "p", "videos": [{"id": "x", "error_code": "VIDEO_NOT_FOUND"}, {"id": "a", "sources": [{"src": "https://e.com/a.m3u8"}]}, {"id": "b", "sources": [{"src": "https://e.com/b.m3u8"}]}]}"#
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            let body =
                request.url.path.contains("/playlists/") ? failedFirst : #"{"id": "bump", "sources": [{"src": "https://e.com/bump.mp4", "container": "MP4"}]}"#
            return HTTPResponse(status: 200, headers: [:], body: Data(body.utf8), url: request.url)
        }
        let found = try await service(transport).findPlaylist(PlaybackServiceConfiguration(assetID: "p", bumperID: "bump"))
        #expect(found.value.videos.map { $0.bumper?.id } == [nil, "bump", nil])
        #expect(transport.requests.count == 2)
    }

    @Test func invalidRequestsNeverReachTheNetwork() async throws {
        let transport = ScriptedHTTPTransport(status: 200, json: "{}")
        do {
            _ = try await service(transport).findPlaylist(PlaybackServiceConfiguration())
            Issue.record("expected an error")
        } catch {
            guard case .invalidRequest = error else { Issue.record("wrong case \(error)"); return }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func theTimeoutBoundsTheWholeLookupRetriesIncluded() async throws {
        let transport = ScriptedHTTPTransport(Self.json(503, "[]"))
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, timeout: .seconds(1), globalConfiguration: GlobalConfiguration())
        let service = PlaybackService(
            requestFactory: factory, transport: transport, retry: .init(maximumAttempts: 5, initialDelay: .milliseconds(750)), clock: clock,
            logger: logs.logger())
        let result = await Self.outcome { () async throws(PlaybackServiceError) in try await service.findVideo(PlaybackServiceConfiguration(assetID: "42")) }
        guard case .failure(.api(_, 503, _)) = result else { Issue.record("\(result)"); return }
        // 750 ms fit in the 1 s budget; the next 1.5 s backoff does not, so the lookup ends there.
        #expect(clock.sleeps == [.milliseconds(750)])
        #expect(transport.requests.count == 2)
        #expect(transport.requests[1].timeout <= .milliseconds(250), "the second attempt only gets what is left")
        #expect(logs.text.contains("retry abandoned"))
    }

    @Test func theBumperIsLookedUpWithTheContentsAdConfigButWithoutPaging() async throws {
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            let body =
                request.url.path.contains("/playlists/")
                ? #"{"id": "p", "videos": [{"id": "a", "sources": [{"src": "https://e.com/a.m3u8"}]}]}"#
                : #"{"id": "bump", "sources": [{"src": "https://e.com/bump.mp4", "container": "MP4"}]}"#
            return HTTPResponse(status: 200, headers: [:], body: Data(body.utf8), url: request.url)
        }
        let query = PlaybackServiceQuery(limit: 5, offset: 10, adConfigID: "ads-1", configID: "rules-1", extra: ["sort": "name"])
        _ = try await service(transport).findPlaylist(PlaybackServiceConfiguration(assetID: "p", bumperID: "bump"), query: query)
        let bumperQuery = try #require(transport.requests.last?.url.query)
        #expect(bumperQuery == "ad_config_id=ads-1&config_id=rules-1&sort=name")
    }

    @Test func additionalHeadersCannotReplaceOrAddCredentials() throws {
        var factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        factory.additionalHeaders = ["Authorization": "Basic Zm9vOmJhcg==", "BCOV-Policy": "other", "X-Device": "stb"]
        let withKey = try factory.videoRequest(PlaybackServiceConfiguration(assetID: "1"))
        #expect(withKey.headers["BCOV-Policy"] == Self.key)
        #expect(withKey.headers["Authorization"] == nil)
        #expect(withKey.headers["X-Device"] == "stb")
        let withToken = try factory.videoRequest(
            PlaybackServiceConfiguration(assetID: "1", authToken: "eyJhbGciOiJIUzI1NiJ9.eyJhY2NpZCI6IjEifQ.token-value-sig"))
        #expect(withToken.headers["Authorization"] == "Bearer eyJhbGciOiJIUzI1NiJ9.eyJhY2NpZCI6IjEifQ.token-value-sig")
        #expect(withToken.headers["BCOV-Policy"] == nil, "never a policy key beside a bearer token")
    }

    @Test func printingDumpingAndReflectingNeverShowCredentials() {
        let token = "eyJhbGciOiJIUzI1NiJ9.description-test.SIGNATURE"
        let liveToken = "live-playback-token-0123456789"
        let configuration = PlaybackServiceConfiguration(assetID: "42", authToken: token, bumperID: "7")
        let query = PlaybackServiceQuery(adConfigID: "ads", livePlaybackToken: liveToken)
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.key, globalConfiguration: GlobalConfiguration())
        let service = self.service(ScriptedHTTPTransport(status: 200, json: "{}"))
        var dumped = ""
        dump(configuration, to: &dumped)
        dump(query, to: &dumped)
        dump(factory, to: &dumped)
        dump(service, to: &dumped)
        let texts = [
            "\(configuration)", String(reflecting: configuration), "\(query)", String(reflecting: query),
            "\(factory)", String(reflecting: factory), "\(service)", String(reflecting: service), dumped,
        ]
        for text in texts {
            #expect(!text.contains(token) && !text.contains(liveToken) && !text.contains(Self.key), "\(text)")
        }
        #expect("\(configuration)".contains("assetID: 42"))
        #expect("\(query)".contains("ad_config_id=ads"))
    }
}
