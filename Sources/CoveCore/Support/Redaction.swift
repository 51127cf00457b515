import Foundation

/// Keeps secrets (policy keys, JWTs, signed-URL tokens) out of logs, errors and events.
///
/// Every URL that leaves the SDK as text goes through `redact(urlString:)`; every free-form text that
/// may contain a URL or a bearer token goes through `redactSecrets(in:)`. Registered secrets (a policy
/// key handed to the playback service, say) are replaced wherever they appear.
public enum Redaction {
    public static let placeholder = "<redacted>"

    /// Query keys whose values are credentials. Matching is by substring, case-insensitive, so
    /// `bc_token`, `fastly_token`, `akamai_token`, `bcov_auth`, `policyKey`, `X-Amz-Signature` all match.
    static let sensitiveKeyFragments = ["token", "auth", "key", "sig", "policy", "jwt", "secret", "password", "pk", "session", "credential"]

    private static let registry = SecretRegistry()

    /// Registers a secret value so it is replaced wherever it appears in redacted text.
    /// Values shorter than 6 characters are ignored: replacing them would mangle ordinary text.
    public static func register(secret: String) {
        guard secret.count >= 6 else { return }
        registry.add(secret)
    }

    public static func isSensitive(queryKey: String) -> Bool {
        let lower = queryKey.lowercased()
        return sensitiveKeyFragments.contains { lower.contains($0) }
    }

    /// Replaces credential values inside URLs; plain letters so the result is still a valid URL.
    public static let urlPlaceholder = "REDACTED"

    /// The URL with credential-like query values and any user info replaced by `REDACTED`.
    public static func redact(url: URL) -> String { redact(urlString: url.absoluteString) }

    /// Pure string surgery (no URL parsing that could trap on odd input): user info and sensitive
    /// query values are replaced, everything else is kept byte for byte.
    public static func redact(urlString: String) -> String {
        var rest = Substring(urlString)
        var fragment = ""
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[hash...])
            rest = rest[..<hash]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var base = String(rest)
        if let schemeEnd = base.range(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = base[authorityStart...].firstIndex(of: "/") ?? base.endIndex
            if let at = base[authorityStart..<authorityEnd].lastIndex(of: "@") {
                base.replaceSubrange(authorityStart..<at, with: urlPlaceholder)
            }
        }
        if let query {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
                guard let eq = item.firstIndex(of: "=") else { return String(item) }
                let rawKey = item[..<eq]
                let key = rawKey.removingPercentEncoding ?? String(rawKey)
                return isSensitive(queryKey: key) ? "\(rawKey)=\(urlPlaceholder)" : String(item)
            }
            base += "?" + items.joined(separator: "&")
        }
        return registry.scrub(base + fragment)
    }

    /// Free text with embedded URLs redacted, bearer/policy credentials removed and registered secrets replaced.
    public static func redactSecrets(in text: String) -> String {
        var result = text
        // URLs embedded in text (engine messages often quote them).
        if result.contains("://") {
            result = result.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
                guard word.contains("://") else { return String(word) }
                let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'()<>[],;"))
                guard let range = word.range(of: trimmed), !trimmed.isEmpty else { return String(word) }
                return word.replacingCharacters(in: range, with: redact(urlString: trimmed))
            }.joined(separator: " ")
        }
        result = redactCredentialHeaders(in: result)
        return registry.scrub(result)
    }

    /// Removes values after `Bearer `, `BCOV-Policy ` and `pk=`: the forms a credential takes in headers.
    private static func redactCredentialHeaders(in text: String) -> String {
        var output = text
        for marker in ["Bearer ", "BCOV-Policy ", "BCOV-Policy: ", "pk="] {
            var searchStart = output.startIndex
            while let range = output.range(of: marker, options: .caseInsensitive, range: searchStart..<output.endIndex) {
                let valueStart = range.upperBound
                let valueEnd = output[valueStart...].firstIndex { $0 == " " || $0 == "\"" || $0 == "," || $0 == ";" || $0 == "\n" } ?? output.endIndex
                if valueStart == valueEnd || output[valueStart..<valueEnd] == placeholder {
                    searchStart = valueEnd
                    continue
                }
                output.replaceSubrange(valueStart..<valueEnd, with: placeholder)
                searchStart = output.index(valueStart, offsetBy: placeholder.count, limitedBy: output.endIndex) ?? output.endIndex
            }
        }
        return output
    }
}

/// Secrets registered at run time; read on every redaction, written rarely.
private final class SecretRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var secrets: Set<String> = []

    func add(_ secret: String) {
        lock.lock()
        secrets.insert(secret)
        lock.unlock()
    }

    func scrub(_ text: String) -> String {
        lock.lock()
        let current = secrets
        lock.unlock()
        var result = text
        for secret in current where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Redaction.placeholder)
        }
        return result
    }
}
