import ArgumentParser
import Foundation

/// What commands that talk to the Playback API take from their options and the environment, checked the
/// same way everywhere: the key and token from `--policy-key`/`--auth-token` or `$COVE_POLICY_KEY`/
/// `$COVE_AUTH_TOKEN` (out of `ps`), one of them required, and an absolute `--base-url`.
struct CatalogAccess {
    let policyKey: String?
    let authToken: String?
    let baseURL: URL?

    init(policyKey: String?, authToken: String?, baseURL: String?) throws {
        let environment = ProcessInfo.processInfo.environment
        self.policyKey = policyKey ?? environment["COVE_POLICY_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        self.authToken = authToken ?? environment["COVE_AUTH_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        guard self.policyKey != nil || self.authToken != nil else {
            throw ValidationError(
                "a policy key is needed: pass --policy-key or set COVE_POLICY_KEY (or give a Playback Rights JWT with --auth-token or COVE_AUTH_TOKEN)")
        }
        self.baseURL = try baseURL.map { text -> URL in
            guard let url = URL(string: text), url.scheme != nil else { throw ValidationError("--base-url must be an absolute URL") }
            return url
        }
    }
}
