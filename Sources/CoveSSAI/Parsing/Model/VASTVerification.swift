/// One `<Verification>` from `<AdVerifications>`: what an Open Measurement session needs to load
/// the vendor's measurement script. Kept as data; loading scripts is a later layer's job.
public struct VASTVerification: Sendable, Hashable, Encodable {
    public let vendor: String?
    public let javaScriptResources: [VASTVerificationResource]
    public let executableResources: [VASTVerificationResource]
    /// `<VerificationParameters>`, CDATA unwrapped, passed to the script as is.
    public let verificationParameters: String?
    /// Usually `verificationNotExecuted`.
    public let trackingEvents: [VASTTrackingEvent]

    public init(
        vendor: String? = nil, javaScriptResources: [VASTVerificationResource] = [],
        executableResources: [VASTVerificationResource] = [], verificationParameters: String? = nil,
        trackingEvents: [VASTTrackingEvent] = []
    ) {
        self.vendor = vendor
        self.javaScriptResources = javaScriptResources
        self.executableResources = executableResources
        self.verificationParameters = verificationParameters
        self.trackingEvents = trackingEvents
    }
}

/// A `<JavaScriptResource>` or `<ExecutableResource>`.
public struct VASTVerificationResource: Sendable, Hashable, Encodable {
    /// For example `omid`.
    public let apiFramework: String?
    /// `browserOptional` (JavaScript resources only).
    public let browserOptional: Bool?
    /// `type` (executable resources only).
    public let type: String?
    public let url: String

    public init(apiFramework: String? = nil, browserOptional: Bool? = nil, type: String? = nil, url: String) {
        self.apiFramework = apiFramework
        self.browserOptional = browserOptional
        self.type = type
        self.url = url
    }
}
