/// One row of controls, left to right in the order given (right to left once fitted for a right-to-left
/// language: see `ControlBar.fit`).
public struct ControlBar: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    public let views: [LayoutView]

    public init(_ views: [LayoutView]) {
        self.views = views
    }

    public init(arrayLiteral views: LayoutView...) {
        self.views = views
    }

    /// The tags in the bar, in order, removed views included.
    public var tags: [ControlTag] { views.map(\.tag) }

    /// The same bar with every view of `tag` removed or restored.
    public func settingRemoved(_ removed: Bool, for tag: ControlTag) -> ControlBar {
        ControlBar(views.map { $0.tag == tag ? $0.removed(removed) : $0 })
    }

    public var description: String { "[" + views.map(\.description).joined(separator: ", ") + "]" }
}
