import CoveCore
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

/// Playback Rights through the Playback Service, against the rights-checking catalog stand-in: a
/// usable token finds content and its claims travel with every video found; an unusable one never
/// reaches the network; each refusal of the rights service is a typed denial with its advice.
@Suite("Playback Rights lookups", .serialized)
struct PlaybackRightsServiceTests {
    static let signer = PlaybackRightsSigner(secret: SampleCatalog.rightsSecret)

    /// EPA: a token and no policy key.
    static func service(_ server: CatalogServer, now: @escaping @Sendable () -> Date = { Date() }) -> PlaybackService {
        let factory = PlaybackServiceRequestFactory(
            accountID: server.accountID, policyKey: nil, baseURL: server.baseURL, authBaseURL: server.baseURL, timeout: .seconds(10), now: now)
        return PlaybackService(requestFactory: factory, transport: AsyncHTTPClientTransport.shared, retry: .none)
    }

    static func lookupError<T>(_ lookup: () async throws(PlaybackServiceError) -> T) async -> PlaybackServiceError? {
        do {
            _ = try await lookup()
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidTokenFindsContentAndItsClaimsTravelWithEveryVideo() async throws {
        let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
        defer { Task { await server.stop() } }
        let token = try await Self.signer.token(account: server.accountID, userID: "viewer-1", concurrencyLimit: 2, sessionID: "kitchen")
        let service = Self.service(server)
        let video = try await service.findVideo(
            PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: token, bumperID: SampleCatalog.VideoID.bumper)
        ).value
        let rights = try #require(video.playbackRights)
        #expect(rights.compact == token)
        #expect(rights.claims.accountID == server.accountID)
        #expect(rights.claims.userID == "viewer-1")
        #expect(rights.claims.concurrencyLimit == 2)
        #expect(rights.claims.sessionID == "kitchen")
        #expect(video.bumper?.playbackRights == rights, "the bumper was found under the same token")
        #expect(server.media.requests.allSatisfy { $0.headers["authorization"] == "Bearer \(token)" && $0.headers["bcov-policy"] == nil })

        let playlist = try await service.findPlaylist(PlaybackServiceConfiguration(assetReferenceID: SampleCatalog.playlistReferenceID, authToken: token)).value
        #expect(!playlist.allPlayableVideos.isEmpty)
        #expect(playlist.allPlayableVideos.allSatisfy { $0.playbackRights == rights })
        #expect(playlist.allFailedVideos.allSatisfy { $0.playbackRights == nil })
    }

    /// Expired, not yet valid, for another account, malformed or unsigned: a typed error, and not one
    /// request made.
    @Test func anUnusableTokenFailsTypedBeforeAnyRequest() async throws {
        let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
        defer { Task { await server.stop() } }
        let service = Self.service(server)
        let expired = try await Self.signer.token(account: server.accountID, lifetime: -600)
        let notYet = try await Self.signer.sign(.init(accid: server.accountID, nbf: Date().addingTimeInterval(3600)))
        let otherAccount = try await Self.signer.token(account: "6999999999999")
        let cases: [(String, (PlaybackRightsTokenError) -> Bool)] = [
            (expired, { if case .expired = $0 { true } else { false } }),
            (notYet, { if case .notYetValid = $0 { true } else { false } }),
            (otherAccount, { $0 == .wrongAccount(token: "6999999999999", request: server.accountID) }),
            ("eyJ.forged.token", { if case .malformed = $0 { true } else { false } }),
            (PlaybackRightsTokenTestsShape.unsigned, { $0 == .unsigned }),
        ]
        for (token, matches) in cases {
            let error = await Self.lookupError { () async throws(PlaybackServiceError) in
                try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: token))
            }
            guard case .invalidAuthToken(let why) = error else {
                Issue.record("\(String(describing: error)) is not an invalid token")
                continue
            }
            #expect(matches(why), "\(why)")
            #expect(error?.code == 5)
            #expect(!(error?.description.contains(token) ?? true))
        }
        #expect(server.media.requests.isEmpty, "\(server.media.requests.map(\.path))")
    }

    /// The rights service's own refusals (the client cannot see a bad signature or another video's token).
    @Test func theRightsServiceRefusalsAreTypedDenials() async throws {
        let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
        defer { Task { await server.stop() } }
        let service = Self.service(server)
        let forged = try await PlaybackRightsSigner(secret: "a-key-that-the-account-never-registered").token(account: server.accountID)
        let otherVideo = try await Self.signer.token(account: server.accountID, contentID: SampleCatalog.VideoID.subtitles)
        for (token, denial) in [(forged, PlaybackRightsDenial.tokenRejected), (otherVideo, .tokenRejected)] {
            let error = await Self.lookupError { () async throws(PlaybackServiceError) in
                try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: token))
            }
            #expect(error?.rightsDenial == denial, "\(String(describing: error))")
            #expect(error?.description.contains(denial.advice) == true)
            #expect(!(error?.description.contains(token) ?? true))
        }
        // The token a video is restricted to plays that video.
        let own = try await Self.signer.token(account: server.accountID, contentID: SampleCatalog.VideoID.subtitles)
        let found = try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.subtitles, authToken: own))
        #expect(found.value.playbackRights?.claims.contentID == SampleCatalog.VideoID.subtitles)
    }
}

/// A well-formed but unsigned token (`alg: none`).
enum PlaybackRightsTokenTestsShape {
    static let unsigned = "eyJhbGciOiJub25lIn0.eyJhY2NpZCI6IjYwMDAwMDAwMDAwMDEifQ."
}
