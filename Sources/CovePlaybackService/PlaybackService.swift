import CoveCore
import Foundation
import Logging

/// Finds videos and playlists in a Video Cloud account through the Playback API (the seed's
/// `BCOVPlaybackService`).
///
/// ```swift
/// let service = PlaybackService(accountID: "1234", policyKey: "BCpk…", transport: AsyncHTTPClientTransport.shared)
/// let found = try await service.findVideo(PlaybackServiceConfiguration(assetID: "5678"))
/// controller.setVideos([found.value])
/// ```
///
/// Server errors (5xx, 429), timeouts and refused connections are retried up to `retry.maximumAttempts`
/// times, waiting `retry.delay(beforeAttempt:)` before each; other 4xx answers (408 included) never are.
/// The request's timeout bounds the whole lookup, so a wait that would outlast it ends the lookup
/// instead. The policy's `automaticResume` does not apply to lookups, and neither does its `jitter`
/// (delays are taken at the middle of the jitter range). Policy keys and tokens never appear in logs or errors.
public struct PlaybackService: Sendable {
    public let requestFactory: PlaybackServiceRequestFactory
    public let transport: any HTTPTransport
    public let retry: RetryPolicy
    /// Told of every Playback API request and its answer (analytics' `catalog_request` and
    /// `catalog_response`; see `CatalogExchange`).
    public let observer: (@Sendable (CatalogExchange) -> Void)?
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// The default for lookups: two retries, 250 ms and then 500 ms after a failure. (`maximumDelay`
    /// is far beyond any lookup's timeout, so it never shortens a wait.)
    public static let defaultRetry = RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(250), multiplier: 2, maximumDelay: .seconds(3600), jitter: 0)

    public init(
        requestFactory: PlaybackServiceRequestFactory, transport: any HTTPTransport, retry: RetryPolicy = Self.defaultRetry,
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "cove.playback-service"), observer: (@Sendable (CatalogExchange) -> Void)? = nil
    ) {
        self.observer = observer
        self.requestFactory = requestFactory
        self.transport = transport
        self.retry = retry
        self.clock = clock
        self.logger = logger
        if let proxy = requestFactory.route(authenticated: false).overriddenProxy {
            logger.notice(
                "Playback API lookups go to the factory's own base URL, not through the proxy domain",
                metadata: ["proxy": "\(proxy)", "base": "\(Redaction.redact(url: requestFactory.route(authenticated: false).url))"])
        }
    }

    /// A service for `accountID`; with a nil policy key, lookups need an auth token (Edge Playback Authorization).
    public init(
        accountID: String, policyKey: String?, baseURL: URL? = nil, transport: any HTTPTransport, retry: RetryPolicy = Self.defaultRetry,
        logger: Logger = Logger(label: "cove.playback-service"),
        observer: (@Sendable (CatalogExchange) -> Void)? = nil
    ) {
        self.init(
            requestFactory: PlaybackServiceRequestFactory(accountID: accountID, policyKey: policyKey, baseURL: baseURL), transport: transport, retry: retry,
            logger: logger, observer: observer)
    }

    /// A decoded value together with the JSON it came from.
    public struct Response<Value: Sendable>: Sendable {
        public let value: Value
        public let json: JSONValue
        /// The bumper could not be fetched (the main lookup still succeeded).
        public let bumperError: PlaybackServiceError?
    }

    // MARK: Lookups

    /// Finds one video. Its bumper (the configuration's, or the video's `bumper_id` custom field, which
    /// wins) is fetched too and attached as `video.bumper`.
    public func findVideo(
        _ configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery = PlaybackServiceQuery()
    ) async throws(PlaybackServiceError) -> Response<Video> {
        let request = try requestFactory.videoRequest(configuration, query: query)
        let rights = try rightsToken(configuration)
        let (json, response) = try await fetch(request, asset: configuration.assetPathComponent ?? "?", kind: "video")
        let video = try Self.decoded(response) { try PlaybackAPIDecoder.video(from: json) }
        let (bumper, bumperError) = await self.bumper(for: video, configuration: configuration, query: query)
        return Response(
            value: video.update {
                $0.bumper = bumper.map { rights.attached(to: $0) }; $0.playbackRights = rights
            }, json: json, bumperError: bumperError)
    }

    /// Finds a playlist (a page of it with `query.limit`/`query.offset`). Videos the API could not
    /// deliver are kept as error videos. The bumper, when configured, is attached to the first video:
    /// the controller plays it once, before the playlist.
    public func findPlaylist(
        _ configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery = PlaybackServiceQuery()
    ) async throws(PlaybackServiceError) -> Response<Playlist> {
        let request = try requestFactory.playlistRequest(configuration, query: query)
        let rights = try rightsToken(configuration)
        let (json, response) = try await fetch(request, asset: configuration.assetPathComponent ?? "?", kind: "playlist")
        var playlist = try Self.decoded(response) { try PlaybackAPIDecoder.playlist(from: json) }
        if rights != nil {
            playlist = playlist.update { $0.videos = $0.videos.map { video in video.hasError ? video : rights.attached(to: video) } }
        }
        guard let first = playlist.videos.firstIndex(where: { !$0.hasError }) else {
            return Response(value: playlist, json: json, bumperError: nil)
        }
        let (bumper, bumperError) = await self.bumper(for: playlist.videos[first], configuration: configuration, query: query)
        if let bumper {
            playlist = playlist.update { $0.videos[first] = $0.videos[first].update { $0.bumper = rights.attached(to: bumper) } }
        }
        return Response(value: playlist, json: json, bumperError: bumperError)
    }

    /// Completion-handler form of `findVideo`; `completion` runs on a background task.
    public func findVideo(
        _ configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery = PlaybackServiceQuery(),
        completion: @escaping @Sendable (Result<Response<Video>, PlaybackServiceError>) -> Void
    ) {
        Task {
            do throws(PlaybackServiceError) {
                completion(.success(try await findVideo(configuration, query: query)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Completion-handler form of `findPlaylist`; `completion` runs on a background task.
    public func findPlaylist(
        _ configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery = PlaybackServiceQuery(),
        completion: @escaping @Sendable (Result<Response<Playlist>, PlaybackServiceError>) -> Void
    ) {
        Task {
            do throws(PlaybackServiceError) {
                completion(.success(try await findPlaylist(configuration, query: query)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    // MARK: Exchange

    /// The configuration's auth token, checked (the request factory refuses an unusable one first).
    private func rightsToken(_ configuration: PlaybackServiceConfiguration) throws(PlaybackServiceError) -> PlaybackRightsToken? {
        guard let text = configuration.authToken, !text.isEmpty else { return nil }
        return try PlaybackServiceRequestFactory.usableToken(text, account: requestFactory.accountID, at: requestFactory.now())
    }

    /// The bumper is looked up like the content (same token, same ad and delivery configuration), minus paging.
    private func bumper(for video: Video, configuration: PlaybackServiceConfiguration, query: PlaybackServiceQuery) async -> (Video?, PlaybackServiceError?) {
        let fromCustomField = video.customFields[Video.PropertyKey.bumperIDCustomField]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        guard let bumperAsset = fromCustomField ?? configuration.bumperPathComponent else { return (nil, nil) }
        var bumperConfiguration = PlaybackServiceConfiguration(authToken: configuration.authToken)
        // Split back, so the request factory validates it like any asset (a bare `ref:` is refused locally).
        if bumperAsset.hasPrefix("ref:") {
            bumperConfiguration.assetReferenceID = String(bumperAsset.dropFirst(4))
        } else {
            bumperConfiguration.assetID = bumperAsset
        }
        do throws(PlaybackServiceError) {
            var bumperQuery = query
            bumperQuery.limit = nil
            bumperQuery.offset = nil
            bumperQuery.extra.removeValue(forKey: PlaybackServiceQuery.Key.limit)
            bumperQuery.extra.removeValue(forKey: PlaybackServiceQuery.Key.offset)
            let (json, response) = try await fetch(requestFactory.videoRequest(bumperConfiguration, query: bumperQuery), asset: bumperAsset, kind: "bumper")
            return (try Self.decoded(response) { try PlaybackAPIDecoder.video(from: json) }, nil)
        } catch {
            logger.warning("bumper lookup failed; playing without it", metadata: ["bumper": "\(bumperAsset)", "error": "\(error)"])
            return (nil, error)
        }
    }

    /// Failures a second attempt may cure; redirect, size and URL problems would only repeat.
    static let retryableTransportFailures: Set<HTTPTransportError.Kind> = [.timeout, .connectionFailed]

    /// Sends the request (retrying what is worth retrying) and returns the parsed JSON of a 2xx answer.
    /// The request's timeout bounds the whole lookup, retries and backoff included.
    func fetch(_ request: HTTPRequest, asset: String, kind: String) async throws(PlaybackServiceError) -> (JSONValue, HTTPResponse) {
        let remaining = clock.countdown(from: request.timeout)
        var attempt = 0
        while true {
            attempt += 1
            var attemptRequest = request
            attemptRequest.timeout = min(request.timeout, max(remaining(), .milliseconds(1)))
            let outcome: Result<HTTPResponse, HTTPTransportError>
            let url = Redaction.redact(url: request.url)
            observer?(.requested(url: url, kind: kind, attempt: attempt))
            let sentAt = ContinuousClock.now
            do throws(HTTPTransportError) {
                outcome = .success(try await transport.send(attemptRequest))
            } catch {
                outcome = .failure(error)
            }
            let status: Int? = if case .success(let response) = outcome { response.status } else { nil }
            observer?(.answered(url: url, kind: kind, attempt: attempt, status: status, responseTime: ContinuousClock.now - sentAt))
            let failure: PlaybackServiceError
            let retryable: Bool
            switch outcome {
            case .success(let response) where response.isSuccess:
                return (try Self.decoded(response) { try JSONValue.parse(response.body, limits: JSONLimits(maxBytes: request.maxResponseBytes)) }, response)
            case .success(let response):
                logger.notice(
                    "Playback API answered an error",
                    metadata: ["url": "\(Redaction.redact(url: request.url))", "status": "\(response.status)", "attempt": "\(attempt)"])
                failure = apiError(response, asset: asset, kind: kind, usedAuthToken: request.headers["Authorization"] != nil)
                retryable = response.status >= 500 || response.status == 429
            case .failure(let error):
                logger.notice(
                    "Playback API request failed", metadata: ["url": "\(Redaction.redact(url: request.url))", "attempt": "\(attempt)", "error": "\(error)"])
                failure = .connection(error)
                retryable = Self.retryableTransportFailures.contains(error.kind)
            }
            guard retryable, attempt <= retry.maximumAttempts else { throw failure }
            let delay = retry.delay(beforeAttempt: attempt, random: 0.5)
            guard delay < remaining() else {
                logger.notice(
                    "Playback API retry abandoned: the lookup's time is up",
                    metadata: ["url": "\(Redaction.redact(url: request.url))", "attempts": "\(attempt)"])
                throw failure
            }
            try? await clock.sleep(for: delay)
            if Task.isCancelled {
                throw .connection(HTTPTransportError(.cancelled, url: request.url, detail: "the lookup was cancelled while waiting to retry"))
            }
        }
    }

    /// `decode`'s value; what does not decode is a JSON error that keeps the response's raw bytes.
    private static func decoded<Value>(_ response: HTTPResponse, _ decode: () throws -> Value) throws(PlaybackServiceError) -> Value {
        do {
            return try decode()
        } catch {
            throw .jsonDeserialization(rawBody: response.body, detail: String(describing: error))
        }
    }

    private func apiError(_ response: HTTPResponse, asset: String, kind: String, usedAuthToken: Bool) -> PlaybackServiceError {
        let errors = (try? JSONValue.parse(response.body, limits: JSONLimits(maxBytes: 1 << 20))).flatMap(PlaybackAPIDecoder.apiErrors(from:)) ?? []
        return .api(
            errors: errors, httpStatus: response.status,
            advice: Self.advice(for: errors, status: response.status, asset: asset, kind: kind, account: requestFactory.accountID, usedAuthToken: usedAuthToken)
        )
    }

    /// What to do about an API error, in one sentence.
    static func advice(for errors: [PlaybackAPIError], status: Int, asset: String, kind: String, account: String, usedAuthToken: Bool) -> String {
        let codes = Set(errors.flatMap { [$0.code, $0.subcode].compactMap { $0 } })
        if codes.contains("AD_CONFIG") {
            return "This policy key requires an ad_config_id query parameter: pass PlaybackServiceQuery(adConfigID:)."
        }
        if let denial = errors.lazy.compactMap({ PlaybackRightsDenial(code: $0.code, subcode: $0.subcode) }).first {
            return denial.advice
        }
        if codes.contains("VIDEO_NOT_PLAYABLE") || codes.contains("PLAYLIST_NOT_PLAYABLE") {
            return "The \(kind) exists but is not playable now (inactive, scheduled, or not yet processed)."
        }
        switch status {
        case 401:
            return usedAuthToken
                ? "The auth token was not accepted for account \(account)."
                : "The policy key was rejected: check that it belongs to account \(account) and has not been revoked."
        case 403:
            return "The policy key does not allow this request (account \(account)); check its permissions and restrictions."
        case 404:
            return "No \(kind) '\(asset)' in account \(account): check the ID (reference IDs are looked up with ref:)."
        case 405:
            return "The Playback API only accepts GET, HEAD and OPTIONS."
        case 429:
            return "Too many requests: slow down and retry later."
        case 500...599:
            return "The Playback API (or a proxy in front of it) failed; retry later."
        default:
            return "The request was rejected; check the account, the ID and the query parameters."
        }
    }
}

extension Clock where Duration == Swift.Duration {
    /// Time left of `budget` on this clock, counted from now.
    fileprivate func countdown(from budget: Swift.Duration) -> @Sendable () -> Swift.Duration {
        let start = now
        return { budget - start.duration(to: self.now) }
    }
}

extension Optional where Wrapped == PlaybackRightsToken {
    /// `video` carrying this token (unchanged without one).
    fileprivate func attached(to video: Video) -> Video {
        guard let token = self else { return video }
        return video.update { $0.playbackRights = token }
    }
}
