import CoveCore
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Logging
import Synchronization
import Testing

/// The client against a real loopback server that answers with generated garbage: every answer
/// must become a typed error of the right kind, quickly, without a crash and without a secret in
/// any log line or error text.
@Suite("Playback Service against hostile servers")
struct HostileResponseTests {
    static let policyKey = "BCpkADawqM-hostile-test-key-0003-SECRETVALUE"
    static let authToken = "eyJhbGciOiJIUzI1NiJ9.eyJob3N0aWxlIjp0cnVlfQ.SECRETSIGNATURE"
    static let responseLimit = 64 * 1024

    /// What a generated answer must turn into.
    enum Expected: Sendable, Equatable, CustomStringConvertible {
        case jsonDeserialization
        case api(Int)
        case tooLarge
        /// A playlist whose one entry is malformed: that entry becomes an error video.
        case errorVideo

        var description: String {
            switch self {
            case .jsonDeserialization: "jsonDeserialization"
            case .errorVideo: "a playlist with an error video"
            case .api(let status): "api(\(status))"
            case .tooLarge: "connection(responseTooLarge)"
            }
        }
    }

    struct Answer: Sendable {
        let status: Int
        let contentType: String
        let body: Data
        let expected: Expected
        let kind: String
    }

    /// Deterministic answer number `n` (a small xorshift generator seeded by `n`).
    /// Answers alternate between the video and the playlist endpoint, twelve kinds at a time.
    static func isPlaylist(_ n: Int) -> Bool { (n / 12) % 2 == 1 }

    static func answer(_ n: Int) -> Answer {
        var random = SeededRandom(seed: UInt64(n) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        let samples = [Samples.legacyVideo, Samples.drmVideo, Samples.clearDynamicDeliveryVideo, Samples.ssaiVideo]
        func json(_ text: String, status: Int = 200, _ expected: Expected, _ kind: String) -> Answer {
            Answer(status: status, contentType: "application/json", body: Data(text.utf8), expected: expected, kind: kind)
        }
        switch n % 12 {
        case 0:
            let sample = samples[random.next(below: samples.count)].trimmingCharacters(in: .whitespacesAndNewlines)
            let cut = 1 + random.next(below: sample.utf8.count - 1)
            return Answer(status: 200, contentType: "application/json", body: Data(sample.utf8.prefix(cut)), expected: .jsonDeserialization, kind: "truncated")
        case 1:
            let status = [502, 503, 504, 500][random.next(below: 4)]
            let page =
                "<html><head><title>\(status) Bad Gateway</title></head><body><center><h1>\(status)</h1></center><hr><center>nginx</center></body></html>"
            return Answer(status: status, contentType: "text/html", body: Data(page.utf8), expected: .api(status), kind: "html error page")
        case 2:
            return Answer(
                status: 200, contentType: "text/html", body: Data("<!DOCTYPE html><html><body>Sign in to continue</body></html>".utf8),
                expected: .jsonDeserialization, kind: "html 200")
        case 3:
            var bytes = (0..<(8 + random.next(below: 2000))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes[0] = [0xFF, 0x00, UInt8(ascii: "<"), UInt8(ascii: "}"), 0xC3][random.next(below: 5)]
            return Answer(status: 200, contentType: "application/octet-stream", body: Data(bytes), expected: .jsonDeserialization, kind: "random bytes")
        case 4:
            let depth = 65 + random.next(below: 8_900)
            let nested =
                random.next(below: 2) == 0
                ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                : #"{"id": "1", "custom_fields": "# + String(repeating: #"{"a": "#, count: depth) + "1" + String(repeating: "}", count: depth) + "}"
            return json(nested, .jsonDeserialization, "deep nesting")
        case 5:
            let wrong: [(String, JSONValue)] = [
                ("sources", "not a list"), ("sources", [42]), ("sources", [["src": 42]]), ("duration", "8240"), ("id", ["1"]),
                ("name", 7), ("tags", "a,b"), ("custom_fields", []), ("offline_enabled", "yes"), ("cue_points", [["time": "soon"]]),
                ("text_tracks", ["src": "x"]), ("cue_points", [["time": -3]]), ("sources", [["src": "relative/path.m3u8"]]),
            ]
            let (field, value) = wrong[random.next(below: wrong.count)]
            guard case .object(var object) = try! JSONValue.parse(Array(samples[random.next(below: samples.count)].utf8)) else { fatalError() }
            object[field] = value
            if isPlaylist(n) {
                return json(JSONValue.object(["id": "p", "videos": [.object(object)]]).serialized(), .errorVideo, "wrong type for \(field)")
            }
            return json(JSONValue.object(object).serialized(), .jsonDeserialization, "wrong type for \(field)")
        case 6:
            let size = responseLimit + 1 + random.next(below: 200_000)
            return json(#"{"id": "1", "pad": ""# + String(repeating: "x", count: size) + #""}"#, .tooLarge, "huge body")
        case 7:
            return Answer(status: 200, contentType: "application/json", body: Data(), expected: .jsonDeserialization, kind: "empty body")
        case 8:
            let tops = [#""just a string""#, "42", "null", "true", "[]", #"[{"id": "1"}]"#, "   "]
            return json(tops[random.next(below: tops.count)], .jsonDeserialization, "not an object")
        case 9:
            let status = [400, 401, 403, 404, 405, 409, 410, 429, 451, 500, 502, 503][random.next(below: 12)]
            let bodies = ["", "oops", #"{"error": "nope"}"#, #"[{"code": "NO_ERROR_CODE_FIELD"}]"#, #"[{"error_code": 5}]"#, "[[[[", #"{"errors": "x"}"#]
            return json(bodies[random.next(below: bodies.count)], status: status, .api(status), "error status with odd body")
        case 10:
            let broken = [
                #"{"id": "1",}"#, #"{'id': '1'}"#, #"{"id": NaN}"#, #"{"id": "1"#, "{\"id\": \"a\u{01}b\"}", #"{"id": "\x"}"#,
                #"{"id": 01}"#, #"{"id" "1"}"#, #"{"id": "1"} trailing"#, #"{"id": .5}"#, #"{"id": +1}"#, #"{"id": "1"}}"#,
            ]
            return json(broken[random.next(below: broken.count)], .jsonDeserialization, "invalid JSON syntax")
        default:
            // A server that echoes the credentials back in its error.
            let status = [401, 403][random.next(below: 2)]
            let body = #"[{"error_code": "INVALID_POLICY_KEY", "message": "key \#(policyKey) or token Bearer \#(authToken) rejected (\#(authToken))"}]"#
            return json(body, status: status, .api(status), "echoed secrets")
        }
    }

    @Test func aThousandMalformedAnswersEachBecomeATypedErrorWithoutLeakingSecrets() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        server.addRoute(prefix: "/playback/v1/") { request in
            let n = Int(request.path.split(separator: "/").last ?? "") ?? 0
            let answer = Self.answer(n)
            return MediaServerResponse(status: answer.status, contentType: answer.contentType, body: answer.body)
        }
        let logs = LogCapture()
        let transport = AsyncHTTPClientTransport()
        let factory = PlaybackServiceRequestFactory(
            accountID: "57838016001", policyKey: Self.policyKey, baseURL: server.url("playback/v1"), authBaseURL: server.url("playback/v1"),
            timeout: .seconds(10), maxResponseBytes: Self.responseLimit
        )
        let service = PlaybackService(
            requestFactory: factory, transport: transport, retry: .init(maximumAttempts: 1, initialDelay: .zero), logger: logs.logger())
        var outcomes: [String: Int] = [:]
        for n in 0..<1200 {
            let answer = Self.answer(n)
            let configuration = PlaybackServiceConfiguration(assetID: String(n), authToken: n % 5 == 0 ? Self.authToken : nil)
            let error: PlaybackServiceError
            do {
                if !Self.isPlaylist(n) {
                    let found = try await service.findVideo(configuration)
                    Issue.record("answer \(n) (\(answer.kind)) decoded as \(found.value)")
                } else {
                    let found = try await service.findPlaylist(configuration)
                    if answer.expected == .errorVideo {
                        let failure = found.value.allFailedVideos.first?.error
                        #expect(found.value.count == 1 && failure?.code == PlaybackAPIDecoder.malformedVideoCode, "answer \(n): \(found.value)")
                        #expect(failure?.message?.contains("playlist.videos[0]") == true)
                        outcomes["wrong type", default: 0] += 1
                    } else {
                        Issue.record("answer \(n) (\(answer.kind)) decoded as \(found.value)")
                    }
                }
                continue
            } catch let failure {
                error = failure
            }
            let matches: Bool
            switch (error, answer.expected) {
            case (.jsonDeserialization(let raw, let detail), .jsonDeserialization): matches = raw == answer.body && !detail.isEmpty
            case (.api(_, let status, let advice), .api(let expected)): matches = status == expected && !advice.isEmpty
            case (.connection(let transportError), .tooLarge): matches = transportError.kind == .responseTooLarge
            default: matches = false
            }
            #expect(matches, "answer \(n) (\(answer.kind)): expected \(answer.expected), got \(error)")
            let text = error.description
            #expect(!text.contains(Self.policyKey) && !text.contains(Self.authToken) && !text.contains("SECRET"), "answer \(n) leaked a secret: \(text)")
            outcomes[answer.kind.hasPrefix("wrong type") ? "wrong type" : answer.kind, default: 0] += 1
        }
        #expect(outcomes.values.reduce(0, +) == 1200)
        #expect(outcomes.count == 12, "\(outcomes)")
        let logged = logs.text
        #expect(!logged.isEmpty)
        #expect(!logged.contains(Self.policyKey) && !logged.contains(Self.authToken) && !logged.contains("SECRET"))
        // Server errors were retried once; client errors never.
        let requests = server.requests
        for n in [1, 13, 25] { #expect(requests.filter { $0.path.hasSuffix("/\(n)") }.count == 2, "5xx answer \(n) is retried once") }
        let clientErrors = (0..<1200).filter { n in
            guard n % 12 == 9, case .api(let status) = Self.answer(n).expected else { return false }
            return status < 500 && status != 429
        }
        #expect(clientErrors.count > 20)
        for n in clientErrors {
            #expect(requests.filter { $0.path.hasSuffix("/\(n)") }.count == 1, "4xx answer \(n) is not retried")
        }
        // The credentials did reach the server, in their headers.
        #expect(requests.contains { $0.headers["bcov-policy"] == Self.policyKey })
        #expect(requests.contains { $0.headers["authorization"] == "Bearer \(Self.authToken)" })
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        server.setFirstByteDelay(.seconds(30))
        server.addRoute(prefix: "/playback/v1/") { _ in MediaServerResponse(status: 200, body: Data("{}".utf8)) }
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.policyKey, baseURL: server.url("playback/v1"), timeout: .milliseconds(500))
        let service = PlaybackService(requestFactory: factory, transport: AsyncHTTPClientTransport(), retry: .none)
        let started = ContinuousClock.now
        do {
            _ = try await service.findVideo(PlaybackServiceConfiguration(assetID: "1"))
            Issue.record("expected a timeout")
        } catch {
            guard case .connection(let transportError) = error else { Issue.record("wrong case \(error)"); return }
            #expect(transportError.kind == .timeout)
            #expect(error.description.contains("did not answer in time"))
        }
        // The deadline, not the server's 30 s delay, ended the lookup.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func anUnreachableServiceIsAConnectionErrorWithItsCause() async throws {
        // Refused for sure: a stopped server's port could be taken by a server another test starts meanwhile.
        let refusing = try RefusingPort()
        let base = refusing.url("playback/v1")
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.policyKey, baseURL: base, timeout: .seconds(5))
        let service = PlaybackService(requestFactory: factory, transport: AsyncHTTPClientTransport(), retry: .init(maximumAttempts: 1, initialDelay: .zero))
        do {
            _ = try await service.findVideo(PlaybackServiceConfiguration(assetID: "1"))
            Issue.record("expected a connection error")
        } catch {
            guard case .connection(let transportError) = error else { Issue.record("wrong case \(error)"); return }
            #expect(transportError.kind == .connectionFailed)
            #expect(error.code == 1)
            #expect(transportError.url.hasPrefix("http://127.0.0.1:"))
        }
        // Refused at once, not retried inside the transport until the 5 s deadline: that would end as a timeout
        // (the kind checked above), not a refused connection. (A wall-clock bound here failed under a loaded run.)
        withExtendedLifetime(refusing) {}
    }

    @Test func anOversizedBodyWithoutALengthIsCutAtTheLimit() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        server.addRoute(prefix: "/playback/v1/") { _ in
            var response = MediaServerResponse(status: 200, body: Data(repeating: UInt8(ascii: " "), count: 300_000))
            response.announcesLength = false
            return response
        }
        let transport = AsyncHTTPClientTransport()
        do {
            _ = try await transport.send(HTTPRequest(url: server.url("playback/v1/x"), maxResponseBytes: 1000))
            Issue.record("expected responseTooLarge")
        } catch {
            #expect(error.kind == .responseTooLarge)
        }
    }

    @Test func aBodyThatTricklesInPastTheDeadlineTimesOut() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        // Headers at once, then 64 KB at 8 kbit/s: about a minute of body.
        server.setBandwidth(bitsPerSecond: 8_000)
        server.addRoute(prefix: "/playback/v1/") { _ in
            MediaServerResponse(status: 200, body: Data((#"{"id": "1", "pad": ""# + String(repeating: "x", count: 64_000) + #""}"#).utf8))
        }
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: Self.policyKey, baseURL: server.url("playback/v1"), timeout: .milliseconds(800))
        let service = PlaybackService(requestFactory: factory, transport: AsyncHTTPClientTransport(), retry: .none)
        let started = ContinuousClock.now
        do {
            _ = try await service.findVideo(PlaybackServiceConfiguration(assetID: "1"))
            Issue.record("expected a timeout")
        } catch {
            guard case .connection(let transportError) = error else { Issue.record("wrong case \(error)"); return }
            #expect(transportError.kind == .timeout)
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(server.requests.first?.status == 200, "the head was answered, so it is the body that ran out of time")
    }
}
