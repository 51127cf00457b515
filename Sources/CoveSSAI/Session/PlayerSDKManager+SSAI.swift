import CoveCore

extension PlayerSDKManager {
    /// The seed's `createSSAISessionProvider(withUpstreamSessionProvider:)`.
    public func makeSSAISessionProvider(
        upstream: (any PlaybackSessionProvider)? = nil, transport: any HTTPTransport, options: SSAISessionProviderOptions = SSAISessionProviderOptions()
    ) -> SSAISessionProvider {
        SSAISessionProvider(upstream: upstream ?? makeBasicSessionProvider(), transport: transport, options: options)
    }

    /// The seed's `createSSAIPlaybackController()`: a controller whose provider chain starts with
    /// the SSAI provider (over `upstream`, the basic provider by default).
    public func makeSSAIPlaybackController(
        engine: any MediaEngine, transport: any HTTPTransport, upstream: (any PlaybackSessionProvider)? = nil,
        options: SSAISessionProviderOptions = SSAISessionProviderOptions(), configuration: PlaybackControllerConfiguration = PlaybackControllerConfiguration()
    ) -> PlaybackController {
        makePlaybackController(
            engine: engine, sessionProvider: makeSSAISessionProvider(upstream: upstream, transport: transport, options: options), configuration: configuration)
    }
}
