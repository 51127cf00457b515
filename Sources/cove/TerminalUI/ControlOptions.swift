import ArgumentParser
import CoveCore
import CovePlayerControls
import CovePlayerUI
import Foundation

/// The control bar's command-line switches, shared by `play` and `demo`.
struct ControlOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: "Show the control bar and take keys (default: when stdin and stdout are a terminal).")
    var controls: Bool?

    @Flag(help: "Screen-reader mode: state changes as plain sentences instead of a redrawn bar.")
    var accessible = false

    @Option(help: "UI language (ar, de, en, es, fr, ja, ko, zh-Hans, zh-Hant); default from LANGUAGE/LC_ALL/LANG.")
    var uiLanguage: String?

    @Option(help: "Seconds the jump-back key goes back.")
    var jumpBack: Double = 10

    /// The seed hides its controls 3 s after the last touch because they cover the video; a terminal bar
    /// covers nothing, so it stays unless asked.
    @Option(help: ArgumentHelp("Hide the control bar this many seconds after the last key while playing (any key brings it back).", valueName: "seconds"))
    var hideControls: Double?

    func validate() throws {
        guard jumpBack.isFinite, jumpBack >= 1, jumpBack <= 3600 else {
            throw ValidationError("--jump-back takes seconds from 1 to 3600, not \(jumpBack)")
        }
        if let hideControls, !(hideControls.isFinite && hideControls > 0 && hideControls <= 3600) {
            throw ValidationError("--hide-controls takes seconds above 0 and up to 3600, not \(hideControls) (leave it out to keep the bar up)")
        }
    }

    /// The interactive runner when controls are on, nil for the plain event log.
    func runner(controller: PlaybackController, captionLanguage: String?) -> TerminalPlayerControls? {
        guard controls ?? (RawTerminal.isInteractive || accessible) else { return nil }
        let options =
            (try? PlayerUIOptions(
                jumpBackInterval: .milliseconds(Int64(jumpBack * 1000)),
                hideControlsInterval: .milliseconds(Int64((hideControls ?? 3) * 1000)),
                keepControlsVisible: hideControls == nil)) ?? .standard
        return TerminalPlayerControls(
            controller: controller, options: options, localizer: localizer, accessible: accessible,
            captionLanguage: captionLanguage)
    }

    var localizer: Localizer {
        Localizer(preferredLanguages: uiLanguage.map { [$0] } ?? UILanguage.preferredLanguages(environment: ProcessInfo.processInfo.environment))
    }

    /// The window's controls: they cover the picture, so they hide 3 s after the last touch as the seed's
    /// do (or after `--hide-controls`).
    var viewOptions: PlayerUIOptions {
        (try? PlayerUIOptions(
            jumpBackInterval: .milliseconds(Int64(jumpBack * 1000)), hideControlsInterval: .milliseconds(Int64((hideControls ?? 3) * 1000)))) ?? .standard
    }
}
