import CoveCore
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import NIOSSL
import Testing

/// Secrets stay with their origin on the wire: real servers, real redirects, real TLS.
@Suite("Playback Service redirects and TLS")
struct RedirectSecurityTests {
    static let policyKey = "BCpkADawqM-redirect-test-key-0004"
    static let video = #"{"id": "42", "name": "moved", "sources": [{"src": "https://e.com/a.m3u8"}]}"#

    /// A server whose Playback API route answers `redirect(request)` (a Location) or the video.
    static func server(tls: TLSIdentity? = nil, redirect: @escaping @Sendable (MediaServerRequest) -> String?) async throws -> MediaServer {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory, tls: tls)
        server.addRoute(prefix: "/playback/v1/") { request in
            if let location = redirect(request) {
                return .redirect(to: location)
            }
            return MediaServerResponse(status: 200, body: Data(video.utf8))
        }
        return server
    }

    static func service(base: URL, transport: AsyncHTTPClientTransport = AsyncHTTPClientTransport(), authToken: Bool = false) -> PlaybackService {
        let factory = PlaybackServiceRequestFactory(accountID: "1", policyKey: policyKey, baseURL: base, authBaseURL: base, timeout: .seconds(10))
        return PlaybackService(requestFactory: factory, transport: transport, retry: .none)
    }

    @Test func credentialsAreDroppedWhenARedirectChangesOrigin() async throws {
        let target = try await Self.server { _ in nil }
        defer { Task { await target.stop() } }
        let origin = try await Self.server { request in
            request.path.contains("/moved/") ? nil : target.url("playback/v1/accounts/1/videos/42").absoluteString
        }
        defer { Task { await origin.stop() } }
        let service = Self.service(base: origin.url("playback/v1"))
        let found = try await service.findVideo(PlaybackServiceConfiguration(assetID: "42"))
        #expect(found.value.name == "moved")
        let first = try #require(origin.requests.first)
        #expect(first.headers["bcov-policy"] == Self.policyKey)
        let followed = try #require(target.requests.first)
        #expect(followed.headers["bcov-policy"] == nil, "the policy key must not follow a redirect to another origin")
        #expect(followed.headers["accept"] == "application/json", "ordinary headers do follow")

        // The same for a bearer token.
        let withToken = try await service.findVideo(
            PlaybackServiceConfiguration(assetID: "42", authToken: "eyJhbGciOiJIUzI1NiJ9.eyJhY2NpZCI6IjEifQ.redirect-token-sig"))
        #expect(withToken.value.name == "moved")
        #expect(origin.requests.last?.headers["authorization"] == "Bearer eyJhbGciOiJIUzI1NiJ9.eyJhY2NpZCI6IjEifQ.redirect-token-sig")
        #expect(target.requests.last?.headers["authorization"] == nil)
    }

    @Test func credentialsFollowASameOriginRedirect() async throws {
        let server = try await Self.server { request in
            request.path.hasSuffix("/videos/old") ? "/playback/v1/accounts/1/videos/42" : nil
        }
        defer { Task { await server.stop() } }
        let found = try await Self.service(base: server.url("playback/v1")).findVideo(PlaybackServiceConfiguration(assetID: "old"))
        #expect(found.value.id == "42")
        #expect(server.requests.map(\.path) == ["/playback/v1/accounts/1/videos/old", "/playback/v1/accounts/1/videos/42"])
        #expect(server.requests.allSatisfy { $0.headers["bcov-policy"] == Self.policyKey })
    }

    @Test func anHTTPSToHTTPRedirectIsRefusedBeforeAnythingIsSent() async throws {
        let identity = try await TLSIdentity.selfSigned()
        let plain = try await Self.server { _ in nil }
        defer { Task { await plain.stop() } }
        let secure = try await Self.server(tls: identity) { _ in plain.url("playback/v1/accounts/1/videos/42").absoluteString }
        defer { Task { await secure.stop() } }
        #expect(secure.baseURL.scheme == "https")
        let transport = AsyncHTTPClientTransport(trustRoots: .certificates(try NIOSSLCertificate.fromPEMBytes(Array(identity.certificateChainPEM.utf8))))
        do {
            _ = try await Self.service(base: secure.url("playback/v1"), transport: transport).findVideo(PlaybackServiceConfiguration(assetID: "42"))
            Issue.record("expected the downgrade to be refused")
        } catch {
            guard case .connection(let transportError) = error else { Issue.record("wrong case \(error)"); return }
            #expect(transportError.kind == .insecureRedirect)
            #expect(error.description.contains("HTTPS to plain HTTP"))
        }
        #expect(secure.requests.count == 1, "insecure redirects are not retried")
        #expect(plain.requests.isEmpty, "nothing may reach the plain-HTTP server")
    }

    @Test func httpsWorksWithATrustedRootAndFailsVerificationWithoutIt() async throws {
        let identity = try await TLSIdentity.selfSigned()
        let secure = try await Self.server(tls: identity) { _ in nil }
        defer { Task { await secure.stop() } }
        let trusting = AsyncHTTPClientTransport(trustRoots: .certificates(try NIOSSLCertificate.fromPEMBytes(Array(identity.certificateChainPEM.utf8))))
        let found = try await Self.service(base: secure.url("playback/v1"), transport: trusting).findVideo(PlaybackServiceConfiguration(assetID: "42"))
        #expect(found.value.id == "42")
        #expect(secure.requests.first?.headers["bcov-policy"] == Self.policyKey)

        // System roots do not know the self-signed certificate: the handshake must fail, not be skipped.
        do {
            _ = try await Self.service(base: secure.url("playback/v1")).findVideo(PlaybackServiceConfiguration(assetID: "42"))
            Issue.record("an untrusted certificate was accepted")
        } catch {
            guard case .connection(let transportError) = error else { Issue.record("wrong case \(error)"); return }
            #expect(transportError.kind == .tlsFailure)
            #expect(transportError.detail.contains("certificate"))
        }
        #expect(secure.requests.count == 1, "the untrusted connection never got as far as a request")
    }

    @Test func redirectLoopsEndWithATypedError() async throws {
        let server = try await Self.server { request in request.path + "x" }
        defer { Task { await server.stop() } }
        do {
            _ = try await Self.service(base: server.url("playback/v1")).findVideo(PlaybackServiceConfiguration(assetID: "42"))
            Issue.record("expected too many redirects")
        } catch {
            guard case .connection(let transportError) = error else { Issue.record("wrong case \(error)"); return }
            #expect(transportError.kind == .tooManyRedirects)
        }
        #expect(server.requests.count == 6)
    }

    @Test func redirectRulesForEveryTransport() throws {
        // The pure policy every transport applies, including ones apps write themselves.
        let policy = RedirectPolicy()
        let request = HTTPRequest(
            url: URL(string: "https://edge.api.brightcove.com/playback/v1/accounts/1/videos/2")!,
            headers: [
                "BCOV-Policy": "k", "Authorization": "Bearer t", "Cookie": "c", "Accept": "application/json;pk=k2", "X-Device": "d",
            ])
        let sameOrigin = try #require(try policy.followUp(after: request, status: 301, location: "/playback/v1/x", hop: 0))
        #expect(sameOrigin.headers == request.headers)
        #expect(sameOrigin.url.absoluteString == "https://edge.api.brightcove.com/playback/v1/x")
        let otherPort = try #require(try policy.followUp(after: request, status: 307, location: "https://edge.api.brightcove.com:8443/x", hop: 0))
        #expect(otherPort.headers.map(\.name) == ["X-Device"])
        #expect(throws: HTTPTransportError.self) { try policy.followUp(after: request, status: 302, location: "http://edge.api.brightcove.com/x", hop: 0) }
        #expect(throws: HTTPTransportError.self) { try policy.followUp(after: request, status: 302, location: "ftp://x/y", hop: 0) }
        #expect(throws: HTTPTransportError.self) { try policy.followUp(after: request, status: 302, location: "/x", hop: 5) }
        #expect(try policy.followUp(after: request, status: 200, location: "/x", hop: 0) == nil)
        #expect(try policy.followUp(after: request, status: 304, location: "/x", hop: 0) == nil)
        #expect(
            try RedirectPolicy(allowsDowngradeToHTTP: true).followUp(after: request, status: 302, location: "http://edge.api.brightcove.com/x", hop: 0) != nil)
    }
}
