import CovePlayerUI

/// Where the keyboard focus goes among the controls drawn (a set-top box's remote has arrows and Enter,
/// no pointer): left and right along a bar in screen order, up and down to the nearest control of the
/// bar above or below, Tab through all of them. Pure: the regions in, the next target out.
enum FocusRing {
    enum Direction: Sendable { case left, right, up, down, next, previous }

    /// The focusable controls, one row per bar, each row in screen order (left to right whatever the
    /// language: arrows move on screen).
    static func rows(_ regions: [HitRegion]) -> [[HitRegion]] {
        var rows: [Int: [HitRegion]] = [:]
        for region in regions where isFocusable(region) {
            switch region.target {
            case .control(_, let bar, _), .progress(let bar, _): rows[bar, default: []].append(region)
            case .menuItem, .menuPanel: break
            }
        }
        return rows.keys.sorted().map { rows[$0]!.sorted { $0.rect.x < $1.rect.x } }
    }

    /// Controls a viewer can press: enabled buttons, the progress bar, the app's own controls.
    static func isFocusable(_ region: HitRegion) -> Bool {
        guard region.isEnabled else { return false }
        switch region.target {
        case .progress: return true
        case .control(let tag, _, _):
            if case .custom = tag { return true }
            return tag.isButton && tag != .adPodCountdown
        case .menuItem, .menuPanel: return false
        }
    }

    /// The first control to focus: play/pause when drawn, else the first of the bottom bar.
    static func initial(_ regions: [HitRegion]) -> HitTarget? {
        let all = rows(regions)
        if let playback = all.joined().first(where: { $0.target.tag == .playback }) { return playback.target }
        return all.last?.first?.target
    }

    /// The target after moving `direction` from `current` (nil or gone: the initial one).
    static func move(from current: HitTarget?, _ direction: Direction, in regions: [HitRegion]) -> HitTarget? {
        let all = rows(regions)
        guard let current, let rowIndex = all.firstIndex(where: { $0.contains { $0.target == current } }),
            let index = all[rowIndex].firstIndex(where: { $0.target == current })
        else { return initial(regions) }
        let row = all[rowIndex]
        switch direction {
        case .left: return row[max(0, index - 1)].target
        case .right: return row[min(row.count - 1, index + 1)].target
        case .up, .down:
            let otherIndex = direction == .up ? rowIndex - 1 : rowIndex + 1
            guard all.indices.contains(otherIndex) else { return current }
            let x = row[index].rect.midX
            return all[otherIndex].min { abs($0.rect.midX - x) < abs($1.rect.midX - x) }?.target ?? current
        case .next, .previous:
            let flat = all.flatMap { $0 }
            guard let position = flat.firstIndex(where: { $0.target == current }) else { return initial(regions) }
            let step = direction == .next ? 1 : flat.count - 1
            return flat[(position + step) % flat.count].target
        }
    }
}
