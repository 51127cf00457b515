/// What the next variant switch is put down to: the engine's first variant, a seek by rebuilding (whose fresh
/// pipeline starts on the lowest variant), a change of the app's cap, or else the adaptation itself.
///
/// A cap change and a low-variant seek can both be waiting: the seek explains the next switch first, and a
/// seek made in place drops it (the cap then explains the switch, if it moved that way). Either is used up by
/// the switch that follows.
struct VariantAttribution: Equatable {
    /// The bitrate cap applied to the engine changed since the last switch.
    private(set) var capChanged = false
    /// A seek by rebuilding was sent and no switch followed yet: the fresh pipeline's first picture tells
    /// which variant it started on.
    private(set) var lowVariantSeek = false

    enum Event: Equatable {
        /// The bitrate cap applied to the engine changed.
        case capChanged
        /// A seek was sent; `byRebuilding`: on a fresh pipeline that starts at the lowest variant.
        case seekSent(byRebuilding: Bool)
        /// The engine finished a seek in place.
        case seekCompleted
    }

    /// Takes an event.
    mutating func handle(_ event: Event) {
        switch event {
        case .capChanged: capChanged = true
        case .seekSent(let byRebuilding): lowVariantSeek = byRebuilding
        case .seekCompleted: lowVariantSeek = false
        }
    }

    /// The engine switched from `from` (nil: this is its first variant) to `to`, under the cap `cap` (nil:
    /// uncapped); returns what the switch is put down to. A cap explains a switch only in its direction: below
    /// a cap that now excludes `from`, or up when the cap was lifted.
    mutating func switched(from: Variant?, to: Variant, cap: Int?) -> VariantChange.Reason {
        defer {
            capChanged = false
            lowVariantSeek = false
        }
        guard let from else { return .initial }
        if lowVariantSeek { return .seek }
        if capChanged, cap.map({ to.bandwidth <= $0 && from.bandwidth > $0 }) ?? (to.bandwidth > from.bandwidth) { return .cap }
        return .adaptive
    }
}
