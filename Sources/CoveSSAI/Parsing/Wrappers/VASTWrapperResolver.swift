/// Follows VAST wrappers to the inline ads they lead to, through a fetch closure the caller
/// supplies (so tests use an in-memory table and the player uses its `HTTPTransport`).
///
/// Safeguards: at most `maxDepth` wrappers per chain, a chain that revisits an ad tag URI is a
/// cycle, and every response goes through `VAST.parse` with `limits`. Fetches happen one at a
/// time, in document order, so results are deterministic.
public struct VASTWrapperResolver: Sendable {
    /// Fetches the bytes of an ad tag URI. The URI is passed as written (macros not replaced):
    /// substituting `[CACHEBUSTING]` and friends is the caller's job.
    public typealias Fetch = @Sendable (String) async throws -> [UInt8]

    /// Most wrappers followed in one chain. Default 5, the usual player limit.
    public let maxDepth: Int
    public let limits: VMAPParseLimits
    private let fetch: Fetch

    public init(maxDepth: Int = 5, limits: VMAPParseLimits = .default, fetch: @escaping Fetch) {
        self.maxDepth = maxDepth
        self.limits = limits
        self.fetch = fetch
    }

    /// An inline ad comes back as is; a wrapper comes back as the inline ad(s) it leads to, with
    /// every wrapper's impressions, tracking, click tracking, error URLs and icons merged in (one icon
    /// per program, the one closest to the inline ad, carrying the others' view and click tracking).
    public func resolve(_ ad: VASTAd) async throws(VASTWrapperError) -> [VASTAd] {
        guard case .wrapper(let wrapper) = ad.content else { return [ad] }
        return try await follow(outer: ad, chain: [wrapper], seen: [])
    }

    /// Resolves every ad of a document in order; ads that cannot be resolved are listed in `failures`.
    public func resolve(_ document: VASTDocument) async -> VASTResolution {
        var ads: [VASTAd] = []
        var failures: [VASTWrapperError] = []
        for ad in document.ads {
            do {
                ads += try await resolve(ad)
            } catch {
                failures.append(error)
            }
        }
        return VASTResolution(ads: ads, failures: failures)
    }

    /// `chain` holds the wrappers followed so far, outermost first; `seen` the ad tags fetched.
    private func follow(outer: VASTAd, chain: [VASTWrapper], seen: Set<String>) async throws(VASTWrapperError) -> [VASTAd] {
        let current = chain[chain.count - 1]
        let depth = chain.count
        let errorURLs = chain.flatMap(\.errorURLs)
        if seen.contains(current.adTagURI) {
            throw VASTWrapperError(.cycle, depth: depth, errorURLs: errorURLs)
        }
        if depth > maxDepth {
            throw VASTWrapperError(.depthExceeded, depth: depth, errorURLs: errorURLs)
        }
        let response = try await load(current.adTagURI, depth: depth, errorURLs: errorURLs)
        let candidates = Self.candidates(in: response, for: current)
        guard !candidates.isEmpty else {
            throw VASTWrapperError(.noAd, depth: depth, errorURLs: errorURLs + response.errorURLs, fallbackOnNoAd: current.fallbackOnNoAd)
        }
        var resolved: [VASTAd] = []
        var firstFailure: VASTWrapperError?
        for candidate in candidates {
            switch candidate.content {
            case .inLine(let inLine):
                let sequence = candidates.count == 1 ? outer.sequence ?? candidate.sequence : candidate.sequence
                resolved.append(WrapperMerge.merge(inLine, of: candidate, sequence: sequence, wrappers: chain))
            case .wrapper(let next):
                do {
                    resolved += try await follow(outer: outer, chain: chain + [next], seen: seen.union([current.adTagURI]))
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
        }
        if resolved.isEmpty, let firstFailure { throw firstFailure }
        return resolved
    }

    private func load(_ uri: String, depth: Int, errorURLs: [String]) async throws(VASTWrapperError) -> VASTDocument {
        let bytes: [UInt8]
        do {
            bytes = try await fetch(uri)
        } catch is CancellationError {
            throw VASTWrapperError(.cancelled, depth: depth)
        } catch {
            if Task.isCancelled { throw VASTWrapperError(.cancelled, depth: depth) }
            throw VASTWrapperError(.fetchFailed, depth: depth, errorURLs: errorURLs, fetchErrorType: String(describing: type(of: error)))
        }
        do {
            return try VAST.parse(bytes, limits: limits)
        } catch {
            throw VASTWrapperError(.parseFailed, depth: depth, errorURLs: errorURLs, parseError: error)
        }
    }

    /// The ads a wrapper lets through: with `allowMultipleAds` false only the first stand-alone
    /// ad (the first ad when all are in a pod, as VAST 3 servers often send), and with
    /// `followAdditionalWrappers` false no further wrappers.
    private static func candidates(in response: VASTDocument, for wrapper: VASTWrapper) -> [VASTAd] {
        var ads = response.ads
        if !wrapper.followAdditionalWrappers {
            ads = ads.filter { $0.inLine != nil }
        }
        if !wrapper.allowMultipleAds, let first = ads.first(where: { $0.sequence == nil }) ?? ads.first {
            ads = [first]
        }
        return ads
    }
}

/// The outcome of resolving a whole VAST document.
public struct VASTResolution: Sendable, Hashable {
    /// Inline ads only, in document order.
    public let ads: [VASTAd]
    public let failures: [VASTWrapperError]

    public init(ads: [VASTAd], failures: [VASTWrapperError]) {
        self.ads = ads
        self.failures = failures
    }
}
