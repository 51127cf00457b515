/// Why a wrapper chain did not end in a playable inline ad.
///
/// `vastErrorCode` is the VAST error code to substitute for `[ERRORCODE]` when the beacon layer
/// calls `errorURLs` (the `<Error>` URLs of every wrapper passed, outermost first). Neither the
/// URLs nor the fetch error's text appear in `description`: ad URLs carry tokens.
public struct VASTWrapperError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// More wrappers than `VASTWrapperResolver.maxDepth` (VAST error 302).
        case depthExceeded
        /// A `VASTAdTagURI` repeats one earlier in the same chain (VAST error 302).
        case cycle
        /// The fetch closure threw (VAST error 301).
        case fetchFailed
        /// The fetched response is not a readable VAST document (VAST error 100).
        case parseFailed
        /// The response held no usable ad (VAST error 303); see `fallbackOnNoAd`.
        case noAd
        /// The task was cancelled while fetching; no error beacon is due.
        case cancelled
    }

    public let kind: Kind
    /// How many wrappers had been followed when it happened (1 = the first fetch).
    public let depth: Int
    /// The VAST error code for `[ERRORCODE]`, nil for `cancelled`.
    public let vastErrorCode: Int?
    /// `<Error>` URLs of the wrappers passed (and of the failing response, when it had some).
    public let errorURLs: [String]
    /// The last wrapper's `fallbackOnNoAd`, so the caller can decide to try the next ad in its pod.
    public let fallbackOnNoAd: Bool?
    /// For `parseFailed`, why the response was refused.
    public let parseError: VMAPParseError?
    /// For `fetchFailed`, the type of the error the fetch threw (not its text, which may hold the URL).
    public let fetchErrorType: String?

    public init(
        _ kind: Kind, depth: Int, errorURLs: [String] = [], fallbackOnNoAd: Bool? = nil,
        parseError: VMAPParseError? = nil, fetchErrorType: String? = nil
    ) {
        self.kind = kind
        self.depth = depth
        self.errorURLs = errorURLs
        self.fallbackOnNoAd = fallbackOnNoAd
        self.parseError = parseError
        self.fetchErrorType = fetchErrorType
        self.vastErrorCode =
            switch kind {
            case .depthExceeded, .cycle: 302
            case .fetchFailed: 301
            case .parseFailed: 100
            case .noAd: 303
            case .cancelled: nil
            }
    }

    public var description: String {
        let (detail, advice): (String, String) =
            switch kind {
            case .depthExceeded:
                (
                    "The wrapper chain is longer than the limit (stopped at wrapper \(depth)).",
                    "Ask the ad operations team to shorten the redirect chain, or raise VASTWrapperResolver.maxDepth."
                )
            case .cycle:
                (
                    "Wrapper \(depth) points back at an ad tag already followed in this chain.",
                    "The ad server's wrappers form a loop; report it to the ad operations team."
                )
            case .fetchFailed:
                (
                    "Fetching the ad tag of wrapper \(depth) failed (\(fetchErrorType ?? "unknown error")).",
                    "Check the network and the ad server; the ad is skipped."
                )
            case .parseFailed:
                (
                    "The response to wrapper \(depth) is not readable VAST (\(parseError?.kind.rawValue ?? "unknown")).",
                    "Check what the ad tag returns; the ad is skipped."
                )
            case .noAd:
                (
                    "The response to wrapper \(depth) holds no usable ad.",
                    fallbackOnNoAd == true ? "The wrapper allows falling back to the next ad in the pod." : "The ad is skipped."
                )
            case .cancelled:
                ("Resolving was cancelled at wrapper \(depth).", "Nothing to do; no error beacon is due.")
            }
        return "VAST wrapper not resolved (\(kind.rawValue)): \(detail) \(advice)"
    }
}
