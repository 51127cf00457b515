import CovePlayerUI

/// What a point on the picture is, as the painter drew it: pointer clicks and the focus ring are
/// resolved against these, so input always matches what the viewer sees.
public enum HitTarget: Sendable, Hashable, CustomStringConvertible {
    /// A control of the bar: its tag and where it is in the fitted bars (bar, view index).
    case control(ControlTag, bar: Int, index: Int)
    /// The progress bar's track (a click seeks to the fraction under the pointer).
    case progress(bar: Int, index: Int)
    /// A row of the open menu.
    case menuItem(Int)
    /// The open menu's panel around its rows (a click there does nothing, not "outside").
    case menuPanel

    public var description: String {
        switch self {
        case .control(let tag, let bar, let index): return "\(tag)@\(bar).\(index)"
        case .progress(let bar, let index): return "progress@\(bar).\(index)"
        case .menuItem(let row): return "menu[\(row)]"
        case .menuPanel: return "menu"
        }
    }

    /// The control's tag, for controls and the progress bar.
    public var tag: ControlTag? {
        switch self {
        case .control(let tag, _, _): return tag
        case .progress: return .progress
        case .menuItem, .menuPanel: return nil
        }
    }
}

/// One hit-testable place: a target and its rectangle in picture pixels.
public struct HitRegion: Sendable, Hashable {
    public let target: HitTarget
    public let rect: ViewRect
    /// Whether it does something now (a disabled control is drawn dimmed and ignores presses).
    public let isEnabled: Bool

    public init(target: HitTarget, rect: ViewRect, isEnabled: Bool = true) {
        self.target = target
        self.rect = rect
        self.isEnabled = isEnabled
    }
}

extension Array where Element == HitRegion {
    /// The topmost region at a point (menus are listed after the bar, so they win).
    public func hit(x: Double, y: Double) -> HitRegion? { last { $0.rect.contains(x: x, y: y) } }

    /// The region of `target`, if drawn.
    public func region(of target: HitTarget) -> HitRegion? { first { $0.target == target } }

    /// The first drawn control with `tag`.
    public func region(of tag: ControlTag) -> HitRegion? { first { $0.target.tag == tag } }
}
