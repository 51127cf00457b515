/// Why a PlayerUI value could not be made: the message says which input was wrong and what is allowed.
public struct PlayerUIError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A time interval in the options is negative (or zero where zero means nothing).
        case invalidInterval
        /// A bitrate option has a negative bitrate or an empty title.
        case invalidBitrateOption
        /// An initial menu selection is outside the menu.
        case selectionOutOfRange
        /// An ad position outside 1…count, or a negative time left.
        case invalidAdPosition
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
