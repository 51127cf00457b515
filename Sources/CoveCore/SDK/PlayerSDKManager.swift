import Foundation
import Synchronization

/// The SDK's entry point (the seed's `BCOVPlayerSDKManager`): builds controllers and providers, holds
/// the process-wide session ID and the registry of plugin components.
public final class PlayerSDKManager: Sendable {
    public static let shared = PlayerSDKManager()

    /// Cove's version.
    public static let version = CoveVersion.string

    /// Identifies this run of the app in analytics and support requests: unique per process and
    /// stable for its whole life (the seed's `sessionID`).
    public let sessionID: String

    private let registry = Mutex<[ComponentIdentity]>([])

    init(sessionID: String = UUID().uuidString.lowercased()) {
        self.sessionID = sessionID
    }

    /// The SDK version (the seed's `SDKVersion()`).
    public var sdkVersion: String { Self.version }

    /// A controller using `engine`, with the basic provider unless a chain is given.
    public func makePlaybackController(
        engine: any MediaEngine,
        sessionProvider: (any PlaybackSessionProvider)? = nil,
        configuration: PlaybackControllerConfiguration = PlaybackControllerConfiguration()
    ) -> PlaybackController {
        PlaybackController(engine: engine, sessionProvider: sessionProvider ?? makeBasicSessionProvider(), configuration: configuration)
    }

    /// The end of every provider chain (the seed's `createBasicSessionProvider(withOptions:)`).
    public func makeBasicSessionProvider(options: BasicSessionProviderOptions = BasicSessionProviderOptions()) -> BasicSessionProvider {
        BasicSessionProvider(options: options)
    }

    /// Announces a plugin or app component (name and version) to the SDK, for diagnostics and
    /// analytics. Registering the same name again replaces its version.
    public func register(_ component: some Component) {
        let identity = component.componentIdentity
        registry.withLock { list in
            list.removeAll { $0.name == identity.name }
            list.append(identity)
        }
    }

    /// Registered components in registration order; Cove's own core is always first.
    public var components: [ComponentIdentity] {
        [ComponentIdentity(name: "CoveCore", version: Self.version)] + registry.withLock { $0 }
    }
}

/// Something that announces itself to the SDK manager (the seed's `BCOVComponent`).
public protocol Component: Sendable {
    var componentIdentity: ComponentIdentity { get }
}

/// A component's name and version (the seed's `BCOVComponentIdentity`).
public struct ComponentIdentity: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    public var description: String { "\(name) \(version)" }
}

enum CoveVersion {
    static let string = "0.1.0"
}
