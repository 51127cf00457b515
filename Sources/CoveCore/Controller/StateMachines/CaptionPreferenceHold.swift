/// Holds a session to the viewer's remembered caption choice until the app chooses the session's text itself:
/// the stream's own selections (its DEFAULT renditions, selected in stages) do not override the viewer's.
///
/// The engine confirms a selection asynchronously, and until it does the session still shows the stream's
/// own: each target is asked for once, until something makes it worth asking again (the engine selected
/// tracks, the media loaded, playback started).
struct CaptionPreferenceHold: Equatable {
    /// The app chose this session's text itself: the remembered choice no longer applies to it.
    private(set) var appChose = false
    /// The selection last asked for on the remembered choice's behalf (nil inside: no text); nil: none since
    /// it was last worth asking again.
    private(set) var requested: String?? = nil

    enum Event: Equatable {
        /// The app chose the session's text (and the choice is remembered for later sessions).
        case appChose
        /// Worth asking again: the engine selected tracks, the media loaded or playback started.
        case askAgain
        /// The remembered choice is `target` (nil: no text) and the session shows `selected`.
        case preferred(target: String?, selected: String?)
    }

    enum Effect: Equatable {
        /// Ask the engine for `target`'s text (nil: none).
        case select(String?)
    }

    /// Takes an event; returns what the loop must do, if anything.
    mutating func handle(_ event: Event) -> Effect? {
        switch event {
        case .appChose:
            appChose = true
            return nil
        case .askAgain:
            requested = nil
            return nil
        case .preferred(let target, let selected):
            guard !appChose, selected != target, requested != .some(target) else { return nil }
            requested = .some(target)
            return .select(target)
        }
    }
}
