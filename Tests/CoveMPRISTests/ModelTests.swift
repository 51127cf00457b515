import CoveCore
import Foundation
import Testing

@testable import CoveMPRIS

/// The model's rules (status, Seeked, what each request does), driven with observations and requests
/// directly: no bus, no controller.
@Suite("MPRIS model")
struct ModelTests {
    private let video = Video(url: URL(string: "https://example.com/a.m3u8")!, properties: ["id": "v1", "name": "One"])
    private let all: Set<PlayerCommand> = [.play, .pause, .seek, .advanceToNext, .changeRate, .setVolume]

    /// A model playing session 1 (40 s long) from `at`.
    private func playing(at now: Duration = .zero, commands: Set<PlayerCommand>? = nil) -> MediaPlayer2Model {
        var model = MediaPlayer2Model(commands: commands ?? all)
        _ = model.observe(.sessionStarted(id: 1, video: video, sourceURL: nil), at: now)
        _ = model.observe(.duration(session: 1, .seconds(40)), at: now)
        _ = model.observe(.lifecycle(session: 1, .play), at: now)
        return model
    }

    @Test func statusFollowsTheLifecycleOfTheCurrentSessionOnly() {
        var model = playing()
        #expect(model.snapshot.status == .playing)
        _ = model.observe(.lifecycle(session: 2, .pause), at: .seconds(1))
        #expect(model.snapshot.status == .playing, "another session's pause changes nothing")
        _ = model.observe(.lifecycle(session: 1, .pause), at: .seconds(1))
        #expect(model.snapshot.status == .paused)
        _ = model.observe(.lifecycle(session: 1, .end), at: .seconds(2))
        #expect(model.snapshot.status == .stopped)
        _ = model.observe(.ended, at: .seconds(3))
        #expect(model.snapshot.metadata == nil && model.snapshot.status == .stopped && !model.snapshot.canPlay)
    }

    @Test func commandsMapToTheCanProperties() {
        var model = MediaPlayer2Model(commands: [.play, .pause])
        #expect(model.snapshot.canPlay && model.snapshot.canPause)
        #expect(!model.snapshot.canSeek && !model.snapshot.canGoNext && !model.snapshot.canGoPrevious)
        _ = model.observe(.commands([.seek, .advanceToNext]), at: .zero)
        #expect(model.snapshot.canSeek && model.snapshot.canGoNext && model.snapshot.canGoPrevious)
        #expect(!model.snapshot.canPlay)
    }

    @Test func playPauseTogglesOnTheStatus() {
        var model = playing()
        #expect(model.plan(.playPause, at: .seconds(1)) == [.pause])
        _ = model.observe(.lifecycle(session: 1, .pause), at: .seconds(1))
        #expect(model.plan(.playPause, at: .seconds(2)) == [.play])
    }

    @Test func stopPausesRewindsAndReadsStoppedUntilPlay() {
        var model = playing()
        #expect(model.plan(.stop, at: .seconds(5)) == [.pause, .seek(.zero)])
        #expect(model.snapshot.status == .stopped)
        _ = model.observe(.lifecycle(session: 1, .pause), at: .seconds(5))
        #expect(model.snapshot.status == .stopped, "the pause Stop caused keeps Stopped")
        #expect(model.plan(.playPause, at: .seconds(6)) == [.play])
        _ = model.observe(.lifecycle(session: 1, .play), at: .seconds(6))
        _ = model.observe(.lifecycle(session: 1, .pause), at: .seconds(7))
        #expect(model.snapshot.status == .paused)
    }

    @Test func seekIsRelativeClampedAtZeroAndPastTheEndIsNext() {
        var model = playing()
        #expect(model.plan(.seek(offset: .seconds(10), from: .seconds(5)), at: .zero) == [.seek(.seconds(15))])
        #expect(model.plan(.seek(offset: .seconds(-10), from: .seconds(5)), at: .zero) == [.seek(.zero)])
        #expect(model.plan(.seek(offset: .seconds(60), from: .seconds(5)), at: .zero) == [.advanceToNext])
        var last = playing(commands: [.play, .pause, .seek])
        guard case .ignore = last.plan(.seek(offset: .seconds(60), from: .seconds(5)), at: .zero).first else {
            Issue.record("past the end of the last video is ignored")
            return
        }
        var unseekable = playing(commands: [.play, .pause])
        guard case .ignore = unseekable.plan(.seek(offset: .seconds(1), from: .zero), at: .zero).first else {
            Issue.record("no seek without the seek command")
            return
        }
    }

    @Test func setPositionNeedsTheCurrentTrackAndAPositionInside() throws {
        var model = playing()
        let track = try #require(model.snapshot.metadata?.trackID)
        #expect(model.plan(.setPosition(trackID: track, position: .seconds(30)), at: .zero) == [.seek(.seconds(30))])
        for request in [
            MediaPlayer2Request.setPosition(trackID: "/org/cove/Video/v1/0", position: .seconds(30)),
            .setPosition(trackID: track, position: .seconds(41)),
            .setPosition(trackID: track, position: .seconds(-1)),
        ] {
            guard case .ignore = model.plan(request, at: .zero).first else {
                Issue.record("\(request) is ignored")
                continue
            }
        }
    }

    @Test func nextAndPreviousFollowTheCommands() {
        var model = playing()
        #expect(model.plan(.next, at: .zero) == [.advanceToNext])
        #expect(model.plan(.previous, at: .zero) == [.seek(.zero)], "Previous restarts: the queue has no previous video")
        var single = playing(commands: [.play, .pause])
        #expect(single.plan(.next, at: .zero).allSatisfy { if case .ignore = $0 { true } else { false } })
    }

    @Test func volumeRateOpenRaiseAndQuit() {
        var model = playing()
        #expect(model.plan(.setVolume(0.5), at: .zero) == [.setVolume(0.5)])
        #expect(model.snapshot.volume == 0.5)
        #expect(model.plan(.setRate(2), at: .zero) == [.setRate(2)])
        #expect(model.snapshot.rate == 2)
        #expect(model.plan(.openURI("https://example.com/b.m3u8"), at: .zero) == [.open(URL(string: "https://example.com/b.m3u8")!)])
        guard case .ignore = model.plan(.openURI("gopher://example.com/"), at: .zero).first, case .ignore = model.plan(.quit, at: .zero).first else {
            Issue.record("unknown schemes and Quit without a hook are ignored")
            return
        }
        model.canQuit = true
        model.canRaise = true
        #expect(model.plan(.quit, at: .zero) == [.quit] && model.plan(.raise, at: .zero) == [.raise])
        #expect(model.snapshot.canQuit && model.snapshot.canRaise)
    }

    @Test func aMutedControllerPublishesVolumeZero() {
        var model = playing()
        _ = model.observe(.volume(session: 1, AudioVolume(level: 0.8, isMuted: true)), at: .zero)
        #expect(model.snapshot.volume == 0)
        _ = model.observe(.volume(session: 1, AudioVolume(level: 0.8, isMuted: false)), at: .zero)
        #expect(model.snapshot.volume == 0.8)
    }

    @Test func progressAsExpectedIsAPositionAndAJumpIsSeeked() {
        var model = playing(at: .zero)
        #expect(model.observe(.progress(session: 1, .seconds(1)), at: .seconds(1)) == .position(.seconds(1)))
        // Playing: 2 s later the playhead is expected near 3 s.
        #expect(model.observe(.progress(session: 1, .milliseconds(3100)), at: .seconds(3)) == .position(.milliseconds(3100)))
        #expect(model.observe(.progress(session: 1, .seconds(30)), at: .milliseconds(3250)) == .seeked(.seconds(30)))
        // Paused: the playhead stays, so a report elsewhere is a jump even after a while.
        _ = model.observe(.lifecycle(session: 1, .pause), at: .seconds(4))
        #expect(model.position(at: .seconds(10)) == .milliseconds(30750))
        #expect(model.observe(.progress(session: 1, .milliseconds(30750)), at: .seconds(10)) == .position(.milliseconds(30750)))
        #expect(model.observe(.progress(session: 1, .zero), at: .seconds(11)) == .seeked(.zero))
        // Another session's progress is not ours.
        #expect(model.observe(.progress(session: 2, .seconds(5)), at: .seconds(12)) == nil)
    }

    @Test func aLandedSeekMovesThePlayheadAndIsSeekedUnlessProgressToldAlready() {
        var model = playing(at: .zero)
        _ = model.observe(.progress(session: 1, .seconds(20)), at: .seconds(20))
        _ = model.observe(.lifecycle(session: 1, .pause), at: .seconds(20))
        // Paused at 20 s, a seek to 0 lands with no progress report: the playhead moves, clients hear Seeked.
        #expect(model.seekLanded(at: .zero, in: 1, at: .seconds(21)) == .seeked(.zero))
        #expect(model.position(at: .seconds(30)) == .zero)
        // A progress report at the target came first: no second Seeked.
        #expect(model.observe(.progress(session: 1, .seconds(10)), at: .seconds(31)) == .seeked(.seconds(10)))
        #expect(model.seekLanded(at: .seconds(10), in: 1, at: .seconds(31)) == .position(.seconds(10)))
        // A seek asked for in an earlier session moves nothing.
        #expect(model.seekLanded(at: .seconds(35), in: 0, at: .seconds(32)) == nil)
        #expect(model.position(at: .seconds(32)) == .seconds(10))
    }

    @Test func aNewSessionIsANewTrackFromZero() {
        var model = playing()
        _ = model.observe(.progress(session: 1, .seconds(20)), at: .seconds(20))
        let first = model.snapshot.metadata?.trackID
        let second = Video(url: URL(string: "https://example.com/b.m3u8")!, properties: ["id": "v2", "name": "Two"])
        #expect(model.observe(.sessionStarted(id: 2, video: second, sourceURL: nil), at: .seconds(21)) == .position(.zero))
        #expect(model.snapshot.metadata?.trackID != first)
        #expect(model.snapshot.metadata?.title == "Two" && model.snapshot.metadata?.length == nil)
    }
}
