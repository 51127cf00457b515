import Foundation

/// One Data Collection API event: its name (`video_view`, `video_engagement`, …) and its parameters as
/// the collector reads them (`account`, `session`, `video`, `range`, …), in the order they were set.
/// Immutable; stored as it is in the queue until the collector has taken it.
public struct AnalyticsEvent: Sendable, Hashable, Codable {
    public let name: String
    public let parameters: [Parameter]
    /// When it happened (wall clock), kept so a late send still says when.
    public let time: Date

    public struct Parameter: Sendable, Hashable, Codable {
        public let name: String
        public let value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(name: String, parameters: [Parameter], time: Date) {
        self.name = name
        self.parameters = parameters
        self.time = time
    }

    /// The value of parameter `name`, if set.
    public subscript(name: String) -> String? { parameters.last { $0.name == name }?.value }
}
