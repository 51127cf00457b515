/// The seed's shutter (`shutter`, `shutterFadeTime`): a black cover over the picture that an app closes
/// before a resume seek (so the first frame never flashes) and opens, faded over `shutterFadeTime`,
/// once the seek is done.
///
/// A value: it takes the app's changes and clock ticks and says what the engine should show. Opacity 1
/// is black, 0 the picture. A fade moves linearly in equal ticks of `tick`; a change during a fade
/// starts from where the fade had got to.
struct ShutterFade: Equatable {
    /// What the loop does with the engine and the fade timer.
    enum Effect: Equatable {
        /// Cover the picture by this much (0…1) on every player that shows it.
        case apply(opacity: Double)
        /// Fire `tick()` every `interval` until told to stop.
        case startTicking(interval: Duration)
        case stopTicking
    }

    /// How often a fade steps: 30 a second, smooth on screen without flooding the engine.
    static let tick = Duration.milliseconds(33)

    private(set) var opacity = 0.0
    private var target = 0.0
    private var from = 0.0
    private var steps = 0
    private var remaining = 0

    var isClosed: Bool { target == 1 }
    var isFading: Bool { remaining > 0 }

    /// The app closed (`closed`) or opened the shutter, fading over `fade` (zero or less: at once).
    mutating func set(closed: Bool, fade: Duration) -> [Effect] {
        let newTarget = closed ? 1.0 : 0.0
        guard newTarget != target || isFading else { return [] }
        target = newTarget
        guard fade > .zero, opacity != target else {
            let wasFading = isFading
            opacity = target
            remaining = 0
            return [.apply(opacity: opacity)] + (wasFading ? [.stopTicking] : [])
        }
        from = opacity
        steps = max(1, Int((fade / Self.tick).rounded(.up)))
        remaining = steps
        return [.startTicking(interval: Self.tick)]
    }

    /// One tick of a fade.
    mutating func tick() -> [Effect] {
        guard remaining > 0 else { return [.stopTicking] }
        remaining -= 1
        opacity = target + (from - target) * Double(remaining) / Double(steps)
        return [.apply(opacity: opacity)] + (remaining == 0 ? [.stopTicking] : [])
    }

    /// Ends a fade at its target at once (there is no session to tick on).
    mutating func finish() -> [Effect] {
        guard isFading else { return [] }
        remaining = 0
        opacity = target
        return [.apply(opacity: opacity), .stopTicking]
    }
}
