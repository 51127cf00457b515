import CoveCore
import CovePlayerUI
import Testing

@Suite("Controls visibility")
struct ControlsVisibilityTests {
    @Test func theControlsHideTheIntervalAfterTheLastKeyWhilePlaying() {
        var visibility = ControlsVisibility(hideDelay: .seconds(3))
        visibility.setPinned(false, at: .seconds(1))
        #expect(visibility.hideDeadline == .seconds(4))
        #expect(visibility.isShown(at: .milliseconds(3_999)))
        #expect(!visibility.isShown(at: .seconds(4)))
        // A key press brings them back and restarts the countdown.
        visibility.noteActivity(at: .seconds(5))
        #expect(visibility.isShown(at: .seconds(5)))
        #expect(visibility.hideDeadline == .seconds(8))
        #expect(!visibility.isShown(at: .seconds(8)))
    }

    @Test func pinnedControlsNeverHideAndUnpinningRestartsTheCountdown() {
        var visibility = ControlsVisibility(hideDelay: .seconds(3))
        #expect(visibility.isPinned, "shown and pinned until playback starts")
        #expect(visibility.hideDeadline == nil)
        #expect(visibility.isShown(at: .seconds(3_600)))
        visibility.setPinned(false, at: .seconds(10))
        visibility.setPinned(true, at: .seconds(12))  // paused
        #expect(visibility.isShown(at: .seconds(60)))
        visibility.setPinned(false, at: .seconds(60))  // resumed: the whole interval again
        #expect(visibility.hideDeadline == .seconds(63))
        // Staying unpinned does not restart it.
        visibility.setPinned(false, at: .seconds(62))
        #expect(visibility.hideDeadline == .seconds(63))
    }

    @Test func keepVisibleAndScreenReaderModeNeverHide() throws {
        let keep = try PlayerUIOptions(keepControlsVisible: true)
        var kept = ControlsVisibility(options: keep)
        kept.setPinned(false, at: .zero)
        #expect(kept.hideDeadline == nil && kept.isShown(at: .seconds(1_000)))
        var spoken = ControlsVisibility(options: .standard, screenReaderMode: true)
        spoken.setPinned(false, at: .zero)
        #expect(spoken.isShown(at: .seconds(1_000)))
        var standard = ControlsVisibility(options: .standard)
        standard.setPinned(false, at: .zero)
        #expect(standard.hideDeadline == .seconds(3), "the seed's default interval")
        #expect(ControlsVisibility(hideDelay: .seconds(-1)).hideDelay == nil, "a negative delay means never")
    }

    @Test func whatPinsTheControls() throws {
        let playing = ControlBarState(isPlaying: true, position: .seconds(5), duration: .seconds(20))
        #expect(!ControlsVisibility.isPinned(playing, status: .playing, overlayOpen: false))
        #expect(ControlsVisibility.isPinned(playing, status: .playing, overlayOpen: true), "a menu or preview is open")
        #expect(ControlsVisibility.isPinned(playing, status: .buffering, overlayOpen: false))
        #expect(ControlsVisibility.isPinned(playing, status: .ended, overlayOpen: false))
        var paused = playing
        paused.isPlaying = false
        #expect(ControlsVisibility.isPinned(paused, status: .playing, overlayOpen: false))
        var ad = playing
        ad.phase = .ad(try AdPosition(index: 1, count: 2, timeLeft: .seconds(4)))
        #expect(ControlsVisibility.isPinned(ad, status: .playing, overlayOpen: false), "the ad countdown stays up")
        var bumper = playing
        bumper.phase = .bumper
        #expect(!ControlsVisibility.isPinned(bumper, status: .playing, overlayOpen: false))
    }
}
