import CoveCore
import Foundation
import Logging
import Synchronization

/// A key system the content offers, with what it says about its keys.
public struct OfferedKeySystem: Sendable, Hashable {
    public let keySystem: KeySystem
    /// `pssh` boxes for this system (from the init segment, an HLS key URI or a DASH `cenc:pssh`).
    public let systemHeaders: [ProtectionSystemHeader]

    public init(_ keySystem: KeySystem, systemHeaders: [ProtectionSystemHeader] = []) {
        self.keySystem = keySystem
        self.systemHeaders = systemHeaders
    }
}

/// One play's content protection: picks the registered module for the key systems the content offers,
/// opens one decryption session per key system (shared by the main and audio sessions and every variant),
/// runs the licence exchanges through Cove's loader (kind `.license`, so request filters add the app's
/// headers), and reports key statuses. Exchanges for the same key system run one after another, so two
/// sessions asking for the same keys at once cause one request.
public final class ProtectionBroker: Sendable {
    public let modules: DecryptionModules
    /// The source's `key_systems` entries (licence URLs).
    public let sourceKeySystems: [KeySystem: KeySystemConfiguration]
    let kind: DecryptionSessionKind
    let logger: Logger
    private let state = Mutex<State>(State())

    struct State {
        var sessions: [KeySystem: any DecryptionSession] = [:]
        /// The last exchange per key system: the next one waits for it.
        var pending: [KeySystem: Task<Result<any DecryptionSession, StreamingError>, Never>] = [:]
        var listener: (@Sendable (KeySystem, [KeyID: KeyStatus]) -> Void)?
        /// Stored licences to load instead of asking (a download played offline), per key system.
        var stored: [KeySystem: Data] = [:]
        var closed = false
    }

    public init(
        modules: DecryptionModules, sourceKeySystems: [KeySystem: KeySystemConfiguration] = [:], kind: DecryptionSessionKind = .temporary,
        storedLicenses: [KeySystem: Data] = [:], logger: Logger = Logger(label: "cove.streaming.protection")
    ) {
        self.modules = modules
        self.sourceKeySystems = sourceKeySystems
        self.kind = kind
        self.logger = logger
        state.withLock { $0.stored = storedLicenses }
    }

    /// Hears every key status change (the player turns them into events).
    public func onKeyStatuses(_ listener: @escaping @Sendable (KeySystem, [KeyID: KeyStatus]) -> Void) {
        state.withLock { $0.listener = listener }
    }

    /// Key systems a module is registered for.
    public var servedKeySystems: Set<KeySystem> { modules.keySystems }

    /// The key system a registered module serves among `offered`, in the modules' order of preference.
    public func choose(_ offered: [OfferedKeySystem]) -> (OfferedKeySystem, any ContentDecryptionModule)? {
        guard let (system, module) = modules.choose(among: offered.map(\.keySystem)) else { return nil }
        return offered.first { $0.keySystem == system }.map { ($0, module) }
    }

    /// A session holding usable keys for every key ID `content` names, under the first key system of
    /// `offered` a registered module serves: opened (and its licence fetched) on first use.
    public func session(
        for content: ProtectedInitSegment, offered: [OfferedKeySystem], loader: StreamingLoader, url: URL
    ) async throws(StreamingError) -> any DecryptionSession {
        guard let (choice, module) = choose(offered) else {
            let named = offered.isEmpty ? "no key system" : offered.map(\.keySystem.rawValue).joined(separator: ", ")
            throw StreamingError(
                .drmUnsupported,
                "The content is encrypted (\(content.tracks.values.first?.scheme.rawValue ?? "cenc"), key \(content.keyIDs.map(\.hex).joined(separator: ", "))) for \(named), and no registered decryption module serves it; "
                    + "register one in StreamingConfiguration.decryptionModules (ClearKeyModule for org.w3.clearkey)",
                url: url)
        }
        let system = choice.keySystem
        // Chained under the lock: each exchange for a key system starts after the one before it.
        let task = state.withLock { s -> Task<Result<any DecryptionSession, StreamingError>, Never> in
            let previous = s.pending[system]
            let task = Task { [self, previous, content, choice, module, loader, url] () -> Result<any DecryptionSession, StreamingError> in
                _ = await previous?.value
                do throws(StreamingError) {
                    return .success(try await ensureKeys(content, choice: choice, module: module, loader: loader, url: url))
                } catch {
                    return .failure(error)
                }
            }
            s.pending[system] = task
            return task
        }
        // Not cancelled with the caller: another session may be waiting for the same licence.
        let outcome = await task.value
        return try outcome.get()
    }

    /// The key systems the content offers, most specific first: the segment's HLS key format, the
    /// manifest's declarations, the init segment's `pssh` boxes, the source's `key_systems`; ClearKey when
    /// nothing names one (the app's own keys, as Shaka's `clearKeys`).
    public func offered(for content: ProtectedInitSegment, segmentKey: SegmentKey?, declared: [DeclaredProtection]) -> [OfferedKeySystem] {
        var systems: [KeySystem] = []
        var extraHeaders: [ProtectionSystemHeader] = []
        if let key = segmentKey, let system = KeySystem(hlsKeyFormat: key.keyFormat) {
            systems.append(system)
            if let header = key.keyURL.flatMap(ProtectionSystemHeader.init(dataURL:)) { extraHeaders.append(header) }
        }
        systems += declared.compactMap(\.keySystem)
        extraHeaders += declared.compactMap(\.systemHeader)
        systems += content.systemHeaders.compactMap(\.keySystem)
        systems += sourceKeySystems.keys.sorted()
        if systems.isEmpty { systems = [.clearKey] }
        var seen = Set<KeySystem>()
        return systems.filter { seen.insert($0).inserted }.map { system in
            OfferedKeySystem(system, systemHeaders: (extraHeaders + content.systemHeaders).filter { $0.keySystem == system })
        }
    }

    /// A session for keys Cove already has: an HLS `SAMPLE-AES` key in the identity format (the key bytes
    /// at the key URI serve every key ID of the content, as Shaka plays it).
    public func identitySession(key: [UInt8], for content: ProtectedInitSegment) -> any DecryptionSession {
        ClearKeySession(kind: .temporary, keys: Dictionary(uniqueKeysWithValues: content.keyIDs.map { ($0, key) }), licenseURL: nil)
    }

    private func ensureKeys(
        _ content: ProtectedInitSegment, choice: OfferedKeySystem, module: any ContentDecryptionModule, loader: StreamingLoader, url: URL
    ) async throws(StreamingError) -> any DecryptionSession {
        let system = choice.keySystem
        let configuration = sourceKeySystems[system] ?? KeySystemConfiguration()
        let (existing, stored) = state.withLock { s in (s.sessions[system], s.stored.removeValue(forKey: system)) }
        let session: any DecryptionSession
        if let existing {
            session = existing
        } else {
            do {
                session = try module.makeSession(keySystem: system, kind: kind, configuration: configuration)
            } catch {
                throw StreamingError(.drmUnsupported, "The \(module.name) module could not open a \(system) session: \(error)", url: url)
            }
            state.withLock { $0.sessions[system] = session }
            var stored = stored
            if stored == nil { stored = try await storedLicense(for: system, near: url, loader: loader) }
            if let stored {
                do {
                    report(system, try session.load(persistentLicense: stored))
                } catch {
                    throw StreamingError(
                        error.kind == .licenseExpired ? .offlineLicenseExpired : .decryptionFailed,
                        "The stored \(system) licence could not be loaded: \(error); renew the download's licence", url: url)
                }
            }
        }
        let kids = content.keyIDs
        let headers = choice.systemHeaders.isEmpty ? content.systemHeaders.filter { $0.keySystem == system } : choice.systemHeaders
        // The licence is asked for every key the system's `pssh` boxes name (keys a rotation moves to later
        // come with the first licence), plus those the tracks name.
        let requested = Array(Set(kids + headers.flatMap(\.keyIDs))).sorted()
        let initData =
            headers.isEmpty
            ? DecryptionInitData(format: .keyIDs, keyIDs: requested)
            : DecryptionInitData(format: .cenc, data: Data(headers.flatMap(\.box)), keyIDs: requested)
        // Keys the session already holds (another stream or variant asked first) need no request.
        let held = session.keyStatuses
        if kids.allSatisfy({ held[$0] == .usable }) { return session }
        let message: LicenseMessage?
        do {
            message = try await session.generateRequest(initData)
        } catch {
            throw StreamingError(
                .decryptionFailed, "The \(module.name) module could not make a licence request for \(kids.map(\.hex).joined(separator: ", ")): \(error)",
                url: url)
        }
        if let message {
            guard let licenseURL = message.url ?? configuration.licenseURL else {
                throw StreamingError(
                    .decryptionFailed,
                    "No key for \(kids.map(\.hex).joined(separator: ", ")): the \(system) module needs a licence, and neither it nor the source's key_systems names a licence URL; "
                        + "give the keys to the module (ClearKeyModule(keys:), cove --clearkey) or a licence URL (--license-url, key_systems.license_url)",
                    url: url)
            }
            let loaded: StreamingLoader.Loaded
            do {
                loaded = try await loader.load(.license, url: licenseURL, maxBytes: 1 << 20, post: message.body, headers: message.headers)
            } catch {
                if error.code == .httpStatus, let status = error.httpStatus, status == 401 || status == 403 {
                    throw StreamingError(
                        .keyAuthorizationFailed,
                        "The \(system) licence server \(Redaction.redact(url: licenseURL)) refused the licence for \(kids.map(\.hex).joined(separator: ", ")) (HTTP \(status)): "
                            + "the request needs the app's token or a fresh one; a request filter of kind .license adds it",
                        url: licenseURL, httpStatus: status)
                }
                throw error
            }
            do {
                report(system, try await session.update(loaded.body))
            } catch {
                throw StreamingError(
                    .decryptionFailed, "The \(system) licence from \(Redaction.redact(url: licenseURL)) is unusable: \(error)", url: licenseURL)
            }
        }
        let statuses = session.keyStatuses
        for kid in kids {
            switch statuses[kid] {
            case .usable, .outputDownscaled:
                continue
            case nil:
                throw StreamingError(.decryptionFailed, "The \(system) licence did not carry the key \(kid.hex) the content is encrypted with", url: url)
            case .expired:
                throw StreamingError(.offlineLicenseExpired, "The \(system) key \(kid.hex) has expired; renew the licence", url: url)
            case let status?:
                throw StreamingError(.decryptionFailed, "The \(system) key \(kid.hex) cannot be used (\(status.rawValue))", url: url)
            }
        }
        return session
    }

    /// A downloaded copy keeps its persistent licence beside its media (`/license/<key system>` of its
    /// local scheme, answered from the offline store after its licence check: an expired copy fails here,
    /// typed). Nothing for content fetched over the network, or a local copy without one.
    private func storedLicense(for system: KeySystem, near url: URL, loader: StreamingLoader) async throws(StreamingError) -> Data? {
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme != "http", scheme != "https", let location = URL(string: "/license/\(system.rawValue)", relativeTo: url)?.absoluteURL else { return nil }
        do {
            return try await loader.load(.license, url: location, maxBytes: 1 << 20).body
        } catch {
            if error.code == .offlineLicenseExpired || error.code == .cancelled { throw error }
            return nil
        }
    }

    private func report(_ system: KeySystem, _ statuses: [KeyID: KeyStatus]) {
        let listener = state.withLock { $0.listener }
        logger.debug("key statuses", metadata: ["keySystem": "\(system)", "statuses": "\(statuses.map { "\($0.key.hex)=\($0.value.rawValue)" }.sorted())"])
        listener?(system, statuses)
    }

    /// The licences of the sessions opened so far, for storing with a download.
    public func persistentLicenses() -> [KeySystem: Data] {
        state.withLock { s in s.sessions.compactMapValues { $0.persistentLicense() } }
    }

    /// Closes every session.
    public func close() {
        let sessions = state.withLock { s -> [any DecryptionSession] in
            s.closed = true
            defer { s.sessions.removeAll() }
            return Array(s.sessions.values)
        }
        for session in sessions { session.close() }
    }
}
